// The compare stage's arithmetic, lane by lane: Clamp, clamp(rhu(q /
// 2^shift), lo, hi) (relu, relu6, a change of fraction length), and PRelu,
// whose negative values take their lane's slope alpha (byte 7 of the lane's
// param slot) before the one rounding: one 56-bit rounding a lane, of q or
// of q alpha (opu_requant).
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
  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    logic signed [47:0] q;
    logic signed [55:0] x;
    logic               negative;
    logic signed [15:0] y;
    assign q = entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
    assign negative = prelu_i && q < 0;
    assign x = !enable_i ? '0 : negative ? 56'(q) * 56'($signed(param_i[64*j+56 +: 8]))  // alpha
                                         : 56'(q);
    opu_requant #(.W(56)) u_requant (
      .x_i(x), .s_i(negative ? neg_shift_i : shift_i), .lo_i, .hi_i, .y_o(y)
    );
    assign entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = enable_i ? 48'(y) : '0;
  end
endmodule
