// The accumulator: ENTRIES entries of CO 48-bit lanes. The compute engine's
// two sides (the array, and the post-processing stages) each read and write
// whole entries through a port of their own; the store engine has its own
// read port. Reads return one cycle after the address. The compute engine
// never lets both sides touch one entry at once (opu_compute_engine).
//
// Two writes and three reads a cycle have no block RAM form (a block RAM
// has two ports), so the accumulator is built from block RAMs of one write
// and one read port each, a live-value table choosing among them (LaForest
// and Steffan, "Efficient multi-ported memories for FPGAs", FPGA 2010): each
// writer has its own copy per reader, and a bit per entry (registers) says
// which writer wrote it last. The store reads only an entry's low 16 bits a
// lane (opu_store), so its two copies hold those alone. The timing is the
// multi-port memory's: a read sees the writes of earlier cycles, not the
// one in its own cycle.
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
  localparam int unsigned LOW_BITS = opu_pkg::CO * 16;  // what the store reads of an entry
  // The live-value table: 1 where the post side wrote the entry last.
  logic [opu_pkg::ACC_ENTRIES-1:0] post_wrote_q;
  logic from_b, from_b_b, from_b_store;
  logic [opu_pkg::ENTRY_BITS-1:0] a_to_a, b_to_a, a_to_b, b_to_b;
  logic [LOW_BITS-1:0] a_to_store, b_to_store, a_low, b_low;

  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      a_low[16*j +: 16] = wdata_i[opu_pkg::ACC_BITS*j +: 16];
      b_low[16*j +: 16] = wdata_b_i[opu_pkg::ACC_BITS*j +: 16];
    end

  // Copies written by the array's port (a) and by the post side's (b), one
  // for each reader.
  opu_sdp_ram #(.WIDTH(opu_pkg::ENTRY_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_a_to_a (
    .clk_i, .we_i, .waddr_i, .wdata_i, .raddr_i, .rdata_o(a_to_a));
  opu_sdp_ram #(.WIDTH(opu_pkg::ENTRY_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_a_to_b (
    .clk_i, .we_i, .waddr_i, .wdata_i, .raddr_i(raddr_b_i), .rdata_o(a_to_b));
  opu_sdp_ram #(.WIDTH(LOW_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_a_to_store (
    .clk_i, .we_i, .waddr_i, .wdata_i(a_low), .raddr_i(store_raddr_i), .rdata_o(a_to_store));
  opu_sdp_ram #(.WIDTH(opu_pkg::ENTRY_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_b_to_a (
    .clk_i, .we_i(we_b_i), .waddr_i(waddr_b_i), .wdata_i(wdata_b_i), .raddr_i,
    .rdata_o(b_to_a));
  opu_sdp_ram #(.WIDTH(opu_pkg::ENTRY_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_b_to_b (
    .clk_i, .we_i(we_b_i), .waddr_i(waddr_b_i), .wdata_i(wdata_b_i), .raddr_i(raddr_b_i),
    .rdata_o(b_to_b));
  opu_sdp_ram #(.WIDTH(LOW_BITS), .DEPTH(opu_pkg::ACC_ENTRIES)) u_b_to_store (
    .clk_i, .we_i(we_b_i), .waddr_i(waddr_b_i), .wdata_i(b_low), .raddr_i(store_raddr_i),
    .rdata_o(b_to_store));

  // Both sides never write one entry in a cycle; were they to, the post
  // side's write is the one kept, as in the copies it reads.
  always_ff @(posedge clk_i) begin
    if (we_i) post_wrote_q[waddr_i] <= 1'b0;
    if (we_b_i) post_wrote_q[waddr_b_i] <= 1'b1;
    from_b <= post_wrote_q[raddr_i];
    from_b_b <= post_wrote_q[raddr_b_i];
    from_b_store <= post_wrote_q[store_raddr_i];
  end

  assign rdata_o = from_b ? b_to_a : a_to_a;
  assign rdata_b_o = from_b_b ? b_to_b : a_to_b;
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      store_rdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
          {32'd0, from_b_store ? b_to_store[16*j +: 16] : a_to_store[16*j +: 16]};
endmodule

