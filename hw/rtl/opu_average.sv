// Average, lane by lane: clamp(rhu_div(sum << up, count << down), lo, hi)
// with up = max(-shift, 0), down = max(shift, 0): numerics.md's one exact
// rounding of a sum divided by its taps, without a divider. With N = 2 (sum
// << up) + m and D = 2 m (m = count << down), the quotient is floor(N / D):
// below lo when N < lo D, above hi when N >= (hi + 1) D; between them N' =
// N - lo D < 2^16 D, and q = floor((N' >> (b - 1)) R / 2^18) with opu_average_
// recip's R = floor(2^(b+17) / D) lies in [q - 2, q] (the two truncations
// lose less than 1 and 1/2), which the remainder N' - q D (below 3 D < 2^39)
// corrects.
// Pipelined within the 200 MHz budget (docs/rtl.md), AVERAGE_CYCLES = 7
// registers (Average runs alone, so its pipeline need not match the other
// stages'): 1. sum << (up + 1); 2. N - lo D and N - (hi + 1) D, as
// sum << (up + 1) plus the instruction's constants m - lo D and m - (hi + 1) D,
// each in two halves, the high one for either carry; 3. the halves joined,
// N' >> (b - 1); 4. q (a DSP48E1); 5. q D as two products (D's low 18 bits
// and the rest); 6. q D joined; 7. the remainder, beside lo + q, + 1, + 2;
// then the correction's two compares pick one.
module opu_average
(
  input  logic                  clk_i,
  input  logic                  enable_i,  // an entry at entry_i this cycle
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic signed [4:0]     shift_i,
  input  logic [36:0]           d_i,       // opu_average_recip's, for this instruction
  input  logic [5:0]            d_shift_i,
  input  logic [18:0]           recip_i,
  input  logic signed [53:0]    lo_bound_i,
  input  logic signed [53:0]    hi_bound_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  localparam int unsigned ACC = opu_pkg::ACC_BITS;
  localparam int unsigned A = opu_pkg::AVERAGE_CYCLES;
  logic [4:0] up;
  logic [A:1] v_q;
  // The instruction's constants, registered (they settle while the divisor
  // is prepared, 20 cycles before the first entry).
  logic signed [66:0] c_lo_q, c_hi_q;  // m - lo D, m - (hi + 1) D
  logic [39:0] d2_q;                   // 2 D
  assign up = shift_i < 0 ? 5'(-shift_i) : 5'd0;

  always_ff @(posedge clk_i) begin
    v_q <= {v_q[A-1:1], enable_i};
    c_lo_q <= 67'(d_i[36:1]) - 67'(lo_bound_i);
    c_hi_q <= 67'(d_i[36:1]) - 67'(hi_bound_i);
    d2_q <= 40'(d_i) << 1;
  end

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    logic signed [66:0] t1_q;                 // sum << (up + 1)
    logic [36:0] lo_low2_q, hi_low2_q;        // low 36 bits of N - lo D, N - (hi + 1) D, carry
    logic [30:0] lo_high2_q, lo_carry2_q;     // their high 31 bits, without and with it
    logic [30:0] hi_high2_q, hi_carry2_q;
    logic [66:0] rest;                        // N - lo D
    logic [51:0] rest3_q, rest4_q, rest5_q, rest6_q;
    logic [16:0] high3_q;                     // N' from bit b - 1 up
    logic [15:0] q4_q;                        // q < 2^16 when N is in range
    logic [15:0] q5_q, q6_q;
    logic [35:0] low5_q;                      // q x D's low 18 bits
    logic [36:0] high5_q;                     // q x the rest of D
    logic [55:0] qd6_q;
    logic [39:0] r7_q;                        // N' - q D, below 3 D
    logic [15:0] y0_7_q, y1_7_q, y2_7_q;     // lo + q, + 1, + 2
    logic below3_q, above3_q;
    logic [7:4] below_q, above_q;

    assign rest = {lo_low2_q[36] ? lo_carry2_q : lo_high2_q, lo_low2_q[35:0]};

    always_ff @(posedge clk_i) begin
      if (enable_i) t1_q <= 67'(signed'(entry_i[ACC*j +: ACC])) <<< (up + 5'd1);
      if (v_q[1]) begin
        lo_low2_q <= 37'(t1_q[35:0]) + 37'(c_lo_q[35:0]);
        lo_high2_q <= t1_q[66:36] + c_lo_q[66:36];
        lo_carry2_q <= t1_q[66:36] + c_lo_q[66:36] + 31'd1;
        hi_low2_q <= 37'(t1_q[35:0]) + 37'(c_hi_q[35:0]);
        hi_high2_q <= t1_q[66:36] + c_hi_q[66:36];
        hi_carry2_q <= t1_q[66:36] + c_hi_q[66:36] + 31'd1;
      end
      if (v_q[2]) begin
        below3_q <= rest[66];
        above3_q <= !(hi_low2_q[36] ? hi_carry2_q[30] : hi_high2_q[30]);  // N >= (hi + 1) D
        rest3_q <= rest[51:0];
        high3_q <= 17'(rest[51:0] >> d_shift_i);
      end
      if (v_q[3]) begin
        q4_q <= 16'((36'(high3_q) * 36'(recip_i)) >> 18);
        rest4_q <= rest3_q;
        {below_q[4], above_q[4]} <= {below3_q, above3_q};
      end
      if (v_q[4]) begin
        low5_q <= 36'(q4_q) * 36'(d_i[17:0]);   // a DSP48E1 each
        high5_q <= 37'(q4_q) * 37'(d_i[36:18]);
        q5_q <= q4_q;
        rest5_q <= rest4_q;
        {below_q[5], above_q[5]} <= {below_q[4], above_q[4]};
      end
      if (v_q[5]) begin
        qd6_q <= (56'(high5_q) << 18) + 56'(low5_q);
        q6_q <= q5_q;
        rest6_q <= rest5_q;
        {below_q[6], above_q[6]} <= {below_q[5], above_q[5]};
      end
      if (v_q[6]) begin
        r7_q <= 40'(56'(rest6_q) - qd6_q);
        y0_7_q <= lo_i + q6_q;
        y1_7_q <= lo_i + q6_q + 16'd1;
        y2_7_q <= lo_i + q6_q + 16'd2;
        {below_q[7], above_q[7]} <= {below_q[6], above_q[6]};
      end
    end

    assign entry_o[ACC*j +: ACC] =
        !v_q[A] ? '0 : below_q[7] ? 48'(lo_i) : above_q[7] ? 48'(hi_i)
      : 48'(signed'(r7_q >= d2_q ? y2_7_q : r7_q >= 40'(d_i) ? y1_7_q : y0_7_q));
  end
endmodule
