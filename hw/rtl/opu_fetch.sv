// The fetch unit, after VTA's: the program's instruction words live in DRAM
// (`length_i` words from byte `prog_addr_i`, a beat boundary, where the host
// put them), and the unit reads them a beat a request over the DRAM read
// port it shares with the load engine (opu_dram_reads), then queues each
// instruction, in program order, for its engine (with its index, for
// reports). A beat holds words (opu1024: four) or a word spans beats
// (tiny: two); either way a chunk of max(beat, word) bits is what the unit
// buffers, BUFFER of them, and it asks for a beat only while the chunks it
// holds and has asked for fit, since DRAM's responses cannot wait. An
// instruction whose engine's queue is full waits, and the ones behind it
// with it: the program's order is one the engines may run in (every token
// an instruction pops is pushed by an earlier one), so the oldest
// instruction not yet run is always at its queue's head or still here, and
// nothing deadlocks. An opcode no instruction has stops the unit with
// `illegal_o`.
//
// Prefetch: with start_i the host may name the program it will start next
// (next_valid_i, next_addr_i, next_length_i: the runtime's next OPU step).
// Once every beat of this program is asked for, the unit asks for the
// next one's while its buffer has room, and holds those chunks, undecoded,
// behind this program's; done_o waits for the beats in flight. A start of
// that program keeps them, so its first words are there at once instead of
// a DRAM latency later; a start of any other program drops them.
`include "opu_field.svh"
module opu_fetch
#(
  parameter int unsigned DEPTH = 16,  // each engine's queue (a power of two)
  parameter int unsigned BUFFER = 8   // chunks fetched and not yet queued (a power of two)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  logic [31:0]          prog_addr_i,
  input  logic [31:0]          length_i,
  input  logic                 next_valid_i,   // with start_i: the program started after this one
  input  logic [31:0]          next_addr_i,
  input  logic [31:0]          next_length_i,
  output logic                 rd_req_valid_o,
  output logic [31:0]          rd_req_addr_o,
  input  logic                 rd_req_ready_i,
  input  logic                 rd_rsp_valid_i,
  input  logic [opu_pkg::BEAT_BITS-1:0] rd_rsp_data_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] pop_i,
  // Words an engine popped and holds before it issues them (the compute
  // engine's registers, opu_compute_engine): they count in its queue's DEPTH.
  input  logic [opu_pkg::NUM_ENGINES*2-1:0] held_i,
  output logic [opu_pkg::NUM_ENGINES*opu_pkg::WORD_BITS-1:0] heads_o,
  output logic [opu_pkg::NUM_ENGINES*32-1:0] head_indices_o,
  output logic [opu_pkg::NUM_ENGINES-1:0] head_valid_o,
  output logic                 done_o,     // every word queued and every queue empty
  output logic                 illegal_o
);
  localparam int unsigned WB = opu_pkg::WORD_BITS;
  localparam int unsigned BB = opu_pkg::BEAT_BITS;
  localparam int unsigned CHUNK = BB > WB ? BB : WB;
  localparam int unsigned WPC = CHUNK / WB;  // words a chunk
  localparam int unsigned BPC = CHUNK / BB;  // beats a chunk
  localparam int unsigned WSEL = WPC > 1 ? $clog2(WPC) : 1;
  localparam int unsigned BSEL = BPC > 1 ? $clog2(BPC) : 1;
  localparam int unsigned QW = WB + 32;
  localparam int unsigned CW = $clog2(BUFFER);
  localparam int unsigned DW = $clog2(DEPTH);

  logic             running_q;
  logic [31:0]      ask_addr_q, ask_left_q, words_taken_q;  // the next beat to ask for; beats left
  logic             next_valid_q, asking_next_q, resume;
  logic [31:0]      next_addr_q, next_length_q;
  logic [CW+BSEL+2:0] beats_held_q;  // beats asked for and not yet queued as chunks
  logic [CHUNK-1:0] chunk_in, chunk;
  logic             chunk_push, chunk_pop, chunk_empty, ask, last_word;
  logic [CW:0]      chunk_count;
  logic [WB-1:0]    word;
  logic             word_valid, legal, take;
  logic [1:0]       engine;
  logic [opu_pkg::NUM_ENGINES-1:0] push, empty;
  logic [opu_pkg::NUM_ENGINES*(DW+1)-1:0] counts;

  // The engine an opcode belongs to, and whether any instruction has it.
  function automatic logic [2:0] legal_engine(input logic [3:0] opcode);
    unique case (opcode)
      opuc_isa_pkg::OP_LOAD: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_LOAD)};
      opuc_isa_pkg::OP_GEMM: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_GEMM)};
      opuc_isa_pkg::OP_OUTPUT: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_OUTPUT)};
      opuc_isa_pkg::OP_CLAMP: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_CLAMP)};
      opuc_isa_pkg::OP_PRELU: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_PRELU)};
      opuc_isa_pkg::OP_TABLE: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_TABLE)};
      opuc_isa_pkg::OP_RESADD: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_RESADD)};
      opuc_isa_pkg::OP_POOL: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_POOL)};
      opuc_isa_pkg::OP_AVERAGE: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_AVERAGE)};
      opuc_isa_pkg::OP_STORE: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_STORE)};
      opuc_isa_pkg::OP_FENCE: legal_engine = {1'b1, 2'(opuc_isa_pkg::ENGINE_OF_FENCE)};
      default: legal_engine = 3'd0;
    endcase
  endfunction

  function automatic logic [31:0] beats_of(input logic [31:0] words);
    beats_of = (words * (WB / 8) + opu_pkg::BEAT_BYTES - 1) / opu_pkg::BEAT_BYTES;
  endfunction

  // Requests: the program's beats in turn, then the next program's, while
  // the chunks held, arriving and asked for fit the buffer. The address
  // and the beats left are registers, counted as a program starts (not a
  // path from the ports: 21 cells on opu1024 through the request, the read
  // arbiter and the load). None in a start's cycle: a start may drop the
  // chunks.
  assign rd_req_valid_o = running_q && !start_i && !illegal_o && ask_left_q != '0 &&
                          32'(chunk_count) * BPC + 32'(beats_held_q) < BUFFER * BPC;
  assign rd_req_addr_o = ask_addr_q;
  assign ask = rd_req_valid_o && rd_req_ready_i;
  // The start of the program prefetched.
  assign resume = asking_next_q && prog_addr_i == next_addr_q && length_i == next_length_q;

  // Responses: a beat is a chunk, or a chunk's last beat completes it.
  if (BPC == 1) begin : g_beat_chunk
    assign chunk_in = rd_rsp_data_i;
    assign chunk_push = rd_rsp_valid_i;
  end else begin : g_word_chunk
    logic [BSEL-1:0] beat_sel_q;
    logic [CHUNK-BB-1:0] assembling_q;  // the chunk's beats so far, the last one on top
    assign chunk_in = {rd_rsp_data_i, assembling_q};
    assign chunk_push = rd_rsp_valid_i && beat_sel_q == BSEL'(BPC - 1);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        beat_sel_q <= '0;
        assembling_q <= '0;
      end else if (rd_rsp_valid_i) begin
        beat_sel_q <= chunk_push ? '0 : beat_sel_q + 1'b1;
        assembling_q <= chunk_in[CHUNK-1:BB];
      end
    end
  end
  opu_fifo #(.WIDTH(CHUNK), .DEPTH(BUFFER)) u_chunks (
    .clk_i, .rst_ni, .clear_i(start_i && !resume), .push_i(chunk_push), .data_i(chunk_in),
    .pop_i(chunk_pop), .head_o(chunk), .empty_o(chunk_empty), .count_o(chunk_count)
  );

  // Decode: the head chunk's next word, to its engine's queue when there is
  // room; the chunk leaves with its last word, or the program's.
  if (WPC == 1) begin : g_one_word
    assign word = chunk;
    assign last_word = 1'b1;
  end else begin : g_words
    logic [WSEL-1:0] word_sel_q;
    assign word = chunk[WB*32'(word_sel_q) +: WB];
    assign last_word = word_sel_q == WSEL'(WPC - 1);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) word_sel_q <= '0;
      else if (start_i) word_sel_q <= '0;
      else if (take) word_sel_q <= chunk_pop ? '0 : word_sel_q + 1'b1;
    end
  end
  // Not in a start's cycle: the chunks held may be the new program's.
  assign word_valid = running_q && !start_i && !chunk_empty && words_taken_q < length_i &&
                      !illegal_o;
  assign {legal, engine} = legal_engine(`OPU_FIELD(word, OPCODE));
  assign take = word_valid && legal &&
                counts[(DW+1)*32'(engine) +: DW+1] + (DW+1)'(held_i[2*32'(engine) +: 2]) !=
                    (DW+1)'(DEPTH);
  assign chunk_pop = take && (last_word || words_taken_q + 1 == length_i);

  for (genvar e = 0; e < opu_pkg::NUM_ENGINES; e++) begin : g_queue
    logic [QW-1:0] head;
    assign push[e] = take && engine == 2'(e);
    opu_fifo #(.WIDTH(QW), .DEPTH(DEPTH)) u_queue (
      .clk_i, .rst_ni, .clear_i(1'b0), .push_i(push[e]), .data_i({words_taken_q, word}),
      .pop_i(pop_i[e]), .head_o(head), .empty_o(empty[e]), .count_o(counts[(DW+1)*e +: DW+1])
    );
    assign heads_o[WB*e +: WB] = head[WB-1:0];
    assign head_indices_o[32*e +: 32] = head[QW-1:WB];
    assign head_valid_o[e] = !empty[e];
  end
  assign done_o = running_q && words_taken_q >= length_i && &empty && held_i == '0 &&
                  beats_held_q == '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      illegal_o <= 1'b0;
      ask_addr_q <= '0;
      ask_left_q <= '0;
      next_valid_q <= 1'b0;
      asking_next_q <= 1'b0;
      next_addr_q <= '0;
      next_length_q <= '0;
      beats_held_q <= '0;
      words_taken_q <= '0;
    end else begin
      if (start_i) begin
        running_q <= 1'b1;
        words_taken_q <= '0;
        {next_valid_q, next_addr_q, next_length_q} <= {next_valid_i, next_addr_i, next_length_i};
        asking_next_q <= 1'b0;
        // The program prefetched goes on from the beats already asked for.
        if (!resume) begin
          ask_addr_q <= prog_addr_i;
          ask_left_q <= beats_of(length_i);
        end
      end else begin
        if (ask) begin
          ask_addr_q <= ask_addr_q + opu_pkg::BEAT_BYTES;
          ask_left_q <= ask_left_q - 1;
        end else if (ask_left_q == '0 && next_valid_q && !asking_next_q) begin
          ask_addr_q <= next_addr_q;
          ask_left_q <= beats_of(next_length_q);
          asking_next_q <= 1'b1;
        end
        if (take) words_taken_q <= words_taken_q + 1;
      end
      beats_held_q <= beats_held_q + (CW+BSEL+3)'(ask) -
                      (chunk_push ? (CW+BSEL+3)'(BPC) : '0);
      if (word_valid && !legal) illegal_o <= 1'b1;
    end
  end
endmodule
