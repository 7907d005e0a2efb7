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
// 19 bits wide. The shift's amount comes decoded from s a register ahead
// (by its user, opu_post_lanes), so that the compares on s lie on no path
// with the shift (docs/rtl.md, Timing budget).
module opu_requant #(
  parameter int unsigned W = 80
) (
  input  logic                clk_i,
  input  logic                enable_i,  // x_i is an entry's: take it
  input  logic signed [W-1:0] x_i,
  input  logic                positive_i,  // s > 0
  input  logic [6:0]          amount_i,    // s > 0: min(s, W) - 1, x's shift down; else min(-s, 20)
  input  logic signed [15:0]  lo_i,      // held while the entries pass
  input  logic signed [15:0]  hi_i,
  output logic signed [15:0]  y_o        // x_i of the cycle before
);
  logic signed [W-1:0] down;             // x >>> (s - 1)
  logic signed [17:0] quotient, raised, raised_sat, sat_q;
  logic [17:0] same_from;                // x's bits from k up all equal
  logic raised_fits;
  logic round_q;
  logic signed [18:0] r;

  // For s <= 0, x << a (a = -s) fits 18 bits when x's bits from 17 - a up
  // all equal (for a > 17 only x = 0 does): decided from x beside the
  // shift, not from the shifted value after it.
  for (genvar k = 0; k < 18; k++) begin : g_same
    assign same_from[k] = &x_i[W-1:k] || ~|x_i[W-1:k];
  end

  always_comb begin
    down = x_i >>> amount_i;
    // floor(x / 2^s), saturated: its bits from 17 up all equal when it fits.
    quotient = &down[W-1:18] || ~|down[W-1:18] ? down[18:1]
             : down[W-1] ? -18'sd131072 : 18'sd131071;
    raised_fits = amount_i[4:0] > 5'd17 ? ~|x_i : same_from[5'd17 - amount_i[4:0]];
    raised = x_i[17:0] <<< amount_i[4:0];
    raised_sat = raised_fits ? raised : x_i[W-1] ? -18'sd131072 : 18'sd131071;
  end

  always_ff @(posedge clk_i)
    if (enable_i) begin
      sat_q <= positive_i ? quotient : raised_sat;
      round_q <= positive_i && down[0];
    end

  always_comb begin
    r = 19'(sat_q) + 19'(round_q);
    if (r < 19'(lo_i)) y_o = lo_i;
    else if (r > 19'(hi_i)) y_o = hi_i;
    else y_o = r[15:0];
  end
endmodule
