// The shell around one engine's unit: takes the next instruction of its
// queue once the tokens it waits for are there, starts the unit, gives its
// tokens when the unit is done, and counts what it spent its cycles on.
`include "opu_field.svh"
module opu_engine
(
  input  logic    clk_i,
  input  logic    rst_ni,
  input  logic    head_valid_i,
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
  output opu_pkg::word_t   insn_o,
  input  logic    done_i,       // one cycle: the unit finished insn_o
  input  logic    dram_wait_i,  // the unit waits for DRAM this cycle
  output logic    busy_o,
  output logic [63:0] busy_cycles_o,
  output logic [63:0] token_cycles_o,
  output logic [63:0] dram_cycles_o,
  output logic [63:0] retired_o,
  output opu_pkg::index_t  last_retired_o
);
  logic   busy_q;
  opu_pkg::index_t index_q;
  logic   ready;

  assign ready = head_valid_i && !busy_q &&
                 (!`OPU_FIELD(head_i, POP_PREV) || has_prev_i) &&
                 (!`OPU_FIELD(head_i, POP_NEXT) || has_next_i);
  assign pop_o = ready;
  assign take_prev_o = ready && `OPU_FIELD(head_i, POP_PREV);
  assign take_next_o = ready && `OPU_FIELD(head_i, POP_NEXT);
  assign give_prev_o = done_i && `OPU_FIELD(insn_o, PUSH_PREV);
  assign give_next_o = done_i && `OPU_FIELD(insn_o, PUSH_NEXT);
  assign busy_o = busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      start_o <= 1'b0;
      insn_o <= '0;
      index_q <= '0;
      busy_cycles_o <= '0;
      token_cycles_o <= '0;
      dram_cycles_o <= '0;
      retired_o <= '0;
      last_retired_o <= '1;
    end else begin
      start_o <= ready;
      if (ready) begin
        busy_q <= 1'b1;
        insn_o <= head_i;
        index_q <= head_index_i;
      end else if (done_i) begin
        busy_q <= 1'b0;
        retired_o <= retired_o + 1;
        last_retired_o <= index_q;
      end
      if (busy_q) busy_cycles_o <= busy_cycles_o + 1;
      if (head_valid_i && !busy_q && !ready) token_cycles_o <= token_cycles_o + 1;
      if (busy_q && dram_wait_i) dram_cycles_o <= dram_cycles_o + 1;
    end
  end
endmodule
