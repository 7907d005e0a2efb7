// The compare stage's arithmetic, lane by lane: Clamp, clamp(rhu(q /
// 2^shift), lo, hi) (relu, relu6, a change of fraction length), and PRelu,
// whose negative values take their lane's slope alpha (byte 7 of the lane's
// param slot) before the one rounding.
module opu_compare
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic                  prelu_i,
  input  logic signed [7:0]     shift_i,      // Clamp's shift, PRelu's pos_shift
  input  logic signed [7:0]     neg_shift_i,  // PRelu's neg_shift
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] q;
      logic signed [55:0] scaled;
      q = entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
      scaled = 56'(q) * 56'($signed(param_i[64*j+56 +: 8]));  // alpha, byte 7
      if (enable_i) begin
        if (prelu_i && q < 0)
          entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = opu_arith_pkg::requant(96'(scaled), neg_shift_i, lo_i, hi_i);
        else
          entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = opu_arith_pkg::requant(96'(q), shift_i, lo_i, hi_i);
      end
    end
  end
endmodule
