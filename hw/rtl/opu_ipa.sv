// The inner-product array: CO dot products of one feature-map pixel's L
// bytes (signed, or unsigned: a u8 or the low byte of an i16) with the CO
// rows of the weight matrix (signed). CO x L multipliers, one pixel a cycle.
module opu_ipa
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [opu_pkg::BEAT_BITS-1:0]       fm_i,
  input  logic [opu_pkg::WGT_BITS-1:0]        weights_i,  // W[j][l] at byte j * L + l
  input  logic                       fm_unsigned_i,
  output logic [32*opu_pkg::CO-1:0] sums_o      // lane j's at 32 j
);
  always_comb begin
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [31:0] sum;
      sum = '0;
      if (enable_i) begin
        for (int unsigned l = 0; l < opu_pkg::L; l++)
          sum = sum + 32'($signed({fm_unsigned_i ? 1'b0 : fm_i[8*l+7], fm_i[8*l +: 8]}) *
                         $signed(weights_i[8*(j*opu_pkg::L+l) +: 8]));
      end
      sums_o[32*j +: 32] = sum;
    end
  end
endmodule
