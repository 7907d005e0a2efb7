// Average's divisor, once per instruction: D = 2 (count << down) and its
// reciprocal R = floor(2^(b+17) / D), b = D's bit length, by restoring
// division over 19 cycles (one quotient bit a cycle), so that each lane
// divides with two multiplies and a correction (opu_average) instead of a
// divider of its own. Also lo D and (hi + 1) D, the sums past which the
// quotient saturates. done_o rises 20 cycles after start_i
// (codegen's CycleEstimate::kAverageSetupCycles counts them).
module opu_average_recip (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  logic [19:0]         count_i,
  input  logic signed [4:0]   shift_i,
  input  logic signed [15:0]  lo_i,     // held while the instruction runs
  input  logic signed [15:0]  hi_i,
  output logic                done_o,
  output logic [36:0]         d_o,      // 2 (count << down)
  output logic [5:0]          shift_o,  // b - 1: a numerator's bits below its quotient's
  output logic [18:0]         recip_o,  // floor(2^(b+17) / D)
  output logic signed [53:0]  lo_bound_o,
  output logic signed [53:0]  hi_bound_o
);
  logic [4:0]  down;
  logic [36:0] d;
  logic [4:0]  count_top;   // count's highest set bit
  logic [35:0] normalized;  // D normalized into [2^35, 2^36)
  logic [37:0] rem_q;       // the partial remainder, below 2 D_n
  logic [35:0] dn_q;        // D normalized
  logic [4:0]  step_q;
  logic        busy_q;

  // D and its normalized form side by side from the count, not one after
  // the other: D = 2 count << down has its highest bit at count_top + 1 +
  // down, so D << (35 - that) = 2 count << (34 - count_top), whatever down
  // is (docs/rtl.md, Timing budget).
  assign down = shift_i > 0 ? 5'(shift_i) : 5'd0;
  assign d = {16'd0, count_i, 1'b0} << down;
  always_comb begin
    count_top = '0;
    for (int unsigned i = 0; i < 20; i++)
      if (count_i[i]) count_top = 5'(i);
  end
  assign normalized = 36'({count_i, 1'b0}) << (6'd34 - 6'(count_top));
  // From D's register to their own (a DSP48E1's), a cycle after D, long
  // before the divisor is done.
  always_ff @(posedge clk_i) begin
    lo_bound_o <= 54'(lo_i) * $signed({1'b0, d_o});
    hi_bound_o <= (54'(hi_i) + 54'sd1) * $signed({1'b0, d_o});
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {busy_q, done_o, step_q, rem_q, dn_q, d_o, shift_o, recip_o} <= '0;
    end else begin
      done_o <= 1'b0;
      if (start_i) begin
        busy_q <= 1'b1;
        step_q <= 5'd19;
        d_o <= d;
        shift_o <= count_i == '0 ? 6'd0 : 6'(count_top) + 6'(down) + 6'd1;
        dn_q <= normalized;
        rem_q <= 38'd1 << 35;  // 2^53's prefix down to the quotient's bit 18
        recip_o <= '0;
      end else if (busy_q) begin
        if (step_q == 5'd1) begin
          busy_q <= 1'b0;
          done_o <= 1'b1;
        end
        if (rem_q >= {2'b00, dn_q}) begin
          rem_q <= (rem_q - {2'b00, dn_q}) << 1;
          recip_o <= {recip_o[17:0], 1'b1};
        end else begin
          rem_q <= rem_q << 1;
          recip_o <= {recip_o[17:0], 1'b0};
        end
        step_q <= step_q - 5'd1;
      end
    end
  end
endmodule
