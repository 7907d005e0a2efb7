// The compute engine: the inner-product array (Gemm), the pool stage and the
// stages that rewrite entries in place (opu_post), one instruction at a
// time; the running instruction's unit owns the buffers' read ports and the
// accumulator's write port.
`include "opu_field.svh"
module opu_compute
  import opu_pkg::*;
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  word_t                 insn_i,
  output logic                  done_o,
  output logic [31:0]           fm_raddr_o,
  input  logic [BEAT_BITS-1:0]  fm_rdata_i,
  output logic [31:0]           wgt_raddr_o,
  input  logic [WGT_BITS-1:0]   wgt_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [ENTRY_BITS-1:0] acc_wdata_o,
  output logic [63:0]           gemm_issues_o,
  output logic [63:0]           post_entries_o
);
  typedef enum logic [1:0] { UNIT_GEMM, UNIT_POOL, UNIT_POST } unit_e;
  unit_e unit;
  logic [3:0] op;
  assign op = `OPU_FIELD(insn_i, OPCODE);
  assign unit = op == OP_GEMM ? UNIT_GEMM : op == OP_POOL ? UNIT_POOL : UNIT_POST;

  logic        gemm_done, post_done, pool_done;
  logic [31:0] gemm_fm, gemm_wgt, gemm_param, gemm_acc_r, gemm_acc_w;
  logic [31:0] post_fm, post_param, post_acc_r, post_acc_w, pool_acc_r, pool_acc_w;
  logic        gemm_we, post_we, pool_we;
  logic [ENTRY_BITS-1:0] gemm_wdata, post_wdata, pool_wdata;
  logic [63:0] entries, taps;

  opu_gemm u_gemm (
    .clk_i, .rst_ni, .start_i(start_i && unit == UNIT_GEMM), .insn_i, .done_o(gemm_done),
    .fm_raddr_o(gemm_fm), .fm_rdata_i, .wgt_raddr_o(gemm_wgt), .wgt_rdata_i,
    .param_raddr_o(gemm_param), .param_rdata_i, .acc_raddr_o(gemm_acc_r), .acc_rdata_i,
    .acc_we_o(gemm_we), .acc_waddr_o(gemm_acc_w), .acc_wdata_o(gemm_wdata),
    .issues_o(gemm_issues_o)
  );
  opu_post u_post (
    .clk_i, .rst_ni, .start_i(start_i && unit == UNIT_POST), .insn_i, .done_o(post_done),
    .fm_raddr_o(post_fm), .fm_rdata_i, .param_raddr_o(post_param), .param_rdata_i,
    .acc_raddr_o(post_acc_r), .acc_rdata_i, .acc_we_o(post_we), .acc_waddr_o(post_acc_w),
    .acc_wdata_o(post_wdata), .entries_o(entries)
  );
  opu_pool u_pool (
    .clk_i, .rst_ni, .start_i(start_i && unit == UNIT_POOL), .insn_i, .done_o(pool_done),
    .acc_raddr_o(pool_acc_r), .acc_rdata_i, .acc_we_o(pool_we), .acc_waddr_o(pool_acc_w),
    .acc_wdata_o(pool_wdata), .taps_o(taps)
  );
  assign post_entries_o = entries + taps;
  assign done_o = gemm_done || post_done || pool_done;
  assign wgt_raddr_o = gemm_wgt;

  always_comb begin
    unique case (unit)
      UNIT_GEMM: begin
        fm_raddr_o = gemm_fm;
        param_raddr_o = gemm_param;
        acc_raddr_o = gemm_acc_r;
        acc_we_o = gemm_we;
        acc_waddr_o = gemm_acc_w;
        acc_wdata_o = gemm_wdata;
      end
      UNIT_POOL: begin
        fm_raddr_o = '0;
        param_raddr_o = '0;
        acc_raddr_o = pool_acc_r;
        acc_we_o = pool_we;
        acc_waddr_o = pool_acc_w;
        acc_wdata_o = pool_wdata;
      end
      default: begin
        fm_raddr_o = post_fm;
        param_raddr_o = post_param;
        acc_raddr_o = post_acc_r;
        acc_we_o = post_we;
        acc_waddr_o = post_acc_w;
        acc_wdata_o = post_wdata;
      end
    endcase
  end
endmodule
