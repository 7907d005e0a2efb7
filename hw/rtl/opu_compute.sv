// The compute engine's units: the inner-product array (Gemm) on one side,
// the pool stage and the stages that rewrite entries in place (opu_post) on
// the other. The two sides run at once (opu_compute_engine issues to them)
// and read the buffers and the accumulator through ports of their own.
`include "opu_field.svh"
module opu_compute
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  gemm_start_i,
  input  opu_pkg::word_t                 gemm_insn_i,
  output logic                  gemm_done_o,
  output logic                  gemm_accept_o,  // the array takes a start next cycle (opu_gemm)
  input  logic                  post_start_i,
  input  opu_pkg::word_t                 post_insn_i,
  input  opu_pkg::word_t                 post_insn2_i,  // the stages chained to post_insn_i
  input  opu_pkg::word_t                 post_insn3_i,
  input  logic [1:0]            post_links_i,
  input  logic                  post_tail_i,   // a global sum Pool ends the chain
  input  logic [15:0]           post_tail_dst_i,
  input  logic                  post_tail_accumulate_i,
  input  logic                  post_tail_window_i,
  input  logic [9:0]            post_tail_src_cols_i,
  output logic                  post_done_o,
  // The array's ports.
  output logic [31:0]           fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_next_i,  // the row after fm_raddr_o's
  output logic [31:0]           wgt_raddr_o,
  input  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic                  acc_we2_o,       // and acc_wdata2_o at acc_waddr2_o
  output logic [31:0]           acc_waddr2_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata2_o,
  // The post-processing side's.
  output logic [31:0]           post_fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  post_fm_rdata_i,
  output logic [31:0]           post_param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] post_param_rdata_i,
  output logic [31:0]           post_acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] post_acc_rdata_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] post_acc_rdata2_i,  // post_acc_raddr_o + 1's
  output logic                  post_acc_we_o,
  output logic [31:0]           post_acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] post_acc_wdata_o,
  output logic                  post_acc_we2_o,  // and post_acc_wdata2_o at post_acc_waddr_o + 1
  output logic [opu_pkg::ENTRY_BITS-1:0] post_acc_wdata2_o,
  output logic                  post_pool_we_o,  // a 2x2 tail's pooled entry (opu_pool_tail)
  output logic [31:0]           post_pool_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] post_pool_wdata_o,
  output logic [63:0]           gemm_issues_o,
  output logic [63:0]           post_entries_o
);
  logic        is_pool, stage_done, pool_done;
  logic [31:0] stage_param, stage_acc_r, stage_acc_w, pool_acc_r, pool_acc_w;
  logic        stage_we, stage_we2, pool_we;
  logic [opu_pkg::ENTRY_BITS-1:0] stage_wdata, pool_wdata;
  logic [2:0]  entries;
  logic        tap;

  assign is_pool = `OPU_FIELD(post_insn_i, OPCODE) == opuc_isa_pkg::OP_POOL;

  opu_gemm u_gemm (
    .clk_i, .rst_ni, .start_i(gemm_start_i), .insn_i(gemm_insn_i), .done_o(gemm_done_o),
    .accept_o(gemm_accept_o),
    .fm_raddr_o, .fm_rdata_i, .fm_rdata_next_i, .wgt_raddr_o, .wgt_rdata_i, .param_raddr_o, .param_rdata_i,
    .acc_raddr_o, .acc_rdata_i, .acc_we_o, .acc_waddr_o, .acc_wdata_o, .acc_we2_o, .acc_waddr2_o, .acc_wdata2_o,
    .issues_o(gemm_issues_o)
  );
  opu_post u_post (
    .clk_i, .rst_ni, .start_i(post_start_i && !is_pool), .insn_i(post_insn_i),
    .insn2_i(post_insn2_i), .insn3_i(post_insn3_i), .links_i(post_links_i),
    .tail_i(post_tail_i), .tail_dst_i(post_tail_dst_i),
    .tail_accumulate_i(post_tail_accumulate_i), .tail_window_i(post_tail_window_i),
    .tail_src_cols_i(post_tail_src_cols_i), .done_o(stage_done),
    .fm_raddr_o(post_fm_raddr_o), .fm_rdata_i(post_fm_rdata_i),
    .param_raddr_o(stage_param), .param_rdata_i(post_param_rdata_i),
    .acc_raddr_o(stage_acc_r), .acc_rdata_i(post_acc_rdata_i), .acc_rdata2_i(post_acc_rdata2_i),
    .acc_we_o(stage_we), .acc_waddr_o(stage_acc_w), .acc_wdata_o(stage_wdata),
    .acc_we2_o(stage_we2), .acc_wdata2_o(post_acc_wdata2_o), .pool_we_o(post_pool_we_o),
    .pool_waddr_o(post_pool_waddr_o), .pool_wdata_o(post_pool_wdata_o), .entries_o(entries)
  );
  opu_pool u_pool (
    .clk_i, .rst_ni, .start_i(post_start_i && is_pool), .insn_i(post_insn_i),
    .done_o(pool_done), .acc_raddr_o(pool_acc_r), .acc_rdata_i(post_acc_rdata_i),
    .acc_we_o(pool_we), .acc_waddr_o(pool_acc_w), .acc_wdata_o(pool_wdata), .tap_o(tap)
  );
  // The post side's entries and the pool's taps, in one counter.
  opu_counter #(.STEP_BITS(3)) u_entries (
    .clk_i, .rst_ni, .step_i(3'(entries) + 3'(tap)), .value_o(post_entries_o)
  );
  assign post_done_o = stage_done || pool_done;
  assign post_param_raddr_o = is_pool ? '0 : stage_param;
  assign post_acc_raddr_o = is_pool ? pool_acc_r : stage_acc_r;
  assign post_acc_we_o = is_pool ? pool_we : stage_we;
  assign post_acc_we2_o = !is_pool && stage_we2;
  assign post_acc_waddr_o = is_pool ? pool_acc_w : stage_acc_w;
  assign post_acc_wdata_o = is_pool ? pool_wdata : stage_wdata;
endmodule
