// One post-processing instruction's arithmetic on one entry: Output, Clamp,
// PRelu, Table, ResAdd or Average, picked by the opcode of insn_i. Only
// the stage the instruction names computes, and only with enable_i. A
// Table's lookup is the chain's one table's (opu_post), given as looked_up_i.
`include "opu_field.svh"
module opu_post_stage #(
  parameter bit HAS_AVERAGE = 1'b1  // Average runs alone: only a chain's first stage needs it
) (
  input  opu_pkg::word_t                 insn_i,
  input  logic                  enable_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  row_i,        // a feature-map row: the residual
  input  logic [opu_pkg::BEAT_BITS-1:0]  high_row_i,   // an i16 residual's high row
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] looked_up_i,  // entry_i through the chain's table
  input  logic [36:0]           avg_d_i,    // opu_average_recip's, for an Average
  input  logic [5:0]            avg_d_shift_i,
  input  logic [18:0]           avg_recip_i,
  input  logic signed [53:0]    avg_lo_bound_i,
  input  logic signed [53:0]    avg_hi_bound_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  logic [3:0] op;
  logic [opu_pkg::ENTRY_BITS-1:0] out_stage, compared, added, averaged;
  assign op = `OPU_FIELD(insn_i, OPCODE);

  opu_output_stage u_output (
    .enable_i(enable_i && op == opuc_isa_pkg::OP_OUTPUT), .entry_i, .param_i,
    .lo_i(`OPU_FIELD(insn_i, OUTPUT_LO)), .hi_i(`OPU_FIELD(insn_i, OUTPUT_HI)),
    .entry_o(out_stage)
  );
  opu_compare u_compare (
    .enable_i(enable_i && (op == opuc_isa_pkg::OP_CLAMP || op == opuc_isa_pkg::OP_PRELU)), .entry_i,
    .prelu_i(op == opuc_isa_pkg::OP_PRELU),
    .shift_i(op == opuc_isa_pkg::OP_PRELU ? 8'(signed'(`OPU_FIELD(insn_i, PRELU_POS_SHIFT)))
                            : 8'(signed'(`OPU_FIELD(insn_i, CLAMP_SHIFT)))),
    .neg_shift_i(8'(signed'(`OPU_FIELD(insn_i, PRELU_NEG_SHIFT)))),
    .param_i,
    .lo_i(op == opuc_isa_pkg::OP_PRELU ? `OPU_FIELD(insn_i, PRELU_LO) : `OPU_FIELD(insn_i, CLAMP_LO)),
    .hi_i(op == opuc_isa_pkg::OP_PRELU ? `OPU_FIELD(insn_i, PRELU_HI) : `OPU_FIELD(insn_i, CLAMP_HI)),
    .entry_o(compared)
  );
  opu_residual_add u_residual (
    .enable_i(enable_i && op == opuc_isa_pkg::OP_RESADD), .entry_i, .row_i, .high_row_i,
    .res_lane_i(`OPU_FIELD(insn_i, RESADD_RES_LANE)),
    .res_lanes_i(`OPU_FIELD(insn_i, RESADD_RES_LANES)),
    .res_format_i(`OPU_FIELD(insn_i, RESADD_RES_FORMAT)),
    .multiply_i(`OPU_FIELD(insn_i, RESADD_MULTIPLY)),
    .acc_shift_i(`OPU_FIELD(insn_i, RESADD_ACC_SHIFT)),
    .res_shift_i(`OPU_FIELD(insn_i, RESADD_RES_SHIFT)),
    .out_shift_i(`OPU_FIELD(insn_i, RESADD_OUT_SHIFT)),
    .lo_i(`OPU_FIELD(insn_i, RESADD_LO)), .hi_i(`OPU_FIELD(insn_i, RESADD_HI)),
    .entry_o(added)
  );
  if (HAS_AVERAGE) begin : g_average
    opu_average u_average (
      .enable_i(enable_i && op == opuc_isa_pkg::OP_AVERAGE), .entry_i,
      .shift_i(`OPU_FIELD(insn_i, AVERAGE_SHIFT)), .d_i(avg_d_i), .d_shift_i(avg_d_shift_i),
      .recip_i(avg_recip_i), .lo_bound_i(avg_lo_bound_i), .hi_bound_i(avg_hi_bound_i),
      .lo_i(`OPU_FIELD(insn_i, AVERAGE_LO)), .hi_i(`OPU_FIELD(insn_i, AVERAGE_HI)),
      .entry_o(averaged)
    );
  end else begin : g_no_average
    assign averaged = '0;
  end

  always_comb begin
    unique case (op)
      opuc_isa_pkg::OP_OUTPUT: entry_o = out_stage;
      opuc_isa_pkg::OP_CLAMP, opuc_isa_pkg::OP_PRELU: entry_o = compared;
      opuc_isa_pkg::OP_TABLE: entry_o = looked_up_i;
      opuc_isa_pkg::OP_RESADD: entry_o = added;
      default: entry_o = averaged;
    endcase
  end
endmodule
