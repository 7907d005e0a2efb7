// The output stage, lane by lane: clamp(rhu(acc * M[j] / 2^S[j]), lo, hi),
// M[j] and S[j] from bytes 4-5 and 6 of lane j's param slot.
module opu_output_stage
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [63:0] product;
      product = 64'($signed(entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS])) *
                64'($signed(param_i[64*j+32 +: 16]));
      if (enable_i)
        entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
            opu_arith_pkg::requant({{32{product[63]}}, product}, param_i[64*j+48 +: 8], lo_i, hi_i);
    end
  end
endmodule
