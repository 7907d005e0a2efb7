// The post-processing stages, the token counters and the queue side by side
// with their ports brought out, for tests/sim/rtl_stages_test.cc to drive
// with hand-computed values (the tiny preset's shapes: CO = 4, L = 8).
module opu_stages_tb
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  row_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  input  logic                  prelu_i,
  input  logic signed [7:0]     shift_i,
  input  logic signed [7:0]     neg_shift_i,
  input  logic [7:0]            res_lane_i,
  input  logic [7:0]            res_lanes_i,
  input  logic [1:0]            res_format_i,
  input  logic                  multiply_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  high_row_i,
  input  logic [4:0]            acc_shift_i,
  input  logic [4:0]            res_shift_i,
  input  logic [5:0]            out_shift_i,
  input  logic [19:0]           count_i,
  input  logic signed [4:0]     avg_shift_i,
  input  logic                  avg_start_i,  // prepares the divisor of count_i, avg_shift_i
  output logic                  avg_done_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] output_stage_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] compare_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] residual_add_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] average_o,
  input  logic [opu_pkg::NUM_ENGINES-1:0] take_prev_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] take_next_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] give_prev_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] give_next_i,
  output logic [opu_pkg::NUM_ENGINES-1:0] has_prev_o,
  output logic [opu_pkg::NUM_ENGINES-1:0] has_next_o,
  output logic                   leftover_o,
  input  logic                   clear_i,
  input  logic                   push_i,
  input  logic [7:0]             push_data_i,
  input  logic                   pop_i,
  output logic [7:0]             head_o,
  output logic                   empty_o,
  output logic [2:0]             count_o
);
  // The three ways the lanes run, each its own instance, a register's
  // worth of cycles behind their inputs (opu_post_lanes), on the residual's
  // lanes as opu_post picks them from the rows (opu_res_row).
  logic [8*opu_pkg::CO-1:0] res_row, res_high_row;
  opu_res_row u_res_row (.row_i, .res_lane_i, .lanes_o(res_row));
  opu_res_row u_res_high_row (.row_i(high_row_i), .res_lane_i, .lanes_o(res_high_row));
  opu_post_lanes u_output (
    .clk_i, .enable_i(1'b1), .kind_i(2'd0), .entry_i, .param_i, .row_i(res_row),
    .high_row_i(res_high_row), .shift_i, .neg_shift_i, .res_lanes_i, .res_format_i, .multiply_i,
    .acc_shift_i, .res_shift_i, .out_shift_i, .lo_i, .hi_i, .entry_o(output_stage_o)
  );
  opu_post_lanes u_compare (
    .clk_i, .enable_i(1'b1), .kind_i(prelu_i ? 2'd2 : 2'd1), .entry_i, .param_i, .row_i(res_row),
    .high_row_i(res_high_row), .shift_i, .neg_shift_i, .res_lanes_i, .res_format_i, .multiply_i,
    .acc_shift_i, .res_shift_i, .out_shift_i, .lo_i, .hi_i, .entry_o(compare_o)
  );
  opu_post_lanes u_residual (
    .clk_i, .enable_i(1'b1), .kind_i(2'd3), .entry_i, .param_i, .row_i(res_row),
    .high_row_i(res_high_row), .shift_i, .neg_shift_i, .res_lanes_i, .res_format_i, .multiply_i,
    .acc_shift_i, .res_shift_i, .out_shift_i, .lo_i, .hi_i, .entry_o(residual_add_o)
  );
  logic [36:0] avg_d;
  logic [5:0]  avg_d_shift;
  logic [18:0] avg_recip;
  logic signed [53:0] avg_lo_bound, avg_hi_bound;
  opu_average_recip u_recip (
    .clk_i, .rst_ni, .start_i(avg_start_i), .count_i, .shift_i(avg_shift_i), .lo_i, .hi_i,
    .done_o(avg_done_o), .d_o(avg_d), .shift_o(avg_d_shift), .recip_o(avg_recip),
    .lo_bound_o(avg_lo_bound), .hi_bound_o(avg_hi_bound)
  );
  opu_average u_average (
    .clk_i, .enable_i(1'b1), .entry_i, .shift_i(avg_shift_i), .d_i(avg_d), .d_shift_i(avg_d_shift),
    .recip_i(avg_recip), .lo_bound_i(avg_lo_bound), .hi_bound_i(avg_hi_bound), .lo_i, .hi_i,
    .entry_o(average_o)
  );
  opu_tokens u_tokens (
    .clk_i, .rst_ni, .take_prev_i, .take_next_i, .give_prev_i, .give_next_i, .has_prev_o,
    .has_next_o, .leftover_o
  );
  opu_fifo #(.WIDTH(8), .DEPTH(4)) u_fifo (
    .clk_i, .rst_ni, .clear_i, .push_i, .data_i(push_data_i), .pop_i, .head_o, .empty_o, .count_o
  );
endmodule
