// The post-processing stages that rewrite accumulator entries in place:
// Output, Clamp, PRelu, Table, ResAdd and Average, one instruction or a
// chain of up to three over the same entries (links_i followers, chosen by
// opu_compute_engine), which stream through in one pass: each entry is read,
// goes through every instruction's stage in order (opu_post_stage), a
// register between two stages, and is written once, as many cycles later as
// the chain has stages (a chain of three: three). A ResAdd's residual row is
// read with its entry; its CO lanes (opu_res_row) travel with it (an i16
// residual has two rows, high bytes then low bytes `count` rows on, so its
// entries take two cycles); a Table first copies its table from the feature map into the
// chain's one table (opu_table), which the Table's stage reads. Average
// walks rows x cols entries `pitch` apart, alone; the others `count`
// consecutive entries.
//
// A chain may end in a Pool (tail_i, opu_compute_engine), which then costs
// no pass of its own over the entries. One of 2x2 max windows at stride 2
// (tail_window_i) is opu_pool_tail: it takes each entry as it is written
// and writes each window's pooled entry as the window completes, through
// a write port of its own (pool_we_o). One that sums all the
// entries into one (a global pool's numerator) adds each entry written
// into a running sum a register later (so the add does not follow the
// stages' last step on one path) and writes the sum to the pool's dst two
// cycles after the last entry; with `accumulate` the sum starts from what
// dst holds, read in the pass's first cycle.
//
// An Output, Clamp or PRelu alone (no chain, no tail) over an even count of
// entries from an even one in banks 0 and 1 takes two entries a cycle (a
// dual pass): the accumulator reads and writes a pair e, e + 1 at once
// (opu_acc_buffer), and the second stage's lanes, idle in such a pass, run
// the same instruction on the odd entry beside the first stage on the even.
// So does such an instruction with a Table after it (a dual chain): the
// first two stages take the even entry through both, the third stage's
// lanes, idle in a chain of two, run the first instruction on the odd
// entry, and a second table (a copy of the first, filled with it) looks
// it up.
`include "opu_field.svh"
module opu_post
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole pass, as are the next three
  input  opu_pkg::word_t                 insn2_i,
  input  opu_pkg::word_t                 insn3_i,
  input  logic [1:0]            links_i,
  input  logic                  tail_i,       // a Pool ends the chain: its dst,
  input  logic [15:0]           tail_dst_i,   // whether a sum adds to what dst holds,
  input  logic                  tail_accumulate_i,
  input  logic                  tail_window_i,    // or 2x2 windows (opu_pool_tail) over
  input  logic [9:0]            tail_src_cols_i,  // rows of this many entries
  output logic                  done_o,
  output logic [31:0]           fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata2_i,  // the entry after acc_raddr_o's
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic                  acc_we2_o,     // and acc_wdata2_o at acc_waddr_o + 1
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata2_o,
  output logic                  pool_we_o,     // a 2x2 tail's pooled entry, into a RAM
  output logic [31:0]           pool_waddr_o,  // the two above leave alone (opu_pool_tail)
  output logic [opu_pkg::ENTRY_BITS-1:0] pool_wdata_o,
  output logic [2:0]            entries_o  // entries passed this cycle, one a chained stage or tail
);
  localparam int unsigned TABLE_ROWS = (2 * 257 + opu_pkg::L - 1) / opu_pkg::L;
  opu_pkg::word_t       slot [3];
  logic [2:0]  active;
  logic        dual, dual_q;  // a dual pass: two entries a cycle (at its start; held, then cleared)
  logic        dual_chain_q;  // a dual pass of two stages, the second a Table (held as dual_q)
  logic [3:0]  first_op;
  logic [15:0] first_addr, count;
  logic        has_table, has_res, has_param;
  opu_pkg::word_t       table_insn, res_insn, param_insn;
  logic        filling_q, fill_s1_q, running_q, s1_valid_q;
  logic        is_average, preparing_q;  // an Average's divisor being prepared
  logic        recip_done;
  logic [36:0] avg_d;
  logic [5:0]  avg_d_shift;
  logic [18:0] avg_recip;
  logic signed [53:0] avg_lo_bound, avg_hi_bound;
  logic        res_i16, low_q;          // an i16 residual; reading its low row
  logic        advance;                 // this cycle's entry is read in full
  logic [8*opu_pkg::CO-1:0] res_lanes;       // the residual's lanes of the row read
  logic [7:0]  res_lane_q;                  // the ResAdd's res_lane, taken at the pass's start
  logic [8*opu_pkg::CO-1:0] high_row_q;      // an i16 residual's high lanes
  logic [31:0] fill_q, fill_s1_row_q;
  logic [31:0] r_q, c_q, row_entry_q, entry_q, res_q, s1_entry_q;
  logic [31:0] rows, cols, pitch, first_entry;
  // The chain's positions, a cycle each: stage k takes its entries at
  // position k (D + 1) (D = POST_STAGE_CYCLES), gives them D later, and a
  // register holds them for the next stage (x1_q, x2_q). An entry's valid
  // bit and address travel beside it, its residual rows to each stage's
  // input.
  localparam int unsigned D = opu_pkg::POST_STAGE_CYCLES;
  localparam int unsigned SPAN = 3 * (D + 1) > opu_pkg::AVERAGE_CYCLES + 1 ? 3 * (D + 1)
                                                                      : opu_pkg::AVERAGE_CYCLES + 1;
  logic [opu_pkg::ENTRY_BITS-1:0] stage_in [3];
  logic [opu_pkg::ENTRY_BITS-1:0] stage_out [3];
  logic [opu_pkg::ENTRY_BITS-1:0] x1_q, x2_q, looked_up, table_in;
  logic [SPAN-1:0] valid;                         // valid[0] is s1_valid_q
  logic [SPAN-1:1] valid_q;
  logic [SPAN-1:0] unwritten;                     // entries not at the write yet
  logic [31:0] addr_q [1:SPAN-1];                 // [0] would be s1_entry_q
  logic [8*opu_pkg::CO-1:0] row_q [2 * (D + 1) + 1];       // [0] unused: res_lanes
  logic [8*opu_pkg::CO-1:0] high_pipe_q [2 * (D + 1) + 1]; // [0] unused: high_row_q
  logic [8*opu_pkg::CO-1:0] row_at [3], high_row_at [3];
  logic [31:0] write_pos;
  logic        write_valid, younger;
  logic [1:0]  table_pos;  // the chain's stage that is its Table
  // The tail: whether the pass has one, its first cycle (dst read), the
  // cycle its last entry is added, the cycle that writes its sum, the
  // entry written a cycle ago, the sum and its entry.
  logic        tail_q, tail_first_q, tail_last_q, tail_write_q, written_valid_q;
  logic [opu_pkg::ENTRY_BITS-1:0] written_q, sum_q, summed;
  logic [31:0] tail_dst_q;
  logic        window_q, window_done;  // a 2x2 window tail's pass, its end

  assign first_op = `OPU_FIELD(insn_i, OPCODE);
  assign first_addr = `OPU_FIELD(insn_i, OUTPUT_ACC_ADDR);
  assign count = `OPU_FIELD(insn_i, OUTPUT_COUNT);
  assign dual = !tail_i &&
                (links_i == 2'd0 ||
                 links_i == 2'd1 && `OPU_FIELD(insn2_i, OPCODE) == opuc_isa_pkg::OP_TABLE) &&
                (first_op == opuc_isa_pkg::OP_OUTPUT || first_op == opuc_isa_pkg::OP_CLAMP ||
                 first_op == opuc_isa_pkg::OP_PRELU) &&
                !first_addr[0] && !count[0] && count != '0 &&
                32'(first_addr) + 32'(count) <= opu_pkg::ACC_SUMS;
  // A dual pass's second stage runs its one instruction, a dual chain's
  // third stage the first: opu_compute_engine gives the first as insn2_i
  // alone and as insn3_i in a chain of up to two (no choice here, on the
  // path from a stage's fields to the accumulator's write). Only active
  // stages' fields count for the chain's table, residual and params.
  assign slot[0] = insn_i;
  assign slot[1] = insn2_i;
  assign slot[2] = insn3_i;
  assign active = {links_i == 2'd2, links_i != 2'd0, 1'b1};
  // The chain's one Table, one ResAdd, and the param row its Output and
  // PRelu share (opu_compute_engine chains no more than that).
  always_comb begin
    {has_table, has_res, has_param} = '0;
    {table_insn, res_insn, param_insn} = '0;
    table_pos = '0;
    for (int k = 2; k >= 0; k--) begin
      logic [3:0] op;
      op = `OPU_FIELD(slot[k], OPCODE);
      if (active[k] && op == opuc_isa_pkg::OP_TABLE)
        {has_table, table_insn, table_pos} = {1'b1, slot[k], 2'(k)};
      if (active[k] && op == opuc_isa_pkg::OP_RESADD) {has_res, res_insn} = {1'b1, slot[k]};
      if (active[k] && (op == opuc_isa_pkg::OP_OUTPUT || op == opuc_isa_pkg::OP_PRELU))
        {has_param, param_insn} = {1'b1, slot[k]};
    end
  end

  always_comb begin
    rows = 32'd1;
    pitch = '0;
    cols = 32'(`OPU_FIELD(insn_i, OUTPUT_COUNT));  // the count of every chained stage
    first_entry = 32'(`OPU_FIELD(insn_i, OUTPUT_ACC_ADDR));
    if (`OPU_FIELD(insn_i, OPCODE) == opuc_isa_pkg::OP_AVERAGE) begin
      rows = 32'(`OPU_FIELD(insn_i, AVERAGE_ROWS));
      cols = 32'(`OPU_FIELD(insn_i, AVERAGE_COLS));
      pitch = 32'(`OPU_FIELD(insn_i, AVERAGE_PITCH));
      first_entry = 32'(`OPU_FIELD(insn_i, AVERAGE_ACC_ADDR));
    end
  end
  assign param_raddr_o = has_param ? 32'(`OPU_FIELD(param_insn, OUTPUT_PARAM_ADDR)) : '0;

  assign res_i16 = has_res && `OPU_FIELD(res_insn, RESADD_RES_FORMAT) == 2'd2;
  assign advance = running_q && (!res_i16 || low_q);
  // An i16's low row: `count` rows on, or the next row of a broadcast one.
  assign fm_raddr_o = filling_q ? 32'(`OPU_FIELD(table_insn, TABLE_TABLE_ADDR)) + fill_q
                      : low_q   ? res_q + (`OPU_FIELD(res_insn, RESADD_BROADCAST) ? 32'd1 : cols)
                                : res_q;
  // A tail's dst is read in the pass's first cycle, before its entries.
  assign acc_raddr_o = start_i && tail_i && !tail_window_i ? 32'(tail_dst_i) : entry_q;
  // Each chained instruction counts its entries, as one alone would (a
  // tail its taps).
  assign entries_o = !start_i && !preparing_q && !filling_q && advance ?
                         ((3'(links_i) + 3'd1) << dual_q) + 3'(tail_q) : 3'd0;

  assign stage_in[0] = acc_rdata_i;
  assign stage_in[1] = dual_q ? acc_rdata2_i : x1_q;
  assign stage_in[2] = dual_chain_q ? acc_rdata2_i : x2_q;
  // The chain's one ResAdd picks its lanes where the row is read: the
  // pipeline and stages carry CO bytes rather than the row's L. Its
  // res_lane is a register taken at the pass's start, which keeps the
  // chain's choice of its ResAdd off the row's path (docs/rtl.md).
  opu_res_row u_res_row (.row_i(fm_rdata_i), .res_lane_i(res_lane_q), .lanes_o(res_lanes));
  assign row_at[0] = res_lanes;
  assign row_at[1] = row_q[D + 1];
  assign row_at[2] = row_q[2 * (D + 1)];
  assign high_row_at[0] = high_row_q;
  assign high_row_at[1] = high_pipe_q[D + 1];
  assign high_row_at[2] = high_pipe_q[2 * (D + 1)];
  assign is_average = `OPU_FIELD(insn_i, OPCODE) == opuc_isa_pkg::OP_AVERAGE;
  opu_average_recip u_recip (
    .clk_i, .rst_ni, .start_i(start_i && is_average), .count_i(`OPU_FIELD(insn_i, AVERAGE_COUNT)),
    .shift_i(`OPU_FIELD(insn_i, AVERAGE_SHIFT)), .lo_i(`OPU_FIELD(insn_i, AVERAGE_LO)),
    .hi_i(`OPU_FIELD(insn_i, AVERAGE_HI)), .done_o(recip_done), .d_o(avg_d),
    .shift_o(avg_d_shift), .recip_o(avg_recip), .lo_bound_o(avg_lo_bound),
    .hi_bound_o(avg_hi_bound)
  );

  // The chain's one table, at the stage that is its Table: its input is a
  // register's (or the accumulator's read), so no path runs through two stages.
  assign table_in = table_pos == 2'd0 ? acc_rdata_i : table_pos == 2'd1 ? x1_q : x2_q;
  opu_table u_table (
    .clk_i, .fill_i(fill_s1_q && has_table), .fill_row_i(fill_s1_row_q), .row_i(fm_rdata_i),
    .format_i(`OPU_FIELD(table_insn, TABLE_IN_FORMAT)),
    .enable_i(has_table && valid[32'(table_pos) * (D + 1)]),
    .entry_i(table_in), .entry_o(looked_up)
  );

  // A dual chain's odd entry: the third stage's result, a register, the
  // second table, and the delay the Table stage gives its own lookup.
  localparam int unsigned TD = D - opu_pkg::TABLE_CYCLES;
  localparam int unsigned EB = opu_pkg::ENTRY_BITS;
  logic [EB-1:0] odd_q, odd_looked_up;
  logic [TD*EB-1:0] odd_delay_q;  // the newest lookup in the low bits
  always_ff @(posedge clk_i) if (valid[D] && dual_chain_q) odd_q <= stage_out[2];
  if (TD == 1) begin : g_odd_delay
    always_ff @(posedge clk_i) odd_delay_q <= odd_looked_up;
  end else begin : g_odd_delay
    always_ff @(posedge clk_i) odd_delay_q <= {odd_delay_q[(TD-1)*EB-1:0], odd_looked_up};
  end
  opu_table u_odd_table (
    .clk_i, .fill_i(fill_s1_q && has_table), .fill_row_i(fill_s1_row_q), .row_i(fm_rdata_i),
    .format_i(`OPU_FIELD(table_insn, TABLE_IN_FORMAT)),
    .enable_i(dual_chain_q && valid[D + 1]), .entry_i(odd_q), .entry_o(odd_looked_up)
  );

  for (genvar k = 0; k < 3; k++) begin : g_stage
    // In a dual pass the second stage takes the odd entry as the first
    // takes the even; in a dual chain the third does.
    logic enable;
    assign enable = k == 1 && dual_q && !dual_chain_q ? valid[0]
                  : k == 2 && dual_chain_q ? valid[0] : active[k] && valid[k * (D + 1)];
    opu_post_stage #(.HAS_AVERAGE(k == 0)) u_stage (
      .clk_i, .insn_i(slot[k]), .enable_i(enable),
      .row_i(row_at[k]), .high_row_i(high_row_at[k]),
      .param_i(param_rdata_i), .entry_i(stage_in[k]), .looked_up_i(looked_up),
      .avg_d_i(avg_d), .avg_d_shift_i(avg_d_shift), .avg_recip_i(avg_recip),
      .avg_lo_bound_i(avg_lo_bound), .avg_hi_bound_i(avg_hi_bound), .entry_o(stage_out[k])
    );
  end

  // An entry is written as it leaves the chain's last stage; the pass is
  // done when its last entry is, none behind it.
  assign valid = {valid_q, s1_valid_q};
  assign write_pos = is_average ? opu_pkg::AVERAGE_CYCLES : 32'(links_i) * (D + 1) + D;
  assign write_valid = valid[write_pos];
  // An entry leaves the pipeline where it is written (the next pass may
  // write from further on).
  assign unwritten = valid & (SPAN'(1) << write_pos) - SPAN'(1);
  assign younger = |unwritten;
  opu_pool_tail u_pool_tail (
    .clk_i, .rst_ni, .start_i(start_i && tail_i && tail_window_i), .src_cols_i(tail_src_cols_i),
    .dst_i(tail_dst_i), .entry_valid_i(window_q && write_valid), .entry_i(stage_out[links_i]),
    .last_i(window_q && write_valid && !younger && !running_q), .first_i(first_entry),
    .main_we_i(acc_we_o), .main_waddr_i(acc_waddr_o), .we_o(pool_we_o),
    .waddr_o(pool_waddr_o), .wdata_o(pool_wdata_o), .done_o(window_done)
  );
  assign acc_we_o = write_valid || tail_write_q;
  assign acc_waddr_o = tail_write_q ? tail_dst_q
                     : is_average ? addr_q[opu_pkg::AVERAGE_CYCLES] : links_i == 2'd0 ? addr_q[D]
                     : links_i == 2'd1 ? addr_q[2 * D + 1] : addr_q[3 * D + 2];
  assign acc_wdata_o = tail_write_q ? sum_q : stage_out[links_i];
  assign acc_we2_o = dual_q && write_valid;
  assign acc_wdata2_o = dual_chain_q ? odd_delay_q[TD*EB-1 -: EB] : stage_out[1];
  // The tail's running sum with the entry written a cycle ago, lane by
  // lane, as the Pool adds its taps.
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      summed[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
          sum_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] +
          written_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
  always_ff @(posedge clk_i) begin
    if (tail_q && !window_q && write_valid) written_q <= stage_out[links_i];
    if (start_i) begin
      sum_q <= '0;
      tail_dst_q <= 32'(tail_dst_i);
    end else if (tail_first_q && tail_accumulate_i) begin
      sum_q <= acc_rdata_i;  // dst, read in the pass's first cycle
    end else if (written_valid_q) begin
      sum_q <= summed;
    end
  end

  // The pipeline beside the entries; the registers between stages hold an
  // entry only for a chain that long.
  always_ff @(posedge clk_i) begin
    if (s1_valid_q) addr_q[1] <= s1_entry_q;
    for (int p = 2; p < SPAN; p++) if (valid[p - 1]) addr_q[p] <= addr_q[p - 1];
    if (s1_valid_q && links_i != 2'd0) begin
      row_q[1] <= res_lanes;
      high_pipe_q[1] <= high_row_q;
    end
    for (int p = 2; p <= 2 * (D + 1); p++)
      if (valid[p - 1] && links_i != 2'd0) begin
        row_q[p] <= row_q[p - 1];
        high_pipe_q[p] <= high_pipe_q[p - 1];
      end
    if (valid[D] && links_i != 2'd0) x1_q <= stage_out[0];
    if (valid[2 * D + 1] && links_i == 2'd2) x2_q <= stage_out[1];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {filling_q, fill_s1_q, running_q, s1_valid_q, done_o, low_q, preparing_q, dual_q} <= '0;
      dual_chain_q <= 1'b0;
      {tail_q, tail_first_q, tail_last_q, tail_write_q, written_valid_q, window_q} <= '0;
      valid_q <= '0;
      high_row_q <= '0;
      res_lane_q <= '0;
      {fill_q, fill_s1_row_q, r_q, c_q, row_entry_q, entry_q, res_q, s1_entry_q} <= '0;
    end else begin
      done_o <= 1'b0;
      s1_valid_q <= advance;
      valid_q <= unwritten[SPAN-2:0];
      tail_first_q <= start_i && tail_i && !tail_window_i;
      written_valid_q <= tail_q && !window_q && write_valid;
      tail_last_q <= 1'b0;
      tail_write_q <= tail_last_q;
      low_q <= running_q && res_i16 && !low_q;
      if (low_q) high_row_q <= res_lanes;  // the high row, read a cycle ago
      s1_entry_q <= entry_q;
      fill_s1_q <= filling_q;
      fill_s1_row_q <= fill_q;
      if (start_i) begin
        dual_q <= dual;
        dual_chain_q <= dual && links_i == 2'd1;
        tail_q <= tail_i && !is_average;
        window_q <= tail_i && tail_window_i && !is_average;
        filling_q <= has_table;
        preparing_q <= is_average;
        fill_q <= '0;
        running_q <= !has_table && !is_average && rows != 0 && cols != 0;
        done_o <= !has_table && !is_average && (rows == 0 || cols == 0);
        {r_q, c_q} <= '0;
        row_entry_q <= first_entry;
        entry_q <= first_entry;
        res_q <= 32'(`OPU_FIELD(res_insn, RESADD_RES_ADDR));
        res_lane_q <= 8'(`OPU_FIELD(res_insn, RESADD_RES_LANE));
      end else if (preparing_q) begin
        if (recip_done) begin
          preparing_q <= 1'b0;
          running_q <= rows != 0 && cols != 0;
          done_o <= rows == 0 || cols == 0;
        end
      end else if (filling_q) begin
        fill_q <= fill_q + 1;
        if (fill_q + 1 == TABLE_ROWS) begin
          filling_q <= 1'b0;
          running_q <= cols != 0;
          done_o <= cols == 0;
        end
      end else if (advance) begin
        if (!`OPU_FIELD(res_insn, RESADD_BROADCAST)) res_q <= res_q + 1;
        if (c_q + (dual_q ? 32'd2 : 32'd1) < cols) begin
          c_q <= c_q + (dual_q ? 32'd2 : 32'd1);
          entry_q <= entry_q + (dual_q ? 32'd2 : 32'd1);
        end else begin
          c_q <= '0;
          r_q <= r_q + 1;
          row_entry_q <= row_entry_q + pitch;
          entry_q <= row_entry_q + pitch;
          if (r_q + 1 == rows) running_q <= 1'b0;
        end
      end
      // Done with the last entry, with a sum two cycles after it, or with
      // a window tail's last pooled entry.
      if (write_valid && !younger && !running_q) begin
        dual_q <= 1'b0;
        dual_chain_q <= 1'b0;
        if (tail_q && !window_q) tail_last_q <= 1'b1;
        else if (!tail_q) done_o <= 1'b1;
      end
      if (tail_write_q || window_done) done_o <= 1'b1;
    end
  end
endmodule
