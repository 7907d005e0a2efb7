// The residual add, lane by lane: both operands aligned up by exact left
// shifts (a for the accumulated value, b for the residual byte), added,
// rounded once by out_shift and clamped. Lane j's residual is byte
// res_lane + j of the feature-map row (i8 or u8), or for an i16 that byte
// of the high row (signed) and of the row (the low byte, unsigned); lanes
// from res_lanes on add 0. With multiply_i the exact product, shifted up
// by a, rounded once by out_shift and clamped (numerics.md §5, mul): as
// rounding p 2^a by 2^out is rounding p by 2^(out - a), the 48 x 17-bit
// product is rounded as it is. The sum takes 80 bits (48 + 31 and a carry),
// and one rounding a lane serves both (opu_requant).
module opu_residual_add
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  row_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  high_row_i,  // an i16's high bytes
  input  logic [7:0]            res_lane_i,
  input  logic [7:0]            res_lanes_i,
  input  logic [1:0]            res_format_i,  // 0 i8, 1 u8, 2 i16
  input  logic                  multiply_i,
  input  logic [4:0]            acc_shift_i,
  input  logic [4:0]            res_shift_i,
  input  logic [5:0]            out_shift_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  logic [opu_pkg::BEAT_BITS-1:0] lanes, high_lanes;
  assign lanes = row_i >> (32'(res_lane_i) * 8);
  assign high_lanes = high_row_i >> (32'(res_lane_i) * 8);

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    logic signed [47:0] acc;
    logic signed [16:0] res;  // i8, u8 or i16
    logic [7:0] byte_j, high_j;
    logic signed [79:0] x;
    logic signed [15:0] y;
    assign byte_j = lanes[8*j +: 8];
    assign high_j = high_lanes[8*j +: 8];
    assign acc = entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
    assign res = 32'(j) >= 32'(res_lanes_i) ? '0
               : res_format_i == 2'd2 ? {high_j[7], high_j, byte_j}
                                      : {{9{byte_j[7] && res_format_i == 2'd0}}, byte_j};
    assign x = !enable_i ? '0
             : multiply_i ? 80'(64'(acc) * 64'(res))
                          : (80'(acc) <<< acc_shift_i) + (80'(res) <<< res_shift_i);
    opu_requant #(.W(80)) u_requant (
      .x_i(x),
      .s_i(multiply_i ? 8'(out_shift_i) - 8'(acc_shift_i) : 8'(out_shift_i)),
      .lo_i, .hi_i, .y_o(y)
    );
    assign entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = enable_i ? 48'(y) : '0;
  end
endmodule
