// One post-processing instruction's arithmetic on the entries that enter
// it, one a cycle: Output, Clamp, PRelu and ResAdd on one multiplier and
// one rounding a lane (opu_post_lanes), Table (the chain's one table's
// lookup, opu_post, given as looked_up_i) and Average, picked by the
// opcode of insn_i. Every one takes POST_STAGE_CYCLES cycles: entry_o is
// the entry that entered that many cycles before (enable_i then).
`include "opu_field.svh"
module opu_post_stage #(
  parameter bit HAS_AVERAGE = 1'b1  // Average runs alone: only a chain's first stage needs it
) (
  input  logic                  clk_i,
  input  opu_pkg::word_t                 insn_i,  // held while the entries pass
  input  logic                  enable_i,
  input  logic [8*opu_pkg::CO-1:0]       row_i,        // the residual's lanes (opu_res_row)
  input  logic [8*opu_pkg::CO-1:0]       high_row_i,   // an i16 residual's high lanes
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] looked_up_i,  // the chain's table's, TABLE_CYCLES on
  input  logic [36:0]           avg_d_i,    // opu_average_recip's, for an Average
  input  logic [5:0]            avg_d_shift_i,
  input  logic [18:0]           avg_recip_i,
  input  logic signed [53:0]    avg_lo_bound_i,
  input  logic signed [53:0]    avg_hi_bound_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  localparam int unsigned D = opu_pkg::POST_STAGE_CYCLES;
  logic [3:0] op;
  logic [1:0] kind;
  logic lanes_op;
  logic signed [15:0] lo, hi;
  logic [opu_pkg::ENTRY_BITS-1:0] computed, averaged;
  localparam int unsigned TD = D - opu_pkg::TABLE_CYCLES;  // the lookup's delay to match
  logic [opu_pkg::ENTRY_BITS-1:0] table_q [TD];
  assign op = `OPU_FIELD(insn_i, OPCODE);
  assign kind = op == opuc_isa_pkg::OP_OUTPUT ? 2'd0 : op == opuc_isa_pkg::OP_CLAMP ? 2'd1
              : op == opuc_isa_pkg::OP_PRELU  ? 2'd2 : 2'd3;
  // Each instruction's format, from its own fields.
  always_comb begin
    unique case (op)
      opuc_isa_pkg::OP_OUTPUT: {lo, hi} = {`OPU_FIELD(insn_i, OUTPUT_LO), `OPU_FIELD(insn_i, OUTPUT_HI)};
      opuc_isa_pkg::OP_CLAMP: {lo, hi} = {`OPU_FIELD(insn_i, CLAMP_LO), `OPU_FIELD(insn_i, CLAMP_HI)};
      opuc_isa_pkg::OP_PRELU: {lo, hi} = {`OPU_FIELD(insn_i, PRELU_LO), `OPU_FIELD(insn_i, PRELU_HI)};
      default: {lo, hi} = {`OPU_FIELD(insn_i, RESADD_LO), `OPU_FIELD(insn_i, RESADD_HI)};
    endcase
  end
  assign lanes_op = op == opuc_isa_pkg::OP_OUTPUT || op == opuc_isa_pkg::OP_CLAMP ||
                    op == opuc_isa_pkg::OP_PRELU || op == opuc_isa_pkg::OP_RESADD;

  opu_post_lanes u_lanes (
    .clk_i, .enable_i(enable_i && lanes_op), .kind_i(kind), .entry_i, .param_i, .row_i,
    .high_row_i,
    .shift_i(op == opuc_isa_pkg::OP_PRELU ? 8'(signed'(`OPU_FIELD(insn_i, PRELU_POS_SHIFT)))
                                         : 8'(signed'(`OPU_FIELD(insn_i, CLAMP_SHIFT)))),
    .neg_shift_i(8'(signed'(`OPU_FIELD(insn_i, PRELU_NEG_SHIFT)))),
    .res_lanes_i(`OPU_FIELD(insn_i, RESADD_RES_LANES)),
    .res_format_i(`OPU_FIELD(insn_i, RESADD_RES_FORMAT)),
    .multiply_i(`OPU_FIELD(insn_i, RESADD_MULTIPLY)),
    .acc_shift_i(`OPU_FIELD(insn_i, RESADD_ACC_SHIFT)),
    .res_shift_i(`OPU_FIELD(insn_i, RESADD_RES_SHIFT)),
    .out_shift_i(`OPU_FIELD(insn_i, RESADD_OUT_SHIFT)),
    .lo_i(lo), .hi_i(hi),
    .entry_o(computed)
  );
  if (HAS_AVERAGE) begin : g_average
    opu_average u_average (
      .clk_i, .enable_i(enable_i && op == opuc_isa_pkg::OP_AVERAGE), .entry_i,
      .shift_i(`OPU_FIELD(insn_i, AVERAGE_SHIFT)), .d_i(avg_d_i), .d_shift_i(avg_d_shift_i),
      .recip_i(avg_recip_i), .lo_bound_i(avg_lo_bound_i), .hi_bound_i(avg_hi_bound_i),
      .lo_i(`OPU_FIELD(insn_i, AVERAGE_LO)), .hi_i(`OPU_FIELD(insn_i, AVERAGE_HI)),
      .entry_o(averaged)
    );
  end else begin : g_no_average
    assign averaged = '0;
  end

  always_ff @(posedge clk_i) begin
    table_q[0] <= looked_up_i;
    for (int k = 1; k < TD; k++) table_q[k] <= table_q[k-1];
  end

  assign entry_o = op == opuc_isa_pkg::OP_TABLE ? table_q[TD-1]
                 : op == opuc_isa_pkg::OP_AVERAGE ? averaged : computed;
endmodule
