// Average, lane by lane: clamp(rhu_div(sum << up, count << down), lo, hi)
// with up = max(-shift, 0), down = max(shift, 0): numerics.md's one exact
// rounding of a sum divided by its taps.
module opu_average
  import opu_pkg::*;
  import opu_arith_pkg::*;
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [ENTRY_BITS-1:0] entry_i,
  input  logic [19:0]           count_i,
  input  logic signed [4:0]     shift_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [ENTRY_BITS-1:0] entry_o
);
  logic [4:0] up, down;
  assign up = shift_i < 0 ? 5'(-shift_i) : 5'd0;
  assign down = shift_i > 0 ? 5'(shift_i) : 5'd0;

  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < CO; j++) begin
      logic signed [63:0] n;
      n = 64'(signed'(entry_i[ACC_BITS*j +: ACC_BITS])) <<< up;
      if (enable_i) entry_o[ACC_BITS*j +: ACC_BITS] = rhu_div(n, 35'(count_i) << down, lo_i, hi_i);
    end
  end
endmodule
