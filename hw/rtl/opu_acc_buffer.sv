// The accumulator: ENTRIES entries of CO 48-bit lanes. The compute engine
// reads and writes whole entries; the store engine has its own read port.
// Reads return one cycle after the address.
module opu_acc_buffer
  import opu_pkg::*;
(
  input  logic                  clk_i,
  input  logic                  we_i,
  input  logic [ACC_AW-1:0]     waddr_i,
  input  logic [ENTRY_BITS-1:0] wdata_i,
  input  logic [ACC_AW-1:0]     raddr_i,
  output logic [ENTRY_BITS-1:0] rdata_o,
  input  logic [ACC_AW-1:0]     store_raddr_i,
  output logic [ENTRY_BITS-1:0] store_rdata_o
);
  logic [ENTRY_BITS-1:0] mem [opuc_cfg_pkg::ACC_ENTRIES];

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_o <= mem[raddr_i];
    store_rdata_o <= mem[store_raddr_i];
  end
endmodule
