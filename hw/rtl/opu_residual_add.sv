// The residual add, lane by lane: both operands aligned up by exact left
// shifts (a for the accumulated value, b for the residual byte), added,
// rounded once by out_shift and clamped. Lane j's residual is byte
// res_lane + j of the feature-map row (i8 or u8), or for an i16 that byte
// of the high row (signed) and of the row (the low byte, unsigned); lanes
// from res_lanes on add 0. With multiply_i the exact product, shifted up
// by a, rounded once by out_shift and clamped (numerics.md §5, mul).
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

  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [95:0] acc, res;
      logic [7:0] byte_j, high_j;
      byte_j = lanes[8*j +: 8];
      high_j = high_lanes[8*j +: 8];
      acc = 96'(signed'(entry_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS]));
      res = '0;
      if (32'(j) < 32'(res_lanes_i))
        res = res_format_i == 2'd2 ? {{80{high_j[7]}}, high_j, byte_j}
                                   : {{88{byte_j[7] && res_format_i == 2'd0}}, byte_j};
      if (enable_i)
        entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
            opu_arith_pkg::requant(multiply_i ? (acc * res) <<< acc_shift_i
                               : (acc <<< acc_shift_i) + (res <<< res_shift_i),
                    {2'b00, out_shift_i}, lo_i, hi_i);
    end
  end
endmodule
