// The compute engine's shell: in program order it issues each instruction
// to one of two units that run at once, the array (Gemm) and the stages
// after it (Output, Clamp, PRelu, Table, ResAdd, Pool, Average), which
// takes its instructions from a queue. So a tile's post-processing runs
// while the array computes the next tile, as the OPU's datapath streams
// its output stages behind the array. The post side takes up to three
// queued stages over the same entries as one pass (a chain: each entry
// through all of them, opu_post), so Output, ResAdd and a compare cost one
// pass, not three. A Pool that sums every entry of such a chain into one
// (a global pool's numerator), or takes the max of its 2x2 windows at
// stride 2, ends it as its tail (opu_post).
//
// The array takes the next Gemm as the one before issues its last pixel
// (opu_gemm's accept_o): two Gemms may be in flight, the older draining
// the array's pipeline (slot o below), the newer issuing (slot g).
// The engine still behaves as one in-order engine (docs/isa.md):
//  - a Gemm issues only when no post instruction that is still outstanding
//    (running or queued) touches an accumulator bank it touches
//    (footprint below; opu_acc_buffer's three banks); a post instruction
//    enters the queue at once but starts only when no Gemm in flight
//    touches its banks. So reads and writes of the accumulator happen in
//    program order, and each bank serves one side at a time. (A chain
//    never joins over a Gemm issued between its words: then each Gemm in
//    flight that touches a chain's banks is older than the chain, and
//    waits for no instruction behind it.)
//  - an instruction that gives a token retires only when every older
//    instruction has finished, so a token means what it meant: everything
//    before it is done. Instructions without tokens retire as they finish.
// The two units read the buffers through ports of their own.
`include "opu_field.svh"
module opu_compute_engine
#(
  parameter int unsigned QUEUE = 8  // post instructions waiting (a power of two)
) (
  input  logic    clk_i,
  input  logic    rst_ni,
  input  logic    head_valid_i,
  input  opu_pkg::word_t   head_i,
  input  opu_pkg::index_t  head_index_i,
  output logic    pop_o,
  output logic [1:0] held_o,  // words popped from the queue and not yet issued
  input  logic    has_prev_i,
  input  logic    has_next_i,
  output logic    take_prev_o,
  output logic    take_next_o,
  output logic    give_prev_o,
  output logic    give_next_o,
  output logic    gemm_start_o,  // one cycle, the first that gemm_insn_o holds the instruction
  output opu_pkg::word_t   gemm_insn_o,
  input  logic    gemm_done_i,   // in start order
  input  logic    gemm_accept_i, // the array takes a start next cycle
  output logic    post_start_o,
  output opu_pkg::word_t   post_insn_o,
  output opu_pkg::word_t   post_insn2_o,  // the stages chained to post_insn_o
  output opu_pkg::word_t   post_insn3_o,
  output logic [1:0] post_links_o,
  output logic    post_tail_o,     // a Pool ends the chain: its dst, and accumulate,
  output logic [15:0] post_tail_dst_o,
  output logic    post_tail_accumulate_o,
  output logic    post_tail_window_o,       // ... or 2x2 windows, and its source's columns
  output logic [9:0] post_tail_src_cols_o,
  input  logic    post_done_i,
  output logic [2:0] post_banks_o,  // the accumulator banks the post unit holds
  output logic    busy_o,
  output logic [63:0] busy_cycles_o,
  output logic [63:0] token_cycles_o,
  output logic [63:0] retired_o,
  output opu_pkg::index_t  last_retired_o
);
  localparam int unsigned QW = $clog2(QUEUE);

  // The accumulator entries an instruction reads or writes: [lo, hi), and
  // for a Pool, whose pooled entries lie apart from its source tile (a
  // global pool's sums, after both tiles' halves), a second range [lo2, hi2).
  // Each hi is kept as two addends, its product's low five rows and its
  // high five, that banks() adds: one register holds the span, the next
  // its banks, and neither path then holds a ten-row sum and a compare
  // (docs/rtl.md, Timing budget). {lo, hi's two, lo2, hi2's two}, EW bits
  // each: a plain vector, not a struct, since Yosys 0.23 reads a
  // struct-typed function argument as undef.
  localparam int unsigned EW = 22;  // an address (16 bits) and a product of two 10-bit counts
  typedef logic [6*EW-1:0] span_t;

  // c + a (b's bits from..from + 4) for counts of a few bits, in adders
  // rather than a DSP slice.
  function automatic logic [EW-1:0] mul_add(input logic [9:0] a, input logic [9:0] b,
                                            input logic [EW-1:0] c, input int unsigned from);
    mul_add = c;
    for (int unsigned i = from; i < from + 5; i++)
      mul_add = mul_add + ((EW'(a) << i) & {EW{b[i]}});
  endfunction

  function automatic span_t footprint(input opu_pkg::word_t w);
    logic [EW-1:0] a, b;
    logic bp, up;
    {bp, up} = '0;
    unique case (`OPU_FIELD(w, OPCODE))
      opuc_isa_pkg::OP_GEMM: begin
        // Block pairs (init 3 at stride_x 2) write the other bank at the
        // same offset too: the span from bank 0's entry to bank 1's end.
        // The bank's offset goes into hi's second addend, so that neither
        // addend waits for the compare.
        bp = `OPU_FIELD(w, GEMM_INIT) == opuc_isa_pkg::GEMM_INIT_PAIRS_FROM_BIAS &&
             `OPU_FIELD(w, GEMM_STRIDE_X) == 4'd2;
        a = EW'(`OPU_FIELD(w, GEMM_ACC_ADDR));
        up = bp && a < EW'(opu_pkg::ACC_BANK1);
        footprint = {bp && !up ? a - EW'(opu_pkg::ACC_BANK1) : a,
                     mul_add(10'(`OPU_FIELD(w, GEMM_OUT_ROWS)), 10'(`OPU_FIELD(w, GEMM_OUT_COLS)), a, 0),
                     mul_add(10'(`OPU_FIELD(w, GEMM_OUT_ROWS)), 10'(`OPU_FIELD(w, GEMM_OUT_COLS)),
                             up ? EW'(opu_pkg::ACC_BANK1) : '0, 5),
                     (3*EW)'(0)};
      end
      opuc_isa_pkg::OP_POOL: begin
        a = EW'(`OPU_FIELD(w, POOL_SRC_ADDR));
        b = EW'(`OPU_FIELD(w, POOL_DST_ADDR));
        footprint = {a, mul_add(10'(`OPU_FIELD(w, POOL_SRC_ROWS)), 10'(`OPU_FIELD(w, POOL_SRC_COLS)), a, 0),
                     mul_add(10'(`OPU_FIELD(w, POOL_SRC_ROWS)), 10'(`OPU_FIELD(w, POOL_SRC_COLS)), '0, 5),
                     b, mul_add(10'(`OPU_FIELD(w, POOL_OUT_ROWS)), 10'(`OPU_FIELD(w, POOL_OUT_COLS)), b, 0),
                     mul_add(10'(`OPU_FIELD(w, POOL_OUT_ROWS)), 10'(`OPU_FIELD(w, POOL_OUT_COLS)), '0, 5)};
      end
      opuc_isa_pkg::OP_AVERAGE: begin
        a = EW'(`OPU_FIELD(w, AVERAGE_ACC_ADDR));
        if (`OPU_FIELD(w, AVERAGE_ROWS) == '0 || `OPU_FIELD(w, AVERAGE_COLS) == '0)
          footprint = {a, a, (4*EW)'(0)};
        else  // a + (rows - 1) pitch + cols
          footprint = {a, mul_add(10'(`OPU_FIELD(w, AVERAGE_ROWS)), 10'(`OPU_FIELD(w, AVERAGE_PITCH)),
                                  a + EW'(`OPU_FIELD(w, AVERAGE_COLS)) -
                                      EW'(`OPU_FIELD(w, AVERAGE_PITCH)), 0),
                       mul_add(10'(`OPU_FIELD(w, AVERAGE_ROWS)), 10'(`OPU_FIELD(w, AVERAGE_PITCH)),
                               '0, 5),
                       (3*EW)'(0)};
      end
      default: begin  // Output, Clamp, PRelu, Table, ResAdd: count entries from acc_addr
        a = EW'(`OPU_FIELD(w, OUTPUT_ACC_ADDR));
        footprint = {a, a + EW'(`OPU_FIELD(w, OUTPUT_COUNT)), (4*EW)'(0)};
      end
    endcase
  endfunction

  // The accumulator banks (opu_acc_buffer) that entries [lo, hi) lie in;
  // r = {lo, hi's two addends}.
  function automatic logic [2:0] banks_of(input logic [3*EW-1:0] r);
    logic [EW-1:0] lo, hi;
    lo = r[3*EW-1:2*EW];
    hi = r[2*EW-1:EW] + r[EW-1:0];
    banks_of = lo >= hi ? 3'd0 : {hi > EW'(opu_pkg::ACC_SUMS),
                                  lo < EW'(opu_pkg::ACC_SUMS) && hi > EW'(opu_pkg::ACC_BANK1),
                                  lo < EW'(opu_pkg::ACC_BANK1)};
  endfunction
  function automatic logic [2:0] banks(input span_t x);
    banks = banks_of(x[6*EW-1:3*EW]) | banks_of(x[3*EW-1:0]);
  endfunction

  function automatic logic gives(input opu_pkg::word_t w);
    gives = `OPU_FIELD(w, PUSH_PREV) || `OPU_FIELD(w, PUSH_NEXT);
  endfunction

  // A chain: stages of `count` entries from one `acc_addr` (the fields sit
  // alike in Output, Clamp, PRelu, Table and ResAdd), at most one ResAdd
  // (one residual row an entry) and one Table, the param-reading ones on one
  // param row, and no token given before its last.
  function automatic logic streams(input opu_pkg::word_t w);
    logic [3:0] op;
    op = `OPU_FIELD(w, OPCODE);
    streams = op == opuc_isa_pkg::OP_OUTPUT || op == opuc_isa_pkg::OP_CLAMP ||
              op == opuc_isa_pkg::OP_PRELU || op == opuc_isa_pkg::OP_TABLE ||
              op == opuc_isa_pkg::OP_RESADD;
  endfunction
  function automatic logic reads_params(input opu_pkg::word_t w);
    reads_params = `OPU_FIELD(w, OPCODE) == opuc_isa_pkg::OP_OUTPUT ||
                   `OPU_FIELD(w, OPCODE) == opuc_isa_pkg::OP_PRELU;
  endfunction
  function automatic logic agree(input opu_pkg::word_t a, input opu_pkg::word_t b);
    agree = `OPU_FIELD(a, OUTPUT_ACC_ADDR) == `OPU_FIELD(b, OUTPUT_ACC_ADDR) &&
            `OPU_FIELD(a, OUTPUT_COUNT) == `OPU_FIELD(b, OUTPUT_COUNT) &&
            !(`OPU_FIELD(a, OPCODE) == opuc_isa_pkg::OP_RESADD &&
              `OPU_FIELD(b, OPCODE) == opuc_isa_pkg::OP_RESADD) &&
            !(`OPU_FIELD(a, OPCODE) == opuc_isa_pkg::OP_TABLE &&
              `OPU_FIELD(b, OPCODE) == opuc_isa_pkg::OP_TABLE) &&
            !(reads_params(a) && reads_params(b) &&
              `OPU_FIELD(a, OUTPUT_PARAM_ADDR) != `OPU_FIELD(b, OUTPUT_PARAM_ADDR));
  endfunction
  // Whether a Pool (`sums`: one that can be a tail, whose source starts at
  // `src` and ends at `src_end`) ends the chain whose last word is `last`
  // (its entries' end `last_end`) as its tail: its source is exactly the
  // chain's entries. Both ends are worked out a register ahead.
  function automatic logic ends(input opu_pkg::word_t last, input logic [EW-1:0] last_end,
                                input logic sums, input logic [15:0] src,
                                input logic [EW-1:0] src_end);
    ends = sums && streams(last) && !gives(last) && `OPU_FIELD(last, OUTPUT_COUNT) != '0 &&
           src == 16'(`OPU_FIELD(last, OUTPUT_ACC_ADDR)) && src_end == last_end;
  endfunction
  // A Pool that sums one window covering its source.
  function automatic logic sums_all(input opu_pkg::word_t w);
    sums_all = `OPU_FIELD(w, OPCODE) == opuc_isa_pkg::OP_POOL && `OPU_FIELD(w, POOL_SUM) &&
               `OPU_FIELD(w, POOL_OUT_ROWS) == 10'd1 && `OPU_FIELD(w, POOL_OUT_COLS) == 10'd1 &&
               `OPU_FIELD(w, POOL_PAD_Y) == '0 && `OPU_FIELD(w, POOL_PAD_X) == '0 &&
               `OPU_FIELD(w, POOL_SIZE_Y) >= `OPU_FIELD(w, POOL_SRC_ROWS) &&
               `OPU_FIELD(w, POOL_SIZE_X) >= `OPU_FIELD(w, POOL_SRC_COLS);
  endfunction
  // A Pool of 2x2 max windows at stride 2 over a source of even rows and
  // columns, each window whole, none gathered over tiles (opu_pool_tail).
  function automatic logic halves(input opu_pkg::word_t w);
    halves = `OPU_FIELD(w, OPCODE) == opuc_isa_pkg::OP_POOL && !`OPU_FIELD(w, POOL_SUM) &&
             !`OPU_FIELD(w, POOL_ACCUMULATE) && `OPU_FIELD(w, POOL_SIZE_Y) == 10'd2 &&
             `OPU_FIELD(w, POOL_SIZE_X) == 10'd2 && `OPU_FIELD(w, POOL_STRIDE_Y) == 10'd2 &&
             `OPU_FIELD(w, POOL_STRIDE_X) == 10'd2 && `OPU_FIELD(w, POOL_PAD_Y) == '0 &&
             `OPU_FIELD(w, POOL_PAD_X) == '0 && (`OPU_FIELD(w, POOL_SRC_ROWS) & 10'd1) == '0 &&
             (`OPU_FIELD(w, POOL_SRC_COLS) & 10'd1) == '0 &&
             `OPU_FIELD(w, POOL_OUT_ROWS) == `OPU_FIELD(w, POOL_SRC_ROWS) >> 1 &&
             `OPU_FIELD(w, POOL_OUT_COLS) == `OPU_FIELD(w, POOL_SRC_COLS) >> 1;
  endfunction
  // Whether `next` joins the chain `first` (and `second`, with two).
  function automatic logic joins(input opu_pkg::word_t first, input opu_pkg::word_t second,
                                 input logic two, input opu_pkg::word_t next);
    joins = streams(first) && streams(next) && agree(first, next) &&
            (two ? !gives(second) && agree(second, next) : !gives(first));
  endfunction

  // The array's instruction, and the post unit's, from issue to retirement
  // (done: finished, waiting for an older instruction to give its tokens).
  logic   g_busy_q, g_done_q, p_busy_q, p_done_q;
  opu_pkg::index_t g_index_q, p_index_q;
  logic [2:0] g_banks_q, p_banks_q;
  // The Gemm before g while it drains the array's pipeline, and the
  // tokens it gives.
  logic   o_busy_q, o_done_q, o_wait, o_finished, o_older, o_retire;
  opu_pkg::index_t o_index_q;
  logic [2:0] o_banks_q;
  logic [1:0] o_push_q;
  logic   gemm_since_q;  // a Gemm issued since the last post word entered the queue
  logic   p_clash;
  // The queue of post instructions issued and not yet started.
  opu_pkg::word_t  q_word [QUEUE];
  opu_pkg::index_t q_index [QUEUE];
  logic [2:0] q_banks [QUEUE];
  // Whether each queued word joins a chain that starts at the word queued
  // before it (link1), or at the one two before (link2, through the one
  // before): worked out as it enters, against the last two words queued
  // (last1_q, last2_q), so that taking a chain compares no fields.
  logic       q_link1 [QUEUE], q_link2 [QUEUE];
  logic       q_tail [QUEUE];  // ends the chain whose last word was queued before it
  opu_pkg::word_t last1_q, last2_q;
  logic [QW-1:0] q_rd_q, q_wr_q;
  logic [QW-1:0] q_rd1_q, q_rd2_q, q_rd3_q;  // q_rd_q + 1, + 2 and + 3, registered beside it
  logic [QW:0]   q_count_q;

  logic  is_gemm, tokens, clash, ready, g_finished, p_finished, g_older, p_older;
  logic  g_retire, p_retire, p_take, link1, link2, head_joins, tail;
  logic [QW-1:0] tail_at;  // where the chain's tail would be
  logic [1:0] links;
  opu_pkg::index_t p_last_index_q;
  opu_pkg::word_t q0, q1, q2, last_post;
  // The queue's head reaches the issue through two registers: one holds
  // its footprint, one the banks of it, so that neither a product nor a
  // compare lies on the path to the issue (docs/rtl.md, Timing budget).
  // The words they hold count in the queue's depth (held_o).
  logic    s2_valid_q, s3_valid_q, s2_step, s3_step;
  opu_pkg::word_t  s2_word_q, head_q;
  opu_pkg::index_t s2_index_q, head_index_q;
  span_t   s2_span_q;
  logic [2:0] head_banks_q;
  logic [EW-1:0] head_end_q;  // a Pool's source's end
  logic    head_sums_q;        // the head is a Pool that can be a tail (sums_all, halves)
  logic [EW-1:0] last1_end_q; // the entries' end of the last word queued
  opu_pkg::word_t p_tail_q;    // the chain's tail, for its tokens
  assign s3_step = s2_valid_q && (!s3_valid_q || ready);
  assign s2_step = head_valid_i && (!s2_valid_q || s3_step);
  assign pop_o = s2_step;
  assign held_o = 2'(s2_valid_q) + 2'(s3_valid_q);

  assign is_gemm = `OPU_FIELD(head_q, OPCODE) == opuc_isa_pkg::OP_GEMM;
  assign tokens = (!`OPU_FIELD(head_q, POP_PREV) || has_prev_i) &&
                  (!`OPU_FIELD(head_q, POP_NEXT) || has_next_i);
  always_comb begin
    clash = p_busy_q && |(head_banks_q & p_banks_q);
    for (int unsigned k = 0; k < QUEUE; k++)
      if (QW'(k) - q_rd_q < q_count_q[QW-1:0] || q_count_q[QW])
        clash = clash || |(head_banks_q & q_banks[k]);
    clash = is_gemm && clash;
  end
  assign ready = s3_valid_q && tokens && !clash &&
                 (is_gemm ? gemm_accept_i && !o_busy_q : q_count_q != (QW+1)'(QUEUE));
  assign take_prev_o = ready && `OPU_FIELD(head_q, POP_PREV);
  assign take_next_o = ready && `OPU_FIELD(head_q, POP_NEXT);

  // Retirement: at once, or for an instruction that gives tokens once
  // every older instruction of the other unit is done (the post unit's
  // queue holds only younger ones than the instruction it runs).
  // The array's done is o's while o waits for it; g retires after o.
  assign o_wait = o_busy_q && !o_done_q;
  assign o_finished = o_busy_q && (o_done_q || gemm_done_i);
  assign g_finished = g_busy_q && (g_done_q || (gemm_done_i && !o_wait));
  assign p_finished = p_busy_q && (p_done_q || post_done_i);
  assign o_older = (p_busy_q && p_index_q < o_index_q) ||
                   (q_count_q != '0 && q_index[q_rd_q] < o_index_q);
  assign g_older = (p_busy_q && p_index_q < g_index_q) ||
                   (q_count_q != '0 && q_index[q_rd_q] < g_index_q);
  assign p_older = (g_busy_q && g_index_q < p_last_index_q) ||
                   (o_busy_q && o_index_q < p_last_index_q);
  assign o_retire = o_finished && (o_push_q == '0 || !o_older);
  assign g_retire = g_finished && !o_busy_q && (!gives(gemm_insn_o) || !g_older);
  assign p_retire = p_finished && (!gives(last_post) || !p_older);
  assign give_prev_o = (o_retire && o_push_q[1]) ||
                       (g_retire && `OPU_FIELD(gemm_insn_o, PUSH_PREV)) ||
                       (p_retire && `OPU_FIELD(last_post, PUSH_PREV));
  assign give_next_o = (o_retire && o_push_q[0]) ||
                       (g_retire && `OPU_FIELD(gemm_insn_o, PUSH_NEXT)) ||
                       (p_retire && `OPU_FIELD(last_post, PUSH_NEXT));
  // The post unit takes the queue's oldest instruction when it is free,
  // with the stages that chain to it, but waits a cycle while the head, as
  // it enters the queue, would join the chain.
  assign q0 = q_word[q_rd_q];
  assign q1 = q_word[q_rd1_q];
  assign q2 = q_word[q_rd2_q];
  assign link1 = q_count_q >= (QW+1)'(2) && q_link1[q_rd1_q];
  assign link2 = link1 && q_count_q >= (QW+1)'(3) && q_link2[q_rd2_q];
  assign links = link2 ? 2'd2 : link1 ? 2'd1 : 2'd0;
  assign tail_at = links == 2'd2 ? q_rd3_q : links == 2'd1 ? q_rd2_q : q_rd1_q;
  assign tail = q_count_q >= (QW+1)'(links) + (QW+1)'(2) && q_tail[tail_at];
  // The queue then holds the chain alone: its words are the last queued.
  assign head_joins = ready && !is_gemm && !gemm_since_q && q_count_q == (QW+1)'(links) + 1'b1 &&
                      ((links != 2'd2 && (links == 2'd1 ? joins(last2_q, last1_q, 1'b1, head_q)
                                                        : joins(last1_q, last1_q, 1'b0, head_q))) ||
                       ends(last1_q, last1_end_q, head_sums_q,
                            16'(`OPU_FIELD(head_q, POOL_SRC_ADDR)), head_end_q));
  // A Gemm in flight on the chain's banks is older than the chain.
  assign p_clash = |((q_banks[q_rd_q] | (tail ? q_banks[tail_at] : 3'd0)) &
                     ((g_busy_q ? g_banks_q : 3'd0) | (o_busy_q ? o_banks_q : 3'd0)));
  assign p_take = !p_busy_q && q_count_q != '0 && !head_joins && !p_clash;
  assign last_post = post_tail_o ? p_tail_q : post_links_o == 2'd2 ? post_insn3_o :
                     post_links_o == 2'd1 ? post_insn2_o : post_insn_o;
  assign busy_o = g_busy_q || o_busy_q || p_busy_q || q_count_q != '0;
  assign post_banks_o = p_busy_q ? p_banks_q : 3'd0;

  // The statistics, each in two registered halves (opu_counter).
  opu_counter u_busy (.clk_i, .rst_ni, .step_i(busy_o), .value_o(busy_cycles_o));
  opu_counter u_token (.clk_i, .rst_ni, .step_i(s3_valid_q && !tokens), .value_o(token_cycles_o));
  opu_counter #(.STEP_BITS(3)) u_retired (
    .clk_i, .rst_ni,
    .step_i(3'(g_retire) + 3'(o_retire) + (p_retire ? 3'(post_links_o) + 3'(post_tail_o) + 3'd1 : 3'd0)),
    .value_o(retired_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {g_busy_q, g_done_q, p_busy_q, p_done_q, gemm_start_o, post_start_o} <= '0;
      {s2_valid_q, s3_valid_q, s2_word_q, s2_index_q, s2_span_q, head_q, head_index_q, head_banks_q} <= '0;
      {g_index_q, p_index_q, g_banks_q, p_banks_q} <= '0;
      {o_busy_q, o_done_q, o_index_q, o_banks_q, o_push_q, gemm_since_q} <= '0;
      {gemm_insn_o, post_insn_o, post_insn2_o, post_insn3_o, post_links_o} <= '0;
      {post_tail_o, post_tail_dst_o, post_tail_accumulate_o, p_tail_q, head_end_q} <= '0;
      {post_tail_window_o, post_tail_src_cols_o} <= '0;
      {head_sums_q, last1_end_q} <= '0;
      p_last_index_q <= '0;
      {last1_q, last2_q} <= '0;
      {q_rd_q, q_wr_q, q_count_q} <= '0;
      {q_rd1_q, q_rd2_q, q_rd3_q} <= {QW'(1), QW'(2), QW'(3)};
      last_retired_o <= '1;
    end else begin
      gemm_start_o <= ready && is_gemm;
      if (s2_step) begin
        s2_word_q <= head_i;
        s2_index_q <= head_index_i;
        s2_span_q <= footprint(head_i);
      end
      if (s2_step) s2_valid_q <= 1'b1;
      else if (s3_step) s2_valid_q <= 1'b0;
      if (s3_step) begin
        head_q <= s2_word_q;
        head_index_q <= s2_index_q;
        head_banks_q <= banks(s2_span_q);
        head_end_q <= s2_span_q[4*EW +: EW] + s2_span_q[3*EW +: EW];
        // A window tail's pooled entries (the footprint's second range) fit
        // its RAM.
        head_sums_q <= sums_all(s2_word_q) ||
                       (halves(s2_word_q) &&
                        s2_span_q[EW +: EW] + s2_span_q[0 +: EW] - s2_span_q[2*EW +: EW] <=
                            EW'(opu_pkg::POOL_TAIL_ENTRIES));
      end
      if (s3_step) s3_valid_q <= 1'b1;
      else if (ready) s3_valid_q <= 1'b0;
      post_start_o <= p_take;
      if (ready && is_gemm) begin
        g_busy_q <= 1'b1;
        g_done_q <= 1'b0;
        gemm_insn_o <= head_q;
        g_index_q <= head_index_q;
        g_banks_q <= head_banks_q;
      end else if (g_retire) begin
        g_busy_q <= 1'b0;
        g_done_q <= 1'b0;
      end else if (gemm_done_i && !o_wait) begin
        g_done_q <= 1'b1;
      end
      // The Gemm before, still in flight, drains as o (ready needs o free).
      if (ready && is_gemm && g_busy_q && !g_retire) begin
        o_busy_q <= 1'b1;
        o_done_q <= g_done_q || gemm_done_i;
        o_index_q <= g_index_q;
        o_banks_q <= g_banks_q;
        o_push_q <= {`OPU_FIELD(gemm_insn_o, PUSH_PREV), `OPU_FIELD(gemm_insn_o, PUSH_NEXT)};
      end else if (o_retire) begin
        o_busy_q <= 1'b0;
        o_done_q <= 1'b0;
      end else if (gemm_done_i && o_wait) begin
        o_done_q <= 1'b1;
      end
      if (ready) gemm_since_q <= is_gemm;
      if (ready && !is_gemm) begin
        q_word[q_wr_q] <= head_q;
        q_index[q_wr_q] <= head_index_q;
        q_banks[q_wr_q] <= head_banks_q;
        q_link1[q_wr_q] <= !gemm_since_q && joins(last1_q, last1_q, 1'b0, head_q);
        q_link2[q_wr_q] <= !gemm_since_q && joins(last2_q, last1_q, 1'b1, head_q);
        q_tail[q_wr_q] <= !gemm_since_q && ends(last1_q, last1_end_q, head_sums_q,
                                               16'(`OPU_FIELD(head_q, POOL_SRC_ADDR)), head_end_q);
        last1_q <= head_q;
        last1_end_q <= EW'(`OPU_FIELD(head_q, OUTPUT_ACC_ADDR)) + EW'(`OPU_FIELD(head_q, OUTPUT_COUNT));
        last2_q <= last1_q;
        q_wr_q <= q_wr_q + 1'b1;
      end
      if (p_take) begin
        p_busy_q <= 1'b1;
        post_insn_o <= q0;
        // A stage past the chain is idle but for a dual pass's or dual
        // chain's odd entries, which take the first instruction (opu_post).
        post_insn2_o <= links != 2'd0 ? q1 : q0;
        post_insn3_o <= links == 2'd2 ? q2 : q0;
        post_links_o <= links;
        post_tail_o <= tail;
        p_tail_q <= q_word[tail_at];
        post_tail_dst_o <= 16'(`OPU_FIELD(q_word[tail_at], POOL_DST_ADDR));
        post_tail_accumulate_o <= `OPU_FIELD(q_word[tail_at], POOL_ACCUMULATE);
        post_tail_window_o <= !`OPU_FIELD(q_word[tail_at], POOL_SUM);
        post_tail_src_cols_o <= `OPU_FIELD(q_word[tail_at], POOL_SRC_COLS);
        p_index_q <= q_index[q_rd_q];
        p_last_index_q <= tail ? q_index[tail_at] : link2 ? q_index[q_rd2_q] :
                          link1 ? q_index[q_rd1_q] : q_index[q_rd_q];
        p_banks_q <= q_banks[q_rd_q] | (tail ? q_banks[tail_at] : 3'd0);
        q_rd_q <= q_rd_q + QW'(links) + QW'(tail) + 1'b1;
        q_rd1_q <= q_rd_q + QW'(links) + QW'(tail) + 2'd2;
        q_rd2_q <= q_rd_q + QW'(links) + QW'(tail) + 2'd3;
        q_rd3_q <= q_rd_q + QW'(links) + QW'(tail) + 3'd4;
      end else if (p_retire) begin
        p_busy_q <= 1'b0;
        p_done_q <= 1'b0;
      end else if (post_done_i) begin
        p_done_q <= 1'b1;
      end
      q_count_q <= q_count_q + (QW+1)'(ready && !is_gemm) -
                   (p_take ? (QW+1)'(links) + (QW+1)'(tail) + 1'b1 : '0);
      if (g_retire || o_retire || p_retire) begin
        opu_pkg::index_t gemm_index;
        gemm_index = g_retire ? g_index_q : o_index_q;
        last_retired_o <= (g_retire || o_retire) && (!p_retire || gemm_index > p_last_index_q)
                              ? gemm_index : p_last_index_q;
      end
    end
  end
endmodule
