// The rounding and saturation of docs/numerics.md, as the datapath computes
// them: one function per rule, shared by every post-processing stage, so
// that the stages differ only in what they feed in.
package opu_arith_pkg;

  // clamp(rhu(x / 2^s), lo, hi) for any shift: numerics.md's requant into
  // a format [lo, hi]. A left shift (s <= 0) is exact; past 2^20 every
  // nonzero x already lies outside any 16-bit format, so the shift stops
  // there. A right shift adds half and shifts arithmetically (floor), which
  // is round half up.
  function automatic logic signed [47:0] requant(input logic signed [95:0] x,
                                                  input logic signed [7:0] s,
                                                  input logic signed [15:0] lo,
                                                  input logic signed [15:0] hi);
    logic signed [127:0] wide, r, half;
    logic [6:0] amount;
    wide = {{32{x[95]}}, x};
    if (s > 8'sd0) begin
      amount = s[6:0];
      half = 128'sd1 <<< (amount - 7'd1);
      r = (wide + half) >>> amount;
    end else begin
      amount = (s < -8'sd20) ? 7'd20 : 7'(-s);
      r = wide <<< amount;
    end
    if (r < $signed({{112{lo[15]}}, lo})) requant = {{32{lo[15]}}, lo};
    else if (r > $signed({{112{hi[15]}}, hi})) requant = {{32{hi[15]}}, hi};
    else requant = r[47:0];
  endfunction

  // Round half up of n / m for m > 0: floor((2n + m) / 2m) (numerics.md
  // rhu_div), then clamp. SystemVerilog's division truncates toward zero,
  // so a negative inexact quotient steps down by one.
  function automatic logic signed [47:0] rhu_div(input logic signed [63:0] n,
                                                  input logic [34:0] m,
                                                  input logic signed [15:0] lo,
                                                  input logic signed [15:0] hi);
    logic signed [66:0] num, den, q;
    num = $signed({{2{n[63]}}, n, 1'b0}) + $signed({32'd0, m});
    den = $signed({31'd0, m, 1'b0});
    q = num / den;
    if (num < 0 && q * den != num) q = q - 67'sd1;
    if (q < $signed({{51{lo[15]}}, lo})) rhu_div = {{32{lo[15]}}, lo};
    else if (q > $signed({{51{hi[15]}}, hi})) rhu_div = {{32{hi[15]}}, hi};
    else rhu_div = q[47:0];
  endfunction

endpackage
