// The accumulator: ENTRIES entries of CO 48-bit lanes. The compute engine's
// two sides (the array, and the post-processing stages) each read and write
// whole entries through a port of their own; the store engine has its own
// read port. Reads return one cycle after the address. The compute engine
// never lets both sides touch one entry at once (opu_compute_engine).
module opu_acc_buffer
(
  input  logic                  clk_i,
  input  logic                  we_i,
  input  logic [opu_pkg::ACC_AW-1:0]     waddr_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_i,
  input  logic [opu_pkg::ACC_AW-1:0]     raddr_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] rdata_o,
  input  logic                  we_b_i,
  input  logic [opu_pkg::ACC_AW-1:0]     waddr_b_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_b_i,
  input  logic [opu_pkg::ACC_AW-1:0]     raddr_b_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] rdata_b_o,
  input  logic [opu_pkg::ACC_AW-1:0]     store_raddr_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata_o
);
  logic [opu_pkg::ENTRY_BITS-1:0] mem [opu_pkg::ACC_ENTRIES];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    if (we_b_i) mem[waddr_b_i] <= wdata_b_i;
    rdata_o <= mem[raddr_i];
    rdata_b_o <= mem[raddr_b_i];
    store_rdata_o <= mem[store_raddr_i];
  end
endmodule
