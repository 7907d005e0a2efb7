// The shell around one engine's unit: takes the next instruction of its
// queue once the tokens it waits for are there and the unit can take it,
// starts the unit, gives each instruction's tokens when the unit is done
// with it (in order), and counts what it spent its cycles on. With
// IN_FLIGHT > 1 (the load engine) the unit may start an instruction before
// it is done with the ones before: a queue keeps each one's tokens to give
// and its index.
`include "opu_field.svh"
module opu_engine
#(
  parameter int unsigned IN_FLIGHT = 1  // a power of two
) (
  input  logic    clk_i,
  input  logic    rst_ni,
  input  logic    head_valid_i,
  input  logic    hold_i,       // the head may not start yet (a Fence's Stores are not done)
  input  opu_pkg::word_t   head_i,
  input  opu_pkg::index_t  head_index_i,
  output logic    pop_o,
  input  logic    has_prev_i,
  input  logic    has_next_i,
  output logic    take_prev_o,
  output logic    take_next_o,
  output logic    give_prev_o,
  output logic    give_next_o,
  output logic    start_o,      // one cycle, the first that insn_o holds the instruction
  output opu_pkg::word_t   insn_o,  // changes only at a start, and no start follows a start:
                                    // it holds the cycle after (opu_load.sv reads it then)
  input  logic    accept_i,     // the unit can start another instruction
  input  logic    done_i,       // one cycle: the unit finished its oldest instruction
  input  logic    dram_wait_i,  // the unit waits for DRAM this cycle
  output logic    busy_o,
  output logic [63:0] busy_cycles_o,
  output logic [63:0] token_cycles_o,
  output logic [63:0] dram_cycles_o,
  output logic [63:0] retired_o,
  output opu_pkg::index_t  last_retired_o
);
  localparam int unsigned QD = IN_FLIGHT < 2 ? 2 : IN_FLIGHT;
  logic [$clog2(QD):0] count;
  logic            room, ready, give_prev, give_next, empty_unused;
  opu_pkg::index_t index;

  assign room = count < ($clog2(QD)+1)'(IN_FLIGHT) && accept_i && !start_o;
  assign ready = head_valid_i && !hold_i && room &&
                 (!`OPU_FIELD(head_i, POP_PREV) || has_prev_i) &&
                 (!`OPU_FIELD(head_i, POP_NEXT) || has_next_i);
  assign pop_o = ready;
  assign take_prev_o = ready && `OPU_FIELD(head_i, POP_PREV);
  assign take_next_o = ready && `OPU_FIELD(head_i, POP_NEXT);
  assign give_prev_o = done_i && give_prev;
  assign give_next_o = done_i && give_next;
  assign busy_o = count != 0;

  // The instructions started and not done: their tokens to give, their index.
  opu_fifo #(.WIDTH(opu_pkg::INDEX_BITS + 2), .DEPTH(QD)) u_started (
    .clk_i, .rst_ni, .clear_i(1'b0), .push_i(ready),
    .data_i({`OPU_FIELD(head_i, PUSH_PREV), `OPU_FIELD(head_i, PUSH_NEXT), head_index_i}),
    .pop_i(done_i), .head_o({give_prev, give_next, index}), .empty_o(empty_unused),
    .count_o(count)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      start_o <= 1'b0;
      insn_o <= '0;
      busy_cycles_o <= '0;
      token_cycles_o <= '0;
      dram_cycles_o <= '0;
      retired_o <= '0;
      last_retired_o <= '1;
    end else begin
      start_o <= ready;
      if (ready) insn_o <= head_i;
      if (done_i) begin
        retired_o <= retired_o + 1;
        last_retired_o <= index;
      end
      if (busy_o) busy_cycles_o <= busy_cycles_o + 1;
      if (head_valid_i && room && !ready) token_cycles_o <= token_cycles_o + 1;  // a Fence's too
      if (busy_o && dram_wait_i) dram_cycles_o <= dram_cycles_o + 1;
    end
  end
endmodule
