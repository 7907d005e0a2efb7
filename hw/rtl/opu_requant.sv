// numerics.md's requant into a format [lo, hi]: clamp(rhu(x / 2^s), lo, hi)
// for any shift s, on a W-bit x, over two cycles (a register between, so
// that neither half holds a carry chain as wide as x). For s > 0,
// rhu(x / 2^s) is floor(x / 2^s) plus x's bit s - 1 (the half carries into
// the quotient exactly when that bit is set): a shift, then a one-bit add
// after the register; past W bits every x rounds to 0, so the shift stops
// at W. For s <= 0 the shift is exact: x saturated to 18 bits first, at most
// 20 places. Either way the value is saturated to 18 bits before the
// register (any |v| >= 2^17 is beyond a 16-bit format and stays beyond it,
// on its side, whatever the rounding adds), which a reduction of the high
// bits decides, not a compare as wide as x; the add and the clamp are then
// 19 bits wide.
module opu_requant #(
  parameter int unsigned W = 80
) (
  input  logic                clk_i,
  input  logic                enable_i,  // x_i is an entry's: take it
  input  logic signed [W-1:0] x_i,
  input  logic signed [7:0]   s_i,
  input  logic signed [15:0]  lo_i,      // held while the entries pass
  input  logic signed [15:0]  hi_i,
  output logic signed [15:0]  y_o        // x_i of the cycle before
);
  logic [6:0] amount;
  logic signed [W-1:0] down;             // x >>> (s - 1)
  logic signed [17:0] narrow, quotient, raised_sat, sat_q;
  logic signed [37:0] raised;
  logic round_q;
  logic signed [18:0] r;

  always_comb begin
    amount = s_i > 8'sd0 ? (32'(s_i) > W ? 7'(W) : 7'(s_i)) : 7'(s_i < -8'sd20 ? 8'sd20 : -s_i);
    down = x_i >>> (s_i > 8'sd0 ? amount - 7'd1 : 7'd0);
    // floor(x / 2^s), saturated: its bits from 17 up all equal when it fits.
    quotient = &down[W-1:18] || ~|down[W-1:18] ? down[18:1]
             : down[W-1] ? -18'sd131072 : 18'sd131071;
    narrow = &x_i[W-1:17] || ~|x_i[W-1:17] ? x_i[17:0]
           : x_i[W-1] ? -18'sd131072 : 18'sd131071;
    raised = 38'(narrow) <<< amount;
    raised_sat = &raised[37:17] || ~|raised[37:17] ? raised[17:0]
               : raised[37] ? -18'sd131072 : 18'sd131071;
  end

  always_ff @(posedge clk_i)
    if (enable_i) begin
      sat_q <= s_i > 8'sd0 ? quotient : raised_sat;
      round_q <= s_i > 8'sd0 && down[0];
    end

  always_comb begin
    r = 19'(sat_q) + 19'(round_q);
    if (r < 19'(lo_i)) y_o = lo_i;
    else if (r > 19'(hi_i)) y_o = hi_i;
    else y_o = r[15:0];
  end
endmodule
