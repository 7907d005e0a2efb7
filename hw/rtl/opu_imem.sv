// The program memory: the harness writes a step's instruction words before
// `start`; each engine's fetch unit reads its own port, one cycle after the
// address. The ports are packed vectors, engine e's at e (Yosys 0.23
// reads no unpacked-array ports).
module opu_imem
(
  input  logic                 clk_i,
  input  logic                 we_i,
  input  logic [opu_pkg::IMEM_AW-1:0]   waddr_i,
  input  opu_pkg::word_t                wdata_i,
  input  logic [opu_pkg::NUM_ENGINES*opu_pkg::IMEM_AW-1:0]   raddr_i,
  output logic [opu_pkg::NUM_ENGINES*opu_pkg::WORD_BITS-1:0] rdata_o
);
  opu_pkg::word_t mem [2**opu_pkg::IMEM_AW];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    for (int unsigned e = 0; e < opu_pkg::NUM_ENGINES; e++)
      rdata_o[opu_pkg::WORD_BITS*e +: opu_pkg::WORD_BITS] <=
          mem[raddr_i[opu_pkg::IMEM_AW*e +: opu_pkg::IMEM_AW]];
  end
endmodule
