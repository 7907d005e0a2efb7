// The output stage, lane by lane: clamp(rhu(acc * M[j] / 2^S[j]), lo, hi),
// M[j] and S[j] from bytes 4-5 and 6 of lane j's param slot. The product
// is 64 bits (48 x 16), and so is the rounding (opu_requant).
module opu_output_stage
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    logic signed [63:0] product;
    logic signed [15:0] y;
    assign product = enable_i ? 64'($signed(entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS])) *
                                64'($signed(param_i[64*j+32 +: 16])) : '0;
    opu_requant #(.W(64)) u_requant (
      .x_i(product), .s_i(param_i[64*j+48 +: 8]), .lo_i, .hi_i, .y_o(y)
    );
    assign entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = enable_i ? 48'(y) : '0;
  end
endmodule
