// The accumulator: ACC_ENTRIES entries of CO 48-bit lanes. The compute
// engine's two sides (the array, and the post-processing stages) each read
// and write whole entries through a port of their own; the store engine has
// its own read port. Reads return one cycle after the address.
//
// Three banks: [0, ACC_BANK1) and [ACC_BANK1, ACC_SUMS) for codegen's two
// halves, whose tiles alternate, and [ACC_SUMS, ACC_ENTRIES) for a global
// pool's sums. The compute engine never lets both sides touch one bank at
// once (opu_compute_engine), so a bank has one side's reads and writes at a
// time: its write ports take whichever side writes it, its read ports serve
// the post side in the banks `post_banks_i` names and the array in the
// others. Banks 0 and 1 are each two block RAMs of one write and one read
// port (opu_sdp_ram.sv), their even and odd entries, so that a side writes
// a pair of entries e and e + 1 (e even) in one cycle (the array's we2_i:
// wdata2_i at waddr2_i, e + 1, or in block pairs the other bank's entry
// at e's offset; the post side's we_b2_i at waddr_b_i + 1), and the
// post side reads one (rdata_b2_o: raddr_b_i + 1); bank 2 is one. A third post-side port writes a 2x2 pool tail's pooled entry into
// a RAM the other two leave alone that cycle. The store reads only an entry's low 16 bits a lane (opu_store),
// from a copy of those beside each RAM: banks 0 and 1 at one offset, so
// that a pixel's blocks k and k + 1 (the odd ones in the other bank,
// Store.extra_blocks) come out together (store_rdata_o, store_rdata2_o),
// and from an even entry the next pixel's too (its odd RAMs:
// store_rdata3_o, store_rdata4_o).
// A read sees the writes of earlier cycles, not the one in its own cycle.
module opu_acc_buffer
(
  input  logic                  clk_i,
  input  logic                  we_i,
  input  logic [opu_pkg::ACC_AW-1:0]     waddr_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_i,
  input  logic                  we2_i,     // and wdata2_i at waddr2_i, in another RAM
  input  logic [opu_pkg::ACC_AW-1:0]     waddr2_i,  // of banks 0 and 1 than waddr_i's, in its
                                                    // row, and only with we_i (wrow below)
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata2_i,
  input  logic [opu_pkg::ACC_AW-1:0]     raddr_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] rdata_o,
  input  logic                  we_b_i,
  input  logic [opu_pkg::ACC_AW-1:0]     waddr_b_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_b_i,
  input  logic                  we_b2_i,   // and wdata_b2_i at waddr_b_i + 1
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_b2_i,
  input  logic                  we_pool_i,     // and wdata_pool_i at waddr_pool_i, a RAM
  input  logic [opu_pkg::ACC_AW-1:0]     waddr_pool_i,  // the post side's others do not
  input  logic [opu_pkg::ENTRY_BITS-1:0] wdata_pool_i,  // write (opu_pool_tail)
  input  logic [opu_pkg::ACC_AW-1:0]     raddr_b_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] rdata_b_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] rdata_b2_o,  // raddr_b_i + 1's (raddr_b_i even)
  input  logic [2:0]            post_banks_i,  // banks the post side holds
  input  logic [opu_pkg::ACC_AW-1:0]     store_raddr_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata2_o,  // the other of banks 0 and 1's
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata3_o,  // store_raddr_i + 1's (even, banks 0, 1)
  output logic [opu_pkg::ENTRY_BITS-1:0] store_rdata4_o   // and the other bank's at that offset
);
  localparam int unsigned EB = opu_pkg::ENTRY_BITS;
  localparam int unsigned LOW_BITS = opu_pkg::CO * 16;  // what the store reads of an entry
  localparam int unsigned AW = opu_pkg::ACC_AW;
  // RAM k: bank k / 2's even (k even) or odd entries for k < 4, bank 2 for k = 4.
  localparam int unsigned RAMS = 5;

  function automatic logic [1:0] bank_of(input logic [AW-1:0] a);
    bank_of = 32'(a) < opu_pkg::ACC_BANK1 ? 2'd0 : 32'(a) < opu_pkg::ACC_SUMS ? 2'd1 : 2'd2;
  endfunction
  // Entry a's RAM.
  function automatic logic [2:0] ram_of(input logic [AW-1:0] a);
    logic [1:0] b;
    b = bank_of(a);
    ram_of = b == 2'd2 ? 3'd4 : {b, a[0]};
  endfunction
  // Entry a's row in its RAM: a / 2 from the bank's first in banks 0 and 1
  // (ACC_BANK1 is even, so a pair's two rows and a block's in the other
  // bank are one row), a's offset in bank 2.
  function automatic logic [AW-1:0] row_of(input logic [AW-1:0] a);
    logic [1:0] b;
    b = bank_of(a);
    row_of = b == 2'd2 ? AW'(32'(a) - opu_pkg::ACC_SUMS)
           : b == 2'd1 ? AW'((32'(a) >> 1) - opu_pkg::ACC_BANK1 / 2) : AW'(32'(a) >> 1);
  endfunction

  logic [2:0] a_ram_q, b_ram_q, store_ram_q;
  logic [RAMS*EB-1:0] entries;
  logic [RAMS*LOW_BITS-1:0] lows;
  logic [LOW_BITS-1:0] store_low, store_low2, store_low3, store_low4;
  // A row's bits in the deepest RAM: bank 1's even entries at most, or bank 2.
  localparam int unsigned HALF1 = (opu_pkg::ACC_SUMS - opu_pkg::ACC_BANK1 + 1) / 2;
  localparam int unsigned SUMS_DEPTH = opu_pkg::ACC_ENTRIES - opu_pkg::ACC_SUMS;
  localparam int unsigned ROWS_MAX = (opu_pkg::ACC_BANK1 + 1) / 2 > HALF1 ?
      ((opu_pkg::ACC_BANK1 + 1) / 2 > SUMS_DEPTH ? (opu_pkg::ACC_BANK1 + 1) / 2 : SUMS_DEPTH) :
      (HALF1 > SUMS_DEPTH ? HALF1 : SUMS_DEPTH);
  localparam int unsigned ROW_W = ROWS_MAX > 1 ? $clog2(ROWS_MAX) : 1;
  logic [ROW_W-1:0] store_row;
  assign store_row = ROW_W'(row_of(store_raddr_i));

  for (genvar k = 0; k < RAMS; k++) begin : g_ram
    localparam int unsigned BANK = k < 4 ? k / 2 : 2;
    localparam int unsigned FIRST = BANK == 0 ? 0 : BANK == 1 ? opu_pkg::ACC_BANK1 : opu_pkg::ACC_SUMS;
    localparam int unsigned LAST = BANK == 0 ? opu_pkg::ACC_BANK1 :
                                   BANK == 1 ? opu_pkg::ACC_SUMS : opu_pkg::ACC_ENTRIES;
    localparam int unsigned DEPTH = k == 4 ? LAST - FIRST : (LAST - FIRST + 1 - k % 2) / 2;
    localparam int unsigned RW = DEPTH > 1 ? $clog2(DEPTH) : 1;
    logic a1, a2, b1, b2, b3, we, from_b;
    logic [EB-1:0] wdata;
    logic [LOW_BITS-1:0] wlow;
    logic [RW-1:0] wrow, rrow;
    // Each side's first port, or its second entry (the post side's: odd RAMs).
    assign a1 = we_i && ram_of(waddr_i) == 3'(k);
    assign a2 = k < 4 && we2_i && ram_of(waddr2_i) == 3'(k);
    assign b1 = we_b_i && ram_of(waddr_b_i) == 3'(k);
    assign b2 = k < 4 && k % 2 == 1 && we_b2_i && bank_of(waddr_b_i) == 2'(BANK);
    // A pooled entry, into a RAM the post side's first two ports leave
    // alone that cycle; its address comes from a register.
    assign b3 = we_pool_i && ram_of(waddr_pool_i) == 3'(k);
    // Never both sides in one bank; were they to write it at once, the
    // post side's write is the one kept.
    assign from_b = b1 || b2 || b3;
    assign we = from_b || a1 || a2;
    assign wdata = b3 ? wdata_pool_i : from_b ? (b2 ? wdata_b2_i : wdata_b_i)
                                            : (a2 ? wdata2_i : wdata_i);
    // The array's second entry shares its first's row (e + 1 with e even,
    // or e's offset in the other bank: ACC_BANK1 is even), and comes only with it.
    assign wrow = RW'(row_of(b3 ? waddr_pool_i : from_b ? waddr_b_i : waddr_i));
    assign rrow = RW'(row_of(post_banks_i[BANK] ? raddr_b_i : raddr_i));
    always_comb
      for (int unsigned j = 0; j < opu_pkg::CO; j++)
        wlow[16*j +: 16] = wdata[opu_pkg::ACC_BITS*j +: 16];
    opu_sdp_ram #(.WIDTH(EB), .DEPTH(DEPTH)) u_entries (
      .clk_i, .we_i(we), .waddr_i(wrow), .wdata_i(wdata), .raddr_i(rrow),
      .rdata_o(entries[EB*k +: EB]));
    opu_sdp_ram #(.WIDTH(LOW_BITS), .DEPTH(DEPTH)) u_low (
      .clk_i, .we_i(we), .waddr_i(wrow), .wdata_i(wlow), .raddr_i(RW'(store_row)),
      .rdata_o(lows[LOW_BITS*k +: LOW_BITS]));
  end

  always_ff @(posedge clk_i) begin
    a_ram_q <= ram_of(raddr_i);
    b_ram_q <= ram_of(raddr_b_i);
    store_ram_q <= ram_of(store_raddr_i);
  end

  // Each a choice among the RAMs by number, not an indexed part select:
  // Yosys computes the index's bit offset (a multiply by the entry's width)
  // with an adder before its multiplexer (docs/rtl.md, Timing budget).
  function automatic logic [EB-1:0] entry_of(input logic [2:0] k, input logic [RAMS*EB-1:0] e);
    entry_of = k == 3'd0 ? e[0 +: EB] : k == 3'd1 ? e[EB +: EB] : k == 3'd2 ? e[2*EB +: EB]
             : k == 3'd3 ? e[3*EB +: EB] : e[4*EB +: EB];
  endfunction
  function automatic logic [LOW_BITS-1:0] low_of(input logic [2:0] k,
                                                 input logic [RAMS*LOW_BITS-1:0] e);
    low_of = k == 3'd0 ? e[0 +: LOW_BITS] : k == 3'd1 ? e[LOW_BITS +: LOW_BITS]
           : k == 3'd2 ? e[2*LOW_BITS +: LOW_BITS] : k == 3'd3 ? e[3*LOW_BITS +: LOW_BITS]
           : e[4*LOW_BITS +: LOW_BITS];
  endfunction
  assign rdata_o = entry_of(a_ram_q, entries);
  assign rdata_b_o = entry_of(b_ram_q, entries);
  // The odd RAM of raddr_b_i's bank (1 or 3).
  assign rdata_b2_o = b_ram_q[1] ? entries[3*EB +: EB] : entries[EB +: EB];
  assign store_low = low_of(store_ram_q, lows);
  // The same parity in the other of banks 0 and 1.
  assign store_low2 = low_of(store_ram_q ^ 3'd2, lows);
  // The odd RAMs of banks 0 and 1 (1 and 3): entry + 1's row is an even
  // entry's; a fm pair's first entry is in bank 0 or 1 (opu_store).
  assign store_low3 = store_ram_q[1] ? lows[3*LOW_BITS +: LOW_BITS] : lows[LOW_BITS +: LOW_BITS];
  assign store_low4 = store_ram_q[1] ? lows[LOW_BITS +: LOW_BITS] : lows[3*LOW_BITS +: LOW_BITS];
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      store_rdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low[16*j +: 16]};
      store_rdata2_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low2[16*j +: 16]};
      store_rdata3_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low3[16*j +: 16]};
      store_rdata4_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = {32'd0, store_low4[16*j +: 16]};
    end
endmodule
