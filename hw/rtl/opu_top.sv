// The OPU: the fetch unit and a queue per engine, the dependency tokens,
// the load, compute and store engines, and the on-chip buffers between
// them. DRAM is outside: a read port (requests of one beat, responses in
// order, each taken when rd_rsp_ready_o is high), shared by the fetch unit
// and the load engine, and a write port
// (one pixel's lanes, byte-masked). The harness puts the program's words in
// DRAM, gives their address and count, pulses start_i and waits for done_o
// (with start_i it may name the program it starts next, whose first words
// the fetch unit then reads while this one runs: opu_fetch);
// counter_o shows the counter counter_sel_i picks: 0-2 each engine's busy
// cycles, 3-5 token-wait cycles, 6-8 DRAM-wait cycles, 9-11 retired
// instructions, 12-14 the last retired instruction's index, 15 bytes
// loaded, 16 bytes stored, 17 array issues, 18 post-stage entries, 19
// cycles from start to done (sim/rtl_harness.h names them).
`include "opu_field.svh"
module opu_top
(
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [31:0]          prog_addr_i,  // the first instruction word's DRAM byte, a beat boundary
  input  logic [31:0]          length_i,     // instruction words
  input  logic                 start_i,
  input  logic                 next_valid_i,  // with start_i: the program started after this one
  input  logic [31:0]          next_addr_i,
  input  logic [31:0]          next_length_i,
  output logic                 done_o,
  output logic                 illegal_o,
  output logic                 leftover_tokens_o,
  output logic                 progress_o,  // something retired or was written this cycle
  // Each engine's instructions retired (the low 32 bits of its counter),
  // every cycle: the harness marks where a run's groups end by them.
  output logic [opu_pkg::NUM_ENGINES*32-1:0] retired_o,
  output logic                 rd_req_valid_o,
  output logic [31:0]          rd_req_addr_o,
  input  logic                 rd_req_ready_i,
  input  logic                 rd_rsp_valid_i,
  output logic                 rd_rsp_ready_o,
  input  logic [opu_pkg::BEAT_BITS-1:0] rd_rsp_data_i,
  output logic                 wr_valid_o,
  output logic [31:0]          wr_addr_o,
  output logic [opu_pkg::BEAT_BITS-1:0]  wr_data_o,    // a beat, aligned
  output logic [opu_pkg::BEAT_BYTES-1:0] wr_mask_o,
  input  logic                 wr_ready_i,
  input  logic [4:0]           counter_sel_i,
  output logic [63:0]          counter_o
);
  localparam int unsigned E_LOAD = 0, E_COMPUTE = 1, E_STORE = 2;
  // Load instructions taken and not yet written (opu_load.sv).
  localparam int unsigned LOADS_IN_FLIGHT = 4;

  // Fetch and queues.
  opu_pkg::word_t  head [opu_pkg::NUM_ENGINES];
  opu_pkg::index_t head_index [opu_pkg::NUM_ENGINES];
  logic [opu_pkg::NUM_ENGINES-1:0] head_valid, pop;
  logic [opu_pkg::NUM_ENGINES*2-1:0] held;
  logic [opu_pkg::NUM_ENGINES*opu_pkg::WORD_BITS-1:0] heads;
  logic [opu_pkg::NUM_ENGINES*32-1:0] head_indices;
  logic fetch_done, fetch_req_valid, fetch_req_ready, fetch_rsp_valid;
  logic load_req_valid, load_req_ready, load_rsp_valid, load_rsp_ready, load_accept;
  logic [31:0] fetch_req_addr, load_req_addr;
  // Engines.
  logic [opu_pkg::NUM_ENGINES-1:0] take_prev, take_next, give_prev, give_next, has_prev, has_next;
  logic [opu_pkg::NUM_ENGINES-1:0] start, done, busy, dram_wait;
  opu_pkg::word_t  insn [opu_pkg::NUM_ENGINES];
  logic [63:0] busy_cycles [opu_pkg::NUM_ENGINES], token_cycles [opu_pkg::NUM_ENGINES], dram_cycles [opu_pkg::NUM_ENGINES];
  logic [63:0] retired [opu_pkg::NUM_ENGINES];
  opu_pkg::index_t last_retired [opu_pkg::NUM_ENGINES];
  logic [63:0] bytes_loaded, bytes_stored, gemm_issues, post_entries, cycles_q;
  // The compute engine's two sides (opu_compute_engine).
  logic  gemm_start, gemm_done, gemm_accept, post_start, post_done;
  opu_pkg::word_t gemm_insn, post_insn, post_insn2, post_insn3;
  logic [1:0] post_links;
  logic post_tail, post_tail_accumulate, post_tail_window;
  logic [9:0] post_tail_src_cols;
  logic [15:0] post_tail_dst;
  logic [2:0] post_banks;
  logic running_q;
  // A Fence holds the load engine's queue until the program's first
  // `stores` Stores are done (their writes accepted: a read asked after
  // sees them); its unit then takes it as a Load of nothing, its tokens kept.
  // The count's comparison is registered (fence_met_q, a cycle later): the
  // 24-bit compare in front of the queue's pop was the 19-cell path.
  logic [opuc_isa_pkg::FENCE_STORES_WIDTH-1:0] stores_done_q;
  logic fence_head, fence_hold, fence_met_q;
  opu_pkg::word_t load_head;
  assign fence_head = `OPU_FIELD(head[E_LOAD], OPCODE) == opuc_isa_pkg::OP_FENCE;
  assign fence_hold = fence_head && !fence_met_q;
  assign load_head = fence_head ? {{(opu_pkg::WORD_BITS-8){1'b0}}, head[E_LOAD][7:4],
                                   opuc_isa_pkg::OP_LOAD}
                                : head[E_LOAD];

  opu_fetch u_fetch (
    .clk_i, .rst_ni, .start_i, .prog_addr_i, .length_i, .next_valid_i, .next_addr_i,
    .next_length_i, .rd_req_valid_o(fetch_req_valid),
    .rd_req_addr_o(fetch_req_addr), .rd_req_ready_i(fetch_req_ready),
    .rd_rsp_valid_i(fetch_rsp_valid), .rd_rsp_data_i, .pop_i(pop), .held_i(held), .heads_o(heads),
    .head_indices_o(head_indices), .head_valid_o(head_valid), .done_o(fetch_done), .illegal_o
  );
  opu_dram_reads u_reads (
    .clk_i, .rst_ni, .fetch_valid_i(fetch_req_valid), .fetch_addr_i(fetch_req_addr),
    .fetch_ready_o(fetch_req_ready), .fetch_rsp_o(fetch_rsp_valid),
    .load_valid_i(load_req_valid), .load_addr_i(load_req_addr), .load_ready_o(load_req_ready),
    .load_rsp_o(load_rsp_valid), .load_rsp_ready_i(load_rsp_ready), .rd_req_valid_o,
    .rd_req_addr_o, .rd_req_ready_i, .rd_rsp_valid_i, .rd_rsp_ready_o
  );

  for (genvar e = 0; e < opu_pkg::NUM_ENGINES; e++) begin : g_engine
    assign head[e] = heads[opu_pkg::WORD_BITS*e +: opu_pkg::WORD_BITS];
    assign head_index[e] = head_indices[32*e +: 32];
    if (e == E_COMPUTE) begin : g_compute
      opu_compute_engine u_engine (
        .clk_i, .rst_ni, .head_valid_i(head_valid[e]), .head_i(head[e]),
        .head_index_i(head_index[e]), .pop_o(pop[e]), .held_o(held[2*e +: 2]),
        .has_prev_i(has_prev[e]),
        .has_next_i(has_next[e]), .take_prev_o(take_prev[e]), .take_next_o(take_next[e]),
        .give_prev_o(give_prev[e]), .give_next_o(give_next[e]), .gemm_start_o(gemm_start),
        .gemm_insn_o(gemm_insn), .gemm_done_i(gemm_done), .gemm_accept_i(gemm_accept),
        .post_start_o(post_start),
        .post_insn_o(post_insn), .post_insn2_o(post_insn2), .post_insn3_o(post_insn3),
        .post_links_o(post_links), .post_tail_o(post_tail), .post_tail_dst_o(post_tail_dst),
        .post_tail_accumulate_o(post_tail_accumulate), .post_tail_window_o(post_tail_window),
        .post_tail_src_cols_o(post_tail_src_cols),
        .post_done_i(post_done), .post_banks_o(post_banks),
        .busy_o(busy[e]),
        .busy_cycles_o(busy_cycles[e]), .token_cycles_o(token_cycles[e]),
        .retired_o(retired[e]), .last_retired_o(last_retired[e])
      );
      assign start[e] = gemm_start || post_start;
      assign insn[e] = '0;
      assign dram_cycles[e] = '0;
    end else begin : g_other
      assign held[2*e +: 2] = '0;
      opu_engine #(.IN_FLIGHT(e == E_LOAD ? LOADS_IN_FLIGHT : 1)) u_engine (
        .clk_i, .rst_ni, .head_valid_i(head_valid[e]), .hold_i(e == E_LOAD && fence_hold),
        .head_i(e == E_LOAD ? load_head : head[e]),
        .head_index_i(head_index[e]), .pop_o(pop[e]), .has_prev_i(has_prev[e]),
        .has_next_i(has_next[e]), .take_prev_o(take_prev[e]), .take_next_o(take_next[e]),
        .give_prev_o(give_prev[e]), .give_next_o(give_next[e]), .start_o(start[e]),
        .insn_o(insn[e]), .accept_i(e == E_LOAD ? load_accept : 1'b1), .done_i(done[e]),
        .dram_wait_i(dram_wait[e]), .busy_o(busy[e]),
        .busy_cycles_o(busy_cycles[e]), .token_cycles_o(token_cycles[e]),
        .dram_cycles_o(dram_cycles[e]), .retired_o(retired[e]),
        .last_retired_o(last_retired[e])
      );
    end
  end

  opu_tokens u_tokens (
    .clk_i, .rst_ni, .take_prev_i(take_prev), .take_next_i(take_next),
    .give_prev_i(give_prev), .give_next_i(give_next), .has_prev_o(has_prev),
    .has_next_o(has_next), .leftover_o(leftover_tokens_o)
  );

  // Buffers.
  logic [2:0]  load_we;
  logic [31:0] load_waddr, fm_raddr, wgt_raddr, param_raddr, acc_raddr, acc_waddr, store_raddr;
  logic [31:0] acc_pair_waddr;
  logic [31:0] post_fm_raddr, post_param_raddr, post_acc_raddr, post_acc_waddr, post_pool_waddr;
  logic        post_acc_we, post_acc_we2, acc_we2, post_pool_we;
  logic [opu_pkg::ENTRY_BITS-1:0] post_pool_wdata;
  logic [opu_pkg::BEAT_BITS-1:0]  post_fm_rdata;
  logic [opu_pkg::PARAM_BITS-1:0] post_param_rdata;
  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata_unused, wgt_next_unused;
  logic [opu_pkg::PARAM_BITS-1:0] param_next_unused;
  logic [opu_pkg::ENTRY_BITS-1:0] post_acc_rdata, post_acc_wdata, post_acc_rdata2, post_acc_wdata2;
  logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata2;
  logic [7:0]  load_wbeat;
  logic        load_wzero, load_wdiag, acc_we;
  logic [opu_pkg::BEAT_BITS-1:0]  load_wdata, load_wdata_next, fm_rdata, fm_rdata_next;
  logic [31:0] load_next_waddr;
  logic        load_wpair;
  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata;
  logic [opu_pkg::PARAM_BITS-1:0] param_rdata;
  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata, acc_wdata, store_rdata, store_rdata2, store_rdata3;
  logic [opu_pkg::ENTRY_BITS-1:0] store_rdata4;

  // The load's feature-map writes pass a register: the path from a DRAM
  // response through the compact-pixel queue ends there, not at a bank's
  // block RAM. (Nothing reads a unit the cycle after it is written: a load
  // hands its token over cycles after its last write.)
  logic fm_we_q, fm_wzero_q, fm_wpair_q;
  logic [opu_pkg::FM_AW-1:0] fm_waddr_q, fm_next_waddr_q;
  logic [opu_pkg::BEAT_BITS-1:0] fm_wdata_q, fm_wdata_next_q;
  // A Store into the feature-map buffer (to_fm) writes a row where the
  // load writes none (the load first: the store's queue holds its rows),
  // through a register of its own, so that the choice between the two
  // lies after both registers, not on the load's path. Its row is written
  // whole: the bytes its mask leaves out are zero. A fm pair's two rows
  // (opu_store.sv) are written in one cycle, a bank each, as the load's
  // pairs are.
  logic st_wr_valid, st_wr_ready, st_to_fm, st_fm_we_q, st_wr_pair, st_fm_wpair_q;
  logic [31:0] st_wr_addr;
  logic [opu_pkg::BEAT_BITS-1:0]  st_wr_data, st_masked, st_wr_data2;
  logic [opu_pkg::BEAT_BYTES-1:0] st_wr_mask;
  logic [opu_pkg::FM_AW-1:0] st_fm_waddr_q, st_fm_wnext_q;
  logic [opu_pkg::BEAT_BITS-1:0] st_fm_wdata_q, st_fm_wdata2_q;
  assign st_to_fm = `OPU_FIELD(insn[E_STORE], STORE_TO_FM) != 0;
  assign wr_valid_o = st_wr_valid && !st_to_fm;
  assign wr_addr_o = st_wr_addr;
  assign wr_data_o = st_wr_data;
  assign wr_mask_o = st_wr_mask;
  assign st_wr_ready = st_to_fm ? !load_we[0] : wr_ready_i;
  always_comb
    for (int unsigned b = 0; b < opu_pkg::BEAT_BYTES; b++)
      st_masked[8*b +: 8] = st_wr_mask[b] ? st_wr_data[8*b +: 8] : 8'd0;
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      fm_we_q <= 1'b0;
      st_fm_we_q <= 1'b0;
    end else begin
      fm_we_q <= load_we[0];
      st_fm_we_q <= st_wr_valid && st_to_fm && !load_we[0];
    end
  always_ff @(posedge clk_i) begin
    st_fm_waddr_q <= opu_pkg::FM_AW'(st_wr_addr / opu_pkg::BEAT_BYTES);
    st_fm_wnext_q <= opu_pkg::FM_AW'(st_wr_addr / opu_pkg::BEAT_BYTES + 1);
    st_fm_wdata_q <= st_masked;
    st_fm_wdata2_q <= st_wr_data2;  // zero past the mask already (opu_store)
    st_fm_wpair_q <= st_wr_pair;
  end
  always_ff @(posedge clk_i) begin
    fm_wzero_q <= load_wzero;
    fm_wpair_q <= load_wpair;
    fm_waddr_q <= load_waddr[opu_pkg::FM_AW-1:0];
    fm_next_waddr_q <= load_next_waddr[opu_pkg::FM_AW-1:0];
    fm_wdata_q <= load_wdata;
    fm_wdata_next_q <= load_wdata_next;
  end
  // Two banks (FM_PAIRS): the window reads two columns a cycle at stride
  // 2, the load writes two compact pixels a cycle.
  opu_buffer #(.ROWS(opu_pkg::FM_ROWS), .BEATS(opu_pkg::FM_BEATS), .BEAT_BITS(opu_pkg::BEAT_BITS),
               .PAIRS(opu_pkg::FM_PAIRS)) u_fm (
    .clk_i, .we_i(fm_we_q || st_fm_we_q), .waddr_i(fm_we_q ? fm_waddr_q : st_fm_waddr_q),
    .wbeat_i(1'b0), .wzero_row_i(fm_we_q && fm_wzero_q), .wdiag_i(1'b0),
    .wdata_i(fm_we_q ? fm_wdata_q : st_fm_wdata_q),
    .wpair_i(fm_we_q ? fm_wpair_q : st_fm_we_q && st_fm_wpair_q),
    .waddr_next_i(fm_we_q ? fm_next_waddr_q : st_fm_wnext_q),
    .wdata_next_i(fm_we_q ? fm_wdata_next_q : st_fm_wdata2_q), .raddr_i(fm_raddr[opu_pkg::FM_AW-1:0]),
    .rdata_o(fm_rdata), .rdata_next_o(fm_rdata_next), .raddr_b_i(post_fm_raddr[opu_pkg::FM_AW-1:0]), .rdata_b_o(post_fm_rdata)
  );
  opu_buffer #(.ROWS(opu_pkg::WGT_ROWS), .BEATS(opu_pkg::WGT_BEATS), .BEAT_BITS(opu_pkg::BEAT_BITS),
               .READ_PORTS(1)) u_weight (
    .clk_i, .we_i(load_we[1]), .waddr_i(load_waddr[opu_pkg::WGT_AW-1:0]), .wbeat_i(load_wbeat[opu_pkg::WGT_BW-1:0]),
    .wzero_row_i(load_wzero), .wdiag_i(load_wdiag), .wdata_i(load_wdata), .wpair_i(1'b0),
    .waddr_next_i('0), .wdata_next_i('0), .raddr_i(wgt_raddr[opu_pkg::WGT_AW-1:0]), .rdata_o(wgt_rdata), .rdata_next_o(wgt_next_unused),
    .raddr_b_i('0),
    .rdata_b_o(wgt_rdata_unused)
  );
  opu_buffer #(.ROWS(opu_pkg::PARAM_ROWS), .BEATS(opu_pkg::PARAM_BEATS), .BEAT_BITS(opu_pkg::BEAT_BITS)) u_param (
    .clk_i, .we_i(load_we[2]), .waddr_i(load_waddr[opu_pkg::PARAM_AW-1:0]),
    .wbeat_i(load_wbeat[opu_pkg::PARAM_BW-1:0]), .wzero_row_i(load_wzero), .wdiag_i(1'b0),
    .wdata_i(load_wdata), .wpair_i(1'b0), .waddr_next_i('0), .wdata_next_i('0),
    .raddr_i(param_raddr[opu_pkg::PARAM_AW-1:0]), .rdata_o(param_rdata),
    .rdata_next_o(param_next_unused),
    .raddr_b_i(post_param_raddr[opu_pkg::PARAM_AW-1:0]), .rdata_b_o(post_param_rdata)
  );
  opu_acc_buffer u_acc (
    .clk_i, .we_i(acc_we), .waddr_i(acc_waddr[opu_pkg::ACC_AW-1:0]), .wdata_i(acc_wdata),
    .we2_i(acc_we2), .waddr2_i(acc_pair_waddr[opu_pkg::ACC_AW-1:0]), .wdata2_i(acc_wdata2),
    .raddr_i(acc_raddr[opu_pkg::ACC_AW-1:0]), .rdata_o(acc_rdata), .we_b_i(post_acc_we),
    .waddr_b_i(post_acc_waddr[opu_pkg::ACC_AW-1:0]), .wdata_b_i(post_acc_wdata),
    .we_b2_i(post_acc_we2), .wdata_b2_i(post_acc_wdata2), .we_pool_i(post_pool_we),
    .waddr_pool_i(post_pool_waddr[opu_pkg::ACC_AW-1:0]), .wdata_pool_i(post_pool_wdata),
    .raddr_b_i(post_acc_raddr[opu_pkg::ACC_AW-1:0]), .rdata_b_o(post_acc_rdata),
    .rdata_b2_o(post_acc_rdata2),
    .post_banks_i(post_banks),
    .store_raddr_i(store_raddr[opu_pkg::ACC_AW-1:0]), .store_rdata_o(store_rdata),
    .store_rdata2_o(store_rdata2), .store_rdata3_o(store_rdata3), .store_rdata4_o(store_rdata4)
  );

  opu_load #(.IN_FLIGHT(LOADS_IN_FLIGHT), .PAIRS(opu_pkg::FM_PAIRS)) u_load (
    .clk_i, .rst_ni, .start_i(start[E_LOAD]), .insn_i(insn[E_LOAD]), .accept_o(load_accept),
    .done_o(done[E_LOAD]), .dram_wait_o(dram_wait[E_LOAD]), .rd_req_valid_o(load_req_valid),
    .rd_req_addr_o(load_req_addr), .rd_req_ready_i(load_req_ready),
    .rd_rsp_valid_i(load_rsp_valid), .rd_rsp_ready_o(load_rsp_ready), .rd_rsp_data_i,
    .we_o(load_we), .waddr_o(load_waddr), .wbeat_o(load_wbeat), .wzero_o(load_wzero), .wdiag_o(load_wdiag), .wdata_o(load_wdata),
    .wpair_o(load_wpair), .waddr_next_o(load_next_waddr), .wdata_next_o(load_wdata_next),
    .bytes_o(bytes_loaded)
  );
  opu_compute u_compute (
    .clk_i, .rst_ni, .gemm_start_i(gemm_start), .gemm_insn_i(gemm_insn),
    .gemm_done_o(gemm_done), .gemm_accept_o(gemm_accept), .post_start_i(post_start), .post_insn_i(post_insn),
    .post_insn2_i(post_insn2), .post_insn3_i(post_insn3), .post_links_i(post_links),
    .post_tail_i(post_tail), .post_tail_dst_i(post_tail_dst),
    .post_tail_accumulate_i(post_tail_accumulate), .post_tail_window_i(post_tail_window),
    .post_tail_src_cols_i(post_tail_src_cols),
    .post_done_o(post_done), .fm_raddr_o(fm_raddr), .fm_rdata_i(fm_rdata),
    .fm_rdata_next_i(fm_rdata_next),
    .wgt_raddr_o(wgt_raddr), .wgt_rdata_i(wgt_rdata), .param_raddr_o(param_raddr),
    .param_rdata_i(param_rdata), .acc_raddr_o(acc_raddr), .acc_rdata_i(acc_rdata),
    .acc_we_o(acc_we), .acc_waddr_o(acc_waddr), .acc_wdata_o(acc_wdata),
    .acc_we2_o(acc_we2), .acc_waddr2_o(acc_pair_waddr), .acc_wdata2_o(acc_wdata2),
    .post_fm_raddr_o(post_fm_raddr), .post_fm_rdata_i(post_fm_rdata),
    .post_param_raddr_o(post_param_raddr), .post_param_rdata_i(post_param_rdata),
    .post_acc_raddr_o(post_acc_raddr), .post_acc_rdata_i(post_acc_rdata),
    .post_acc_rdata2_i(post_acc_rdata2),
    .post_acc_we_o(post_acc_we), .post_acc_waddr_o(post_acc_waddr),
    .post_acc_wdata_o(post_acc_wdata), .post_acc_we2_o(post_acc_we2),
    .post_acc_wdata2_o(post_acc_wdata2), .post_pool_we_o(post_pool_we),
    .post_pool_waddr_o(post_pool_waddr), .post_pool_wdata_o(post_pool_wdata),
    .gemm_issues_o(gemm_issues), .post_entries_o(post_entries)
  );
  assign dram_wait[E_COMPUTE] = 1'b0;
  assign done[E_COMPUTE] = 1'b0;
  opu_store u_store (
    .clk_i, .rst_ni, .start_i(start[E_STORE]), .insn_i(insn[E_STORE]), .done_o(done[E_STORE]),
    .dram_wait_o(dram_wait[E_STORE]), .acc_raddr_o(store_raddr), .acc_rdata_i(store_rdata),
    .acc_rdata2_i(store_rdata2), .acc_rdata3_i(store_rdata3), .acc_rdata4_i(store_rdata4),
    .wr_valid_o(st_wr_valid), .wr_addr_o(st_wr_addr), .wr_data_o(st_wr_data),
    .wr_mask_o(st_wr_mask), .wr_pair_o(st_wr_pair), .wr_data2_o(st_wr_data2),
    .wr_ready_i(st_wr_ready), .bytes_o(bytes_stored)
  );

  assign progress_o = |done || acc_we || |load_we || st_fm_we_q;
  for (genvar e = 0; e < opu_pkg::NUM_ENGINES; e++) begin : g_retired
    assign retired_o[32*e +: 32] = retired[e][31:0];
  end
  assign done_o = running_q && fetch_done && !(|busy) && !(|start) && !illegal_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      cycles_q <= '0;
      stores_done_q <= '0;
      fence_met_q <= 1'b0;
    end else begin
      if (start_i) running_q <= 1'b1;
      if (start_i) stores_done_q <= '0;
      else if (done[E_STORE]) stores_done_q <= stores_done_q + 1'b1;
      // The head stays until popped, so a count met stays met (stores_done_q only grows).
      fence_met_q <= !start_i && head_valid[E_LOAD] && fence_head && !pop[E_LOAD] &&
                     stores_done_q >= `OPU_FIELD(head[E_LOAD], FENCE_STORES);
      if (running_q && !done_o) cycles_q <= cycles_q + 1;
    end
  end

  always_comb begin
    unique case (counter_sel_i)
      5'd0, 5'd1, 5'd2: counter_o = busy_cycles[2'(counter_sel_i)];
      5'd3, 5'd4, 5'd5: counter_o = token_cycles[2'(counter_sel_i - 5'd3)];
      5'd6, 5'd7, 5'd8: counter_o = dram_cycles[2'(counter_sel_i - 5'd6)];
      5'd9, 5'd10, 5'd11: counter_o = retired[2'(counter_sel_i - 5'd9)];
      5'd12, 5'd13, 5'd14: counter_o = 64'(last_retired[2'(counter_sel_i - 5'd12)]);
      5'd15: counter_o = bytes_loaded;
      5'd16: counter_o = bytes_stored;
      5'd17: counter_o = gemm_issues;
      5'd18: counter_o = post_entries;
      5'd19: counter_o = cycles_q;
      default: counter_o = '0;
    endcase
  end
endmodule
