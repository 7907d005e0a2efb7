// The program memory: the harness writes a step's instruction words before
// `start`; each engine's fetch unit reads its own port, one cycle after the
// address.
module opu_imem
  import opu_pkg::*;
(
  input  logic                 clk_i,
  input  logic                 we_i,
  input  logic [IMEM_AW-1:0]   waddr_i,
  input  word_t                wdata_i,
  input  logic [IMEM_AW-1:0]   raddr_i [NUM_ENGINES],
  output word_t                rdata_o [NUM_ENGINES]
);
  word_t mem [2**IMEM_AW];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    for (int unsigned e = 0; e < NUM_ENGINES; e++) rdata_o[e] <= mem[raddr_i[e]];
  end
endmodule
