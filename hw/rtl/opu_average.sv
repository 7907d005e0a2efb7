// Average, lane by lane: clamp(rhu_div(sum << up, count << down), lo, hi)
// with up = max(-shift, 0), down = max(shift, 0): numerics.md's one exact
// rounding of a sum divided by its taps, without a divider. With N = 2 (sum
// << up) + m and D = 2 m (m = count << down), the quotient is floor(N / D):
// below lo when N < lo D, above hi when N >= (hi + 1) D; between them N' =
// N - lo D < 2^16 D, and q = floor((N' >> (b - 1)) R / 2^18) with opu_average_
// recip's R = floor(2^(b+17) / D) lies in [q - 2, q] (the two truncations
// lose less than 1 and 1/2), which the remainder N' - q D corrects.
module opu_average
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
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
  logic [4:0] up;
  assign up = shift_i < 0 ? 5'(-shift_i) : 5'd0;

  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [66:0] n;
      logic [51:0] rest;     // N - lo D, when in range
      logic [16:0] high;     // its bits from b - 1 up
      logic [17:0] q;
      logic [55:0] r;
      n = (67'(signed'(entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS])) <<< (up + 5'd1)) +
          67'(d_i[36:1]);  // m = D / 2
      rest = 52'(n - 67'(lo_bound_i));
      high = 17'(rest >> d_shift_i);
      q = 18'((36'(high) * 36'(recip_i)) >> 18);
      r = 56'(rest) - 56'(q) * 56'(d_i);
      if (r >= 56'(d_i)) q = q + 18'd1;
      if (r >= 56'(d_i) << 1) q = q + 18'd1;
      if (enable_i) begin
        if (n < 67'(lo_bound_i))
          entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = 48'(lo_i);
        else if (n >= 67'(hi_bound_i))
          entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = 48'(hi_i);
        else
          entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = 48'(lo_i) + 48'(q);
      end
    end
  end
endmodule
