// One engine's fetch unit: walks the whole program in order, one word a
// cycle, and queues the instructions of its engine (with their index, for
// reports). Each engine fetching for itself keeps the engines as decoupled
// as the functional simulator's unbounded queues: a full queue stalls only
// its own engine, never another one's fetch. An opcode no instruction has
// stops the load engine's fetch unit with `illegal_o`.
`include "opu_field.svh"
module opu_fetch
#(
  parameter logic [1:0] ENGINE = 2'd0,
  parameter int unsigned DEPTH = 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  logic [opu_pkg::IMEM_AW:0]     length_i,
  output logic [opu_pkg::IMEM_AW-1:0]   raddr_o,
  input  opu_pkg::word_t                rdata_i,
  input  logic                 pop_i,
  output opu_pkg::word_t                head_o,
  output opu_pkg::index_t               head_index_o,
  output logic                 head_valid_o,
  output logic                 done_o,      // every word looked at, the queue empty
  output logic                 illegal_o
);
  localparam int unsigned QW = opuc_isa_pkg::WORD_BITS + 32;
  logic [opu_pkg::IMEM_AW:0] ptr_q;
  logic             inflight_q;
  logic [opu_pkg::IMEM_AW:0] inflight_idx_q;
  logic             running_q;
  logic [$clog2(DEPTH):0] count;
  logic             empty;
  logic [QW-1:0]    head;
  logic             legal, mine, issue;
  logic [1:0]       engine;

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
      default: legal_engine = 3'd0;
    endcase
  endfunction
  assign {legal, engine} = legal_engine(`OPU_FIELD(rdata_i, OPCODE));
  assign mine = inflight_q && legal && engine == ENGINE;
  // Room for the word in flight and one more.
  assign issue = running_q && ptr_q < length_i && !illegal_o &&
                 32'(count) + 32'(inflight_q) + 1 < DEPTH;
  assign raddr_o = ptr_q[opu_pkg::IMEM_AW-1:0];

  opu_fifo #(.WIDTH(QW), .DEPTH(DEPTH)) u_queue (
    .clk_i, .rst_ni,
    .push_i(mine), .data_i({32'(inflight_idx_q), rdata_i}),
    .pop_i, .head_o(head), .empty_o(empty), .count_o(count)
  );
  assign head_o = head[opuc_isa_pkg::WORD_BITS-1:0];
  assign head_index_o = head[QW-1:opuc_isa_pkg::WORD_BITS];
  assign head_valid_o = !empty;
  assign done_o = running_q && ptr_q >= length_i && !inflight_q && empty;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= '0;
      inflight_q <= 1'b0;
      inflight_idx_q <= '0;
      running_q <= 1'b0;
      illegal_o <= 1'b0;
    end else begin
      if (start_i) begin
        running_q <= 1'b1;
        ptr_q <= '0;
      end else if (issue) begin
        ptr_q <= ptr_q + 1'b1;
      end
      inflight_q <= issue;
      inflight_idx_q <= ptr_q;
      if (inflight_q && !legal && ENGINE == 2'd0) illegal_o <= 1'b1;
    end
  end
endmodule
