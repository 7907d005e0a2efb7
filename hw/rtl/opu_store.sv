// The store engine: rows x cols pixels of the accumulator to DRAM, one
// byte per lane (bits 7:0, or 15:8 for an i16's high plane), the first
// `lanes` lanes of each pixel; consecutive pixels are L bytes apart, or
// granules x CO in a compact map. One pixel a cycle while DRAM takes
// them. Writes are beats of L bytes, aligned, with a byte mask: pixels in
// a row that share a beat (a compact map's) are packed into one write, so
// a 32-byte map of 16-lane stores writes a beat per two pixels. A pixel is
// merged into the pending beat, or pushes it to a two-entry queue that
// holds the writes while DRAM is busy. With `upsample` (the upsample
// stage) each pixel is read four times and written as a 2x2 block of the
// doubled map. With `pair` an entry holds two pixels (lanes 0 to CO/2 - 1,
// then CO/2 on), and a pixel starts on a half granule of its beat: where
// both pixels fall in one beat the entry is read once and written as both
// (a pair a cycle), else once for each. With `extra_blocks` each pixel is
// read as 1 + extra_blocks entries, its blocks of CO lanes (CO / 2 of each
// pixel with `pair`, both pixels' blocks read as the pair is; the odd ones
// in the other bank, ACC_BANK1 on or back, the third and fourth
// HALF_BANK further), written to its consecutive bytes: merged into
// one beat, the pixel's whole beat is written once rather than once a
// block. Blocks 0 and 1 (and 2 and 3) lie at one offset of the two banks,
// which the accumulator reads together (acc_rdata2_i): where both fall in
// one beat they are read in one cycle, a twin read. With `to_fm` the same
// writes go to the feature-map buffer (opu_top.sv), a beat its row; where
// its rows are two banks (FM_PAIRS), a pixel from an even entry with a
// next one in its row is read with it (each block of both in one read:
// the even and odd RAMs of the accumulator's banks) and the two rows are
// written in one cycle (wr_pair_o), a fm pair. To DRAM, a pixel of one
// block from an even entry is read with the next in its row where both
// fall in one beat (a DRAM pair), the two merged into it at once.
`include "opu_field.svh"
module opu_store
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic                  dram_wait_o,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata2_i,  // the other bank's, one offset
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata3_i,  // the next entry's, both banks
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata4_i,
  output logic                  wr_valid_o,
  output logic [31:0]           wr_addr_o,           // a beat's first byte
  output logic [opu_pkg::BEAT_BITS-1:0]  wr_data_o,
  output logic [opu_pkg::BEAT_BYTES-1:0] wr_mask_o,
  output logic                  wr_pair_o,           // and the next row (to_fm only)
  output logic [opu_pkg::BEAT_BITS-1:0]  wr_data2_o,  // zero past wr_mask_o's bytes
  input  logic                  wr_ready_i,
  output logic [63:0]           bytes_o
);
  localparam int unsigned HALF = opu_pkg::CO / 2 > 0 ? opu_pkg::CO / 2 : 1;  // a pair's lanes
  localparam int unsigned SLOTS = opu_pkg::L / HALF;  // half granules a beat
  localparam int unsigned SW = SLOTS > 1 ? $clog2(SLOTS) : 1;
  localparam int unsigned BW = opu_pkg::BEAT_BITS + opu_pkg::BEAT_BYTES;  // a beat and its mask
  // Its address, a fm pair's flag, a beat and its mask, the pair's second
  // row (the same mask: its bytes zero past it).
  localparam int unsigned QW = 33 + BW + opu_pkg::BEAT_BITS;
  logic        busy_q, running_q, inflight_q;
  logic [31:0] row_entry_q, entry_q, row_dram_q, dram_q, inflight_addr_q;
  // The row (a Store's rows and cols are 12-bit fields), and whether the
  // next pixel is odd, a pair's second.
  logic [11:0] r_q;
  logic        odd_q;
  logic [31:0] rows, cols, stride, pixel, pixel_step, row_step, copy_addr;
  // A fm pair read now, in flight, and kept over the pixels' blocks.
  logic        fmp, fmp_q, fmp_pix_q, to_fm;
  logic        dp, dp_q;  // a DRAM pair read now, in flight
  logic        up, pair, upper_q, both, both_q, fits_q, more1_q, more2_q;
  // Whether a pair from a DRAM address fits its beat, kept beside dram_q
  // so that the choice takes no adder: its offset in the beat against the
  // room the pixel and its lanes leave.
  localparam int unsigned LW = $clog2(opu_pkg::L);
  logic signed [LW+9:0] room_q, room;
  logic [LW-1:0] off_start, off_next1, off_next2, off_row;
  // Pixels of the row still to read, and whether more than one and two are
  // left: the choice reads flags, never adds or compares.
  logic [11:0] rest_q;
  logic [31:0] dram_next1, dram_next2;
  logic [1:0]  copy_q;  // which of a pixel's 2x2 copies is read next
  // Which of a pixel's blocks is read next, and its entry (block 0's,
  // entry_q, plus the block's offset, in a register ahead of the read).
  // Half a bank, rounded down to a multiple of 4 (OpuBufferUnits::
  // AccHalfBank): blocks 2 and 3 start on even entries, as pairs need.
  localparam int unsigned HALF_BANK = opu_pkg::ACC_BANK1 / 2 >= 4 ?
      opu_pkg::ACC_BANK1 / 2 - opu_pkg::ACC_BANK1 / 2 % 4 : opu_pkg::ACC_BANK1 / 2;
  logic [1:0]  blk_q, extra;
  localparam int unsigned AW = opu_pkg::ACC_AW;
  logic [AW-1:0] raddr_q, blk_next_off;
  logic [31:0] blk_bytes, entry_next, entry_next2, row_entry_next;
  logic        more_blocks;
  // A twin read: blocks blk_q and blk_q + 1 of the pixel together, and
  // whether the pixel's blocks end with it; in flight, the second block's
  // bytes and whether it is the pixel's last.
  logic        twin, twin_ends, twin_q, last2_q;
  logic [8*opu_pkg::CO-1:0] bytes_t;
  logic [opu_pkg::BEAT_BITS-1:0]  px_data3;
  logic [opu_pkg::BEAT_BYTES-1:0] px_mask3;
  logic [1:0]  count;
  logic        empty, issue, accept;
  logic [QW-1:0] head;
  logic [8*opu_pkg::CO-1:0] bytes;
  logic [opu_pkg::CO-1:0]   lane_mask;
  // The pending beat: its address, bytes and mask.
  logic        pend_q;
  logic [31:0] pend_addr_q;
  logic [opu_pkg::BEAT_BITS-1:0]  pend_data_q, px_data, px_data2;
  logic [opu_pkg::BEAT_BYTES-1:0] pend_mask_q, px_mask, px_mask2;
  // A fm pair's second pixel: its bytes, the block read (its row starts a
  // beat: to_fm addresses are L-aligned), its beat and the pending one.
  logic [8*opu_pkg::CO-1:0] bytes_b, bytes_tb;
  logic [1:0]  blk_in_q;
  logic        pend_pair_q;
  logic [opu_pkg::BEAT_BITS-1:0]  pend_data2_q, px_data_b;
  logic [8*HALF-1:0] bytes2;
  logic [8*opu_pkg::CO-1:0] second;  // a pair's second pixel, or a DRAM pair's
  logic [31:0] px_beat;
  logic [SW-1:0] px_slot, px_slot2;
  logic        merge, push, last_push;

  assign rows = 32'(`OPU_FIELD(insn_i, STORE_ROWS));
  assign cols = 32'(`OPU_FIELD(insn_i, STORE_COLS));
  assign stride = 32'(`OPU_FIELD(insn_i, STORE_DRAM_STRIDE));
  assign up = `OPU_FIELD(insn_i, STORE_UPSAMPLE) != 0;
  assign pair = `OPU_FIELD(insn_i, STORE_PAIR) != 0;
  assign pixel = `OPU_FIELD(insn_i, STORE_GRANULES) != 0 ?
                 32'(`OPU_FIELD(insn_i, STORE_GRANULES)) * opu_pkg::CO : 32'(opu_pkg::L);
  assign pixel_step = up ? pixel << 1 : pixel;
  assign row_step = up ? stride << 1 : stride;
  // Upsample and blocks never meet (an error), so the copy's pixel offset
  // and the block's bytes share the adder's one input. A pair's block holds
  // HALF lanes of each pixel.
  assign blk_bytes = pair ? 32'(blk_q) * HALF : 32'(blk_q) * opu_pkg::CO;
  assign copy_addr = dram_q + (copy_q[1] ? stride : '0) + (copy_q[0] ? pixel : blk_bytes);
  // The next pixel's and the next row's first entry, for both entry_q and
  // the read address.
  assign entry_next = entry_q + 1;
  assign entry_next2 = entry_q + 2;
  assign row_entry_next = row_entry_q + 32'(`OPU_FIELD(insn_i, STORE_ACC_PITCH));
  assign extra = 2'(`OPU_FIELD(insn_i, STORE_EXTRA_BLOCKS));
  assign more_blocks = blk_q != extra;
  // Blocks 0 and 1, or 2 and 3, in banks 0 and 1, and the second's bytes
  // in the first's beat (every block starts on a granule).
  assign twin = !up && !pair && !blk_q[0] && more_blocks && 32'(raddr_q) < opu_pkg::ACC_SUMS &&
                32'(LW'(copy_addr)) + 2 * opu_pkg::CO <= opu_pkg::L;
  assign twin_ends = blk_q + 2'd1 == extra;
  // A fm pair: decided at a pixel's block 0 (an even entry of banks 0 and
  // 1 whose next is too, another pixel after it in the row), kept for its
  // other blocks.
  assign to_fm = `OPU_FIELD(insn_i, STORE_TO_FM) != 0;
  assign fmp = opu_pkg::FM_PAIRS > 0 && to_fm && !up && !pair &&
               (blk_q == 2'd0 ? !entry_q[0] && more1_q && 32'(raddr_q) + 1 < opu_pkg::ACC_SUMS
                              : fmp_pix_q);
  // A DRAM pair: one block a pixel, the pair from an even entry of banks
  // 0 and 1 (the next in the other RAM), both in one beat (fits_q: the
  // pixel's offset against the room a pixel and its lanes leave).
  assign dp = !to_fm && !up && !pair && extra == 2'd0 && !entry_q[0] && more1_q &&
              32'(raddr_q) + 1 < opu_pkg::ACC_SUMS && fits_q;
  // Block k + 1's offset: 1 the other bank (ACC_BANK1 on from bank 0,
  // back from bank 1), 2 HALF_BANK, 3 both.
  assign blk_next_off = (blk_q[0] ? AW'(0)
                         : 32'(entry_q) < opu_pkg::ACC_BANK1 ? AW'(opu_pkg::ACC_BANK1)
                                                             : AW'(32'd0 - 32'(opu_pkg::ACC_BANK1))) +
                        (blk_q != 2'd0 ? AW'(HALF_BANK) : AW'(0));
  // Room in the queue next cycle for the pixel read now: counting the one
  // leaving this cycle keeps a pixel a cycle flowing.
  assign issue = running_q && 32'(count) + 32'(inflight_q) < 2 + 32'(accept);
  assign accept = !empty && wr_ready_i;
  // Both pixels of a pair's entry in the beat of the first: one read, one
  // cycle.
  assign dram_next1 = dram_q + pixel_step;
  assign dram_next2 = dram_q + (pixel_step << 1);
  assign both = pair && !up && !odd_q && more1_q && fits_q;
  // (A pair's pixel: HALF lanes a block before its last.)
  assign room = (LW+10)'(opu_pkg::L) - (LW+10)'(pixel) -
                (LW+10)'(`OPU_FIELD(insn_i, STORE_LANES)) - (LW+10)'(32'(extra) * HALF);
  assign off_start = LW'(`OPU_FIELD(insn_i, STORE_DRAM_ADDR));
  assign off_next1 = LW'(dram_q) + LW'(pixel_step);
  assign off_next2 = LW'(dram_q) + LW'(pixel_step << 1);
  assign off_row = LW'(row_dram_q) + LW'(row_step);
  assign acc_raddr_o = 32'(raddr_q);

  always_comb begin
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      bytes[8*j +: 8] = `OPU_FIELD(insn_i, STORE_HIGH_BYTE) ? acc_rdata_i[opu_pkg::ACC_BITS*j+8 +: 8]
                                                           : acc_rdata_i[opu_pkg::ACC_BITS*j +: 8];
      bytes_t[8*j +: 8] = `OPU_FIELD(insn_i, STORE_HIGH_BYTE) ? acc_rdata2_i[opu_pkg::ACC_BITS*j+8 +: 8]
                                                             : acc_rdata2_i[opu_pkg::ACC_BITS*j +: 8];
      bytes_b[8*j +: 8] = `OPU_FIELD(insn_i, STORE_HIGH_BYTE) ? acc_rdata3_i[opu_pkg::ACC_BITS*j+8 +: 8]
                                                             : acc_rdata3_i[opu_pkg::ACC_BITS*j +: 8];
      bytes_tb[8*j +: 8] = `OPU_FIELD(insn_i, STORE_HIGH_BYTE) ? acc_rdata4_i[opu_pkg::ACC_BITS*j+8 +: 8]
                                                              : acc_rdata4_i[opu_pkg::ACC_BITS*j +: 8];
    end
    bytes2 = bytes[8*HALF +: 8*HALF];  // a pair's second pixel
    second = dp_q ? bytes_b : (8*opu_pkg::CO)'(bytes2);
    if (upper_q) bytes = {{(8*(opu_pkg::CO-HALF)){1'b0}}, bytes2};
    // A block before a pixel's last stores all CO lanes, a pair's HALF.
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      lane_mask[j] = last_blk_q ? 32'(j) < 32'(`OPU_FIELD(insn_i, STORE_LANES))
                                : !pair || j < HALF;
    // The pixel's lanes start on a half granule of its beat (codegen's
    // layouts put every block, plane and compact pixel on a granule, and a
    // pair's second half of the channels on a half one); lanes past the
    // beat are never stored.
    px_data = '0;
    px_mask = '0;
    px_data2 = '0;
    px_mask2 = '0;
    px_data3 = '0;
    px_mask3 = '0;
    for (int unsigned k = 0; k < SLOTS; k++) begin
      if (32'(px_slot) == k)
        for (int unsigned j = 0; j < opu_pkg::CO; j++)
          if (HALF * k + j < opu_pkg::L) begin
            // Masked lanes are zero: the beat's bytes are OR'ed together
            // (a pair block's other half lies where its next block goes).
            px_data[8*(HALF*k+j) +: 8] = lane_mask[j] ? bytes[8*j +: 8] : 8'd0;
            px_mask[HALF*k+j] = lane_mask[j];
          end
      // A twin's second block: CO bytes on.
      if (twin_q && 32'(px_slot) + opu_pkg::CO / HALF == k)
        for (int unsigned j = 0; j < opu_pkg::CO; j++)
          if (HALF * k + j < opu_pkg::L) begin
            px_data3[8*(HALF*k+j) +: 8] = bytes_t[8*j +: 8];
            px_mask3[HALF*k+j] = last2_q ? 32'(j) < 32'(`OPU_FIELD(insn_i, STORE_LANES)) : 1'b1;
          end
      if ((both_q || dp_q) && 32'(px_slot2) == k)
        for (int unsigned j = 0; j < opu_pkg::CO; j++)
          if (HALF * k + j < opu_pkg::L) begin
            if (dp_q || j < HALF) begin
              px_data2[8*(HALF*k+j) +: 8] = lane_mask[j] ? second[8*j +: 8] : 8'd0;
              px_mask2[HALF*k+j] = lane_mask[j];
            end
          end
    end
    px_data = px_data | px_data2 | px_data3;
    px_mask = px_mask | px_mask2 | px_mask3;
    // A fm pair's second pixel: where the first's bytes go, its block read
    // (block blk_in_q from CO x blk_in_q on) or a twin's second after it.
    for (int unsigned b = 0; b < opu_pkg::BEAT_BYTES; b++)
      px_data_b[8*b +: 8] = !fmp_q || !px_mask[b] ? 8'd0
                          : 32'(blk_in_q) == b / opu_pkg::CO ? bytes_b[8*(b % opu_pkg::CO) +: 8]
                                                             : bytes_tb[8*(b % opu_pkg::CO) +: 8];
  end
  assign px_beat = inflight_addr_q & ~32'(opu_pkg::L - 1);
  assign px_slot = SW'((inflight_addr_q & 32'(opu_pkg::L - 1)) / HALF);
  // The second pixel's slot, worked out a cycle early from the address it
  // reads.
  logic [SW-1:0] slot2_q;
  logic [8:0]    added_q;
  logic          last_blk_q;  // the entry in flight is its pixel's last block
  assign px_slot2 = slot2_q;
  assign merge = inflight_q && pend_q && px_beat == pend_addr_q;
  // The pending beat goes when a pixel of another beat comes, or, the
  // last pixel read, when the queue has room.
  assign last_push = pend_q && !running_q && !inflight_q && count < 2;
  assign push = (inflight_q && pend_q && !merge) || last_push;

  opu_fifo #(.WIDTH(QW), .DEPTH(2)) u_pending (
    .clk_i, .rst_ni, .clear_i(1'b0),
    .push_i(push),
    .data_i({pend_addr_q, pend_pair_q, pend_data2_q, pend_data_q, pend_mask_q}),
    .pop_i(accept), .head_o(head), .empty_o(empty), .count_o(count)
  );
  assign wr_valid_o = !empty;
  assign wr_addr_o = head[QW-1 -: 32];
  assign wr_pair_o = head[BW + opu_pkg::BEAT_BITS];
  assign wr_data2_o = head[BW +: opu_pkg::BEAT_BITS];
  assign wr_data_o = head[opu_pkg::BEAT_BYTES +: opu_pkg::BEAT_BITS];
  assign wr_mask_o = head[opu_pkg::BEAT_BYTES-1:0];
  assign dram_wait_o = !empty && !wr_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {busy_q, running_q, inflight_q, done_o} <= '0;
      {r_q, odd_q, row_entry_q, entry_q, row_dram_q, dram_q, inflight_addr_q} <= '0;
      copy_q <= '0;
      {blk_q, raddr_q, last_blk_q, twin_q, last2_q} <= '0;
      upper_q <= 1'b0;
      both_q <= 1'b0;
      dp_q <= 1'b0;
      {fits_q, room_q, rest_q, more1_q, more2_q, slot2_q, added_q} <= '0;
      bytes_o <= '0;
      {pend_q, pend_addr_q, pend_data_q, pend_mask_q} <= '0;
      {fmp_q, fmp_pix_q, blk_in_q, pend_pair_q, pend_data2_q} <= '0;
    end else begin
      done_o <= 1'b0;
      inflight_q <= issue;
      inflight_addr_q <= copy_addr;
      slot2_q <= SW'(((copy_addr & 32'(opu_pkg::L - 1)) + pixel) / HALF);
      upper_q <= pair && odd_q;
      last_blk_q <= !more_blocks;  // (a twin's first block never is)
      twin_q <= issue && twin;
      last2_q <= twin_ends;
      both_q <= issue && both;
      dp_q <= issue && dp;
      fmp_q <= issue && fmp;
      blk_in_q <= blk_q;
      if (issue) fmp_pix_q <= fmp;
      // The bytes of the pixels read a cycle before, chosen then: the
      // 64-bit sum takes a register, not a choice.
      added_q <= issue && (both || dp) ? (more_blocks ? 9'(opu_pkg::CO)
                                              : 9'(`OPU_FIELD(insn_i, STORE_LANES)) << 1)
               : issue && twin ? 9'(opu_pkg::CO) + (twin_ends ? 9'(`OPU_FIELD(insn_i, STORE_LANES))
                                                              : 9'(opu_pkg::CO))
               : more_blocks ? (pair ? 9'(HALF) : 9'(opu_pkg::CO))
                             : 9'(`OPU_FIELD(insn_i, STORE_LANES));
      // DRAM's bytes only (to_fm writes the feature-map buffer).
      if (inflight_q && `OPU_FIELD(insn_i, STORE_TO_FM) == 0) bytes_o <= bytes_o + 64'(added_q);
      if (merge) begin
        pend_data_q <= pend_data_q | px_data;
        pend_mask_q <= pend_mask_q | px_mask;
        pend_data2_q <= pend_data2_q | px_data_b;
      end else if (inflight_q) begin
        pend_q <= 1'b1;
        pend_addr_q <= px_beat;
        pend_data_q <= px_data;
        pend_mask_q <= px_mask;
        pend_pair_q <= fmp_q;
        pend_data2_q <= px_data_b;
      end else if (last_push) begin
        pend_q <= 1'b0;
      end
      // Done once every pixel is read and written: nothing in flight,
      // pending or queued.
      if (busy_q && !start_i && !running_q && !inflight_q && !pend_q && empty) begin
        busy_q <= 1'b0;
        done_o <= 1'b1;
      end
      if (start_i) begin
        busy_q <= 1'b1;
        running_q <= rows != 0 && cols != 0;
        r_q <= '0;
        odd_q <= 1'b0;
        copy_q <= '0;
        blk_q <= '0;
        raddr_q <= AW'(`OPU_FIELD(insn_i, STORE_ACC_ADDR));
        row_entry_q <= 32'(`OPU_FIELD(insn_i, STORE_ACC_ADDR));
        entry_q <= 32'(`OPU_FIELD(insn_i, STORE_ACC_ADDR));
        row_dram_q <= `OPU_FIELD(insn_i, STORE_DRAM_ADDR);
        dram_q <= `OPU_FIELD(insn_i, STORE_DRAM_ADDR);
        room_q <= room;
        rest_q <= 12'(cols);
        more1_q <= cols > 32'd1;
        more2_q <= cols > 32'd2;
        fits_q <= $signed({10'd0, off_start}) <= room;
      end else if (issue) begin
        if (up && copy_q != 2'd3) begin
          copy_q <= copy_q + 2'd1;
        end else if (twin && !twin_ends) begin  // on to block 2, HALF_BANK on
          blk_q <= blk_q + 2'd2;
          raddr_q <= AW'(entry_q) + AW'(HALF_BANK);
        end else if (more_blocks && !twin) begin
          blk_q <= blk_q + 2'd1;
          raddr_q <= AW'(entry_q) + blk_next_off;
        end else if (both || fmp || dp ? more2_q : more1_q) begin
          blk_q <= '0;
          copy_q <= '0;
          odd_q <= both || fmp || dp ? odd_q : !odd_q;
          rest_q <= both || fmp || dp ? rest_q - 12'd2 : rest_q - 12'd1;
          more1_q <= both || fmp || dp ? rest_q > 12'd3 : rest_q > 12'd2;
          more2_q <= both || fmp || dp ? rest_q > 12'd4 : rest_q > 12'd3;
          // A pair's entry: both pixels read; a fm pair's or DRAM pair's
          // two entries.
          if (fmp || dp) begin
            entry_q <= entry_next2;
            raddr_q <= AW'(entry_next2);
          end else if (!pair || odd_q || both) begin
            entry_q <= entry_next;
            raddr_q <= AW'(entry_next);
          end else begin
            raddr_q <= AW'(entry_q);
          end
          dram_q <= both || fmp || dp ? dram_next2 : dram_next1;
          fits_q <= $signed({10'd0, both || fmp || dp ? off_next2 : off_next1}) <= room_q;
        end else begin
          copy_q <= '0;
          blk_q <= '0;
          odd_q <= 1'b0;
          rest_q <= 12'(cols);
          more1_q <= cols > 32'd1;
          more2_q <= cols > 32'd2;
          r_q <= r_q + 12'd1;
          row_entry_q <= row_entry_next;
          entry_q <= row_entry_next;
          raddr_q <= AW'(row_entry_next);
          row_dram_q <= row_dram_q + row_step;
          dram_q <= row_dram_q + row_step;
          fits_q <= $signed({10'd0, off_row}) <= room_q;
          if (32'(r_q) + 1 == rows) running_q <= 1'b0;
        end
      end
    end
  end

endmodule
