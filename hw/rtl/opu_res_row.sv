// A ResAdd's residual lanes out of a feature-map row: the CO bytes from
// res_lane on. res_lane is a multiple of half a granule (CO / 2 lanes), so
// the row shifts by whole half granules, an 8-way choice on opu1024. Done
// once where the row is read (opu_post), the chain's stages and the pipeline
// between them carry CO bytes, not the row's L.
module opu_res_row
(
  input  logic [opu_pkg::BEAT_BITS-1:0] row_i,
  input  logic [7:0]                    res_lane_i,
  output logic [8*opu_pkg::CO-1:0]      lanes_o
);
  localparam int unsigned HALF = opu_pkg::CO / 2 > 0 ? opu_pkg::CO / 2 : 1;
  logic [opu_pkg::BEAT_BITS-1:0] shifted;
  assign shifted = row_i >> (32'(res_lane_i) / HALF * (8 * HALF));
  assign lanes_o = shifted[8*opu_pkg::CO-1:0];
endmodule
