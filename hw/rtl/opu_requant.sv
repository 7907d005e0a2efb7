// numerics.md's requant into a format [lo, hi]: clamp(rhu(x / 2^s), lo, hi)
// for any shift s, on a W-bit x, over two cycles (a register between, so
// that neither half holds a carry chain as wide as x). Both directions read
// one window of 19 bits of x' = x * 2^20 (x with 20 zeros below), starting
// at `offset`:
// - s > 0: rhu(x / 2^s) is floor(x / 2^s) plus x's bit s - 1 (the half
//   carries into the quotient exactly when that bit is set): the window
//   from x's bit s - 1, offset s + 19; its top 18 bits, then a one-bit add
//   after the register;
// - s <= 0: x * 2^-s exactly, x's low 18 bits moved up -s places (at most
//   20): the window from offset 20 + s, its low 18 bits.
// A shifter brings the window down, its largest steps first, each keeping
// only the bits the steps after it read (253 two-way choices where
// shifting all of x took 560, and a second shifter the other way 90). The
// value is saturated to 18 bits before the register (any |v| >= 2^17 is
// beyond a 16-bit format and stays beyond it, on its side, whatever the
// rounding adds). Whether it fits is read off x', not off a shifted copy:
// its bits from the value's top up all equal its sign (from offset + 18
// for s > 0, offset + 17 for s <= 0; the zeros below x count, so past 17
// places only x = 0 fits) — from the bits that differ from the sign, OR-ed
// in groups of eight and over the groups above each: one group, one suffix
// of it and one group's "above" chosen by that bit, not a reduction as wide
// as x for every place. The add and the clamp are then 19 bits wide. The
// offset comes decoded from s a register ahead (by its user,
// opu_post_lanes), so that the compares on s lie on no path with the shift
// (docs/rtl.md, Timing budget).
module opu_requant #(
  parameter int unsigned W = 80  // at most 108: the offset (up to W + 19) has 7 bits
) (
  input  logic                clk_i,
  input  logic                enable_i,  // x_i is an entry's: take it
  input  logic signed [W-1:0] x_i,
  input  logic                positive_i,  // s > 0
  input  logic [6:0]          offset_i,    // s > 0: min(s, W) + 19; else 20 + max(s, -20)
  input  logic signed [15:0]  lo_i,      // held while the entries pass
  input  logic signed [15:0]  hi_i,
  output logic signed [15:0]  y_o        // x_i of the cycle before
);
  localparam int unsigned XW = W + 20;            // x'
  localparam int unsigned G = (XW - 1 + 7) / 8;  // groups of the bits below the sign
  localparam int unsigned GW = $clog2(G);
  logic sign, fits, round_q;
  logic [XW-2:0] differs_raw;
  logic [8*G-1:0] differs;        // x''s bits that differ from its sign
  logic [G-1:1] group;            // a group has one (the lowest's OR is never asked for)
  logic [G-1:0] above;            // a group above it has one
  logic [7:0] top;                // the lowest bit that must equal the sign
  logic [7:0] at_group;
  logic signed [17:0] sat, sat_q;
  logic signed [18:0] r;
  // The window, the largest steps first, each the bits the steps after it read.
  logic [145:0] v7;
  logic [81:0]  v6;
  logic [49:0]  v5;
  logic [33:0]  v4;
  logic [25:0]  v3;
  logic [21:0]  v2;
  logic [19:0]  v1;
  logic [18:0]  v0;

  assign sign = x_i[W-1];
  assign differs_raw = {x_i[W-2:0], 20'd0} ^ {(XW-1){sign}};
  assign differs = (8*G)'(differs_raw);
  for (genvar i = 0; i < G; i++) begin : g_group
    if (i > 0) begin : g_or
      assign group[i] = |differs[8*i +: 8];
    end
    if (i == G - 1) begin : g_top
      assign above[i] = 1'b0;
    end else begin : g_below
      assign above[i] = |group[G-1:i+1];
    end
  end

  assign v7 = 146'(signed'({x_i, 20'd0}));
  assign v6 = offset_i[6] ? v7[64 +: 82] : v7[0 +: 82];
  assign v5 = offset_i[5] ? v6[32 +: 50] : v6[0 +: 50];
  assign v4 = offset_i[4] ? v5[16 +: 34] : v5[0 +: 34];
  assign v3 = offset_i[3] ? v4[8 +: 26] : v4[0 +: 26];
  assign v2 = offset_i[2] ? v3[4 +: 22] : v3[0 +: 22];
  assign v1 = offset_i[1] ? v2[2 +: 20] : v2[0 +: 20];
  assign v0 = offset_i[0] ? v1[1 +: 19] : v1[0 +: 19];

  always_comb begin
    top = 8'(offset_i) + (positive_i ? 8'd18 : 8'd17);
    at_group = differs[8*32'(top[7:3]) +: 8] >> top[2:0];
    fits = 32'(top[7:3]) >= G || !(above[GW'(top[7:3])] || |at_group);
    sat = !fits ? (sign ? -18'sd131072 : 18'sd131071)
        : positive_i ? signed'(v0[18:1]) : signed'(v0[17:0]);
  end

  always_ff @(posedge clk_i)
    if (enable_i) begin
      sat_q <= sat;
      round_q <= positive_i && v0[0];
    end

  always_comb begin
    r = 19'(sat_q) + 19'(round_q);
    if (r < 19'(lo_i)) y_o = lo_i;
    else if (r > 19'(hi_i)) y_o = hi_i;
    else y_o = r[15:0];
  end
endmodule
