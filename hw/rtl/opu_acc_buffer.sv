// The accumulator: ACC_ENTRIES entries of CO 48-bit lanes. The compute
// engine's two sides (the array, and the post-processing stages) each read
// and write whole entries through a port of their own; the store engine has
// its own read port. Reads return one cycle after the address.
//
// Three banks, each a block RAM of one write and one read port
// (opu_sdp_ram.sv): [0, ACC_BANK1) and [ACC_BANK1, ACC_SUMS) for codegen's
// two halves, whose tiles alternate, and [ACC_SUMS, ACC_ENTRIES) for a
// global pool's sums. The compute engine never lets both sides touch one
// bank at once (opu_compute_engine), so a bank has one side's reads and
// writes at a time: its write port takes whichever side writes it, its read
// port serves the post side in the banks `post_banks_i` names and the array
// in the others. The store reads only an entry's low 16 bits a lane
// (opu_store), from a copy of those in each bank written beside it: banks 0
// and 1 at one offset, so that a pixel's blocks k and k + 1 (the odd ones
// in the other bank, Store.extra_blocks) come out together (store_rdata_o,
// store_rdata2_o). A read sees the writes of earlier cycles, not the one in
// its own cycle.
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
  input  logic [2:0]            post_banks_i,  // banks the post side holds
  input  logic [opu_pkg::ACC_AW-1:0]     store_raddr_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata2_o  // the other of banks 0 and 1's
);
  localparam int unsigned LOW_BITS = opu_pkg::CO * 16;  // what the store reads of an entry
  localparam int unsigned BANKS = 3;

  function automatic logic [1:0] bank_of(input logic [opu_pkg::ACC_AW-1:0] a);
    bank_of = 32'(a) < opu_pkg::ACC_BANK1 ? 2'd0 : 32'(a) < opu_pkg::ACC_SUMS ? 2'd1 : 2'd2;
  endfunction

  logic [1:0] a_bank_q, b_bank_q, store_bank_q;
  logic [BANKS*opu_pkg::ENTRY_BITS-1:0] entries;
  logic [BANKS*LOW_BITS-1:0] lows;
  logic [LOW_BITS-1:0] a_low, b_low, store_low, store_low2;
  // The store's offset in banks 0 and 1 (both read it), and in bank 2.
  localparam int unsigned OFF_W = opu_pkg::ACC_BANK1 > 1 ? $clog2(opu_pkg::ACC_BANK1) : 1;
  logic [OFF_W-1:0] store_off01;
  assign store_off01 = OFF_W'(32'(store_raddr_i) < opu_pkg::ACC_BANK1
                                  ? 32'(store_raddr_i) : 32'(store_raddr_i) - opu_pkg::ACC_BANK1);

  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      a_low[16*j +: 16] = wdata_i[opu_pkg::ACC_BITS*j +: 16];
      b_low[16*j +: 16] = wdata_b_i[opu_pkg::ACC_BITS*j +: 16];
    end

  for (genvar b = 0; b < BANKS; b++) begin : g_bank
    localparam int unsigned BASE = b == 0 ? 0 : b == 1 ? opu_pkg::ACC_BANK1 : opu_pkg::ACC_SUMS;
    localparam int unsigned LAST = b == 0 ? opu_pkg::ACC_BANK1 :
                                   b == 1 ? opu_pkg::ACC_SUMS : opu_pkg::ACC_ENTRIES;
    localparam int unsigned DEPTH = LAST - BASE;
    localparam int unsigned AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
    logic we, from_b;
    logic [AW-1:0] waddr, raddr, store_raddr;
    logic [opu_pkg::ENTRY_BITS-1:0] wdata;
    logic [LOW_BITS-1:0] wlow;
    // Never both sides in one bank; were they to write it at once, the
    // post side's write is the one kept.
    assign from_b = we_b_i && bank_of(waddr_b_i) == 2'(b);
    assign we = from_b || (we_i && bank_of(waddr_i) == 2'(b));
    assign waddr = AW'((from_b ? 32'(waddr_b_i) : 32'(waddr_i)) - BASE);
    assign wdata = from_b ? wdata_b_i : wdata_i;
    assign wlow = from_b ? b_low : a_low;
    assign raddr = AW'((post_banks_i[b] ? 32'(raddr_b_i) : 32'(raddr_i)) - BASE);
    assign store_raddr = b == 2 ? AW'(32'(store_raddr_i) - BASE) : AW'(store_off01);
    opu_sdp_ram #(.WIDTH(opu_pkg::ENTRY_BITS), .DEPTH(DEPTH)) u_entries (
      .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .raddr_i(raddr),
      .rdata_o(entries[opu_pkg::ENTRY_BITS*b +: opu_pkg::ENTRY_BITS]));
    opu_sdp_ram #(.WIDTH(LOW_BITS), .DEPTH(DEPTH)) u_low (
      .clk_i, .we_i(we), .waddr_i(waddr), .wdata_i(wlow), .raddr_i(store_raddr),
      .rdata_o(lows[LOW_BITS*b +: LOW_BITS]));
  end

  always_ff @(posedge clk_i) begin
    a_bank_q <= bank_of(raddr_i);
    b_bank_q <= bank_of(raddr_b_i);
    store_bank_q <= bank_of(store_raddr_i);
  end

  // Each a three-way choice by a bank number, not an indexed part select:
  // Yosys computes the index's bit offset (a multiply by the entry's width)
  // with an adder before its multiplexer (docs/rtl.md, Timing budget).
  assign rdata_o = a_bank_q == 2'd0 ? entries[0 +: opu_pkg::ENTRY_BITS]
                 : a_bank_q == 2'd1 ? entries[opu_pkg::ENTRY_BITS +: opu_pkg::ENTRY_BITS]
                                    : entries[2*opu_pkg::ENTRY_BITS +: opu_pkg::ENTRY_BITS];
  assign rdata_b_o = b_bank_q == 2'd0 ? entries[0 +: opu_pkg::ENTRY_BITS]
                   : b_bank_q == 2'd1 ? entries[opu_pkg::ENTRY_BITS +: opu_pkg::ENTRY_BITS]
                                      : entries[2*opu_pkg::ENTRY_BITS +: opu_pkg::ENTRY_BITS];
  assign store_low = store_bank_q == 2'd0 ? lows[0 +: LOW_BITS]
                   : store_bank_q == 2'd1 ? lows[LOW_BITS +: LOW_BITS]
                                          : lows[2*LOW_BITS +: LOW_BITS];
  assign store_low2 = store_bank_q == 2'd0 ? lows[LOW_BITS +: LOW_BITS] : lows[0 +: LOW_BITS];
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      store_rdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low[16*j +: 16]};
      store_rdata2_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low2[16*j +: 16]};
    end
endmodule
