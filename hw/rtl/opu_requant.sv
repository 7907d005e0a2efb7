// numerics.md's requant into a format [lo, hi]: clamp(rhu(x / 2^s), lo, hi)
// for any shift s, on a W-bit x, no wider than the contract needs. A right
// shift (s > 0) adds half and shifts arithmetically (round half up); past W
// bits every x rounds to 0, so the shift stops at W and the sum needs W + 1
// bits. A left shift (s <= 0) is exact: x saturated to 18 bits first (any
// |x| >= 2^17 is beyond a 16-bit format and stays beyond it, on its side,
// however far it moves), at most 20 places (past 2^20 every nonzero value
// is), so 38 bits.
module opu_requant #(
  parameter int unsigned W = 64
) (
  input  logic signed [W-1:0] x_i,
  input  logic signed [7:0]   s_i,
  input  logic signed [15:0]  lo_i,
  input  logic signed [15:0]  hi_i,
  output logic signed [15:0]  y_o
);
  localparam int unsigned RW = W + 1 > 38 ? W + 1 : 38;  // both paths' width
  logic [6:0] amount;
  logic signed [W:0] half, rounded;
  logic signed [17:0] narrow;
  logic signed [37:0] raised;
  logic signed [RW-1:0] r;

  always_comb begin
    amount = s_i > 8'sd0 ? (32'(s_i) > W ? 7'(W) : 7'(s_i)) : 7'(s_i < -8'sd20 ? 8'sd20 : -s_i);
    half = s_i > 8'sd0 ? (W+1)'(1) <<< (amount - 7'd1) : '0;
    rounded = ((W+1)'(x_i) + half) >>> amount;
    narrow = x_i < -(W'(1) <<< 17) ? -18'sd131072 : x_i > (W'(1) <<< 17) - W'(1) ? 18'sd131071
                                                                             : 18'(x_i);
    raised = 38'(narrow) <<< amount;
    r = s_i > 8'sd0 ? RW'(rounded) : RW'(raised);
    if (r < RW'(lo_i)) y_o = lo_i;
    else if (r > RW'(hi_i)) y_o = hi_i;
    else y_o = r[15:0];
  end
endmodule
