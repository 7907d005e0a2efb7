// Gemm: one kernel tap over a tile. Pixel by pixel, one a cycle: read the
// pixel's feature-map row; its sums leave the array's pipeline IPA_STAGES
// cycles later (opu_ipa), when the accumulator entry, read two cycles
// before and registered, is there too; then write back start + sum (x 256 for the high bytes of an
// i16 in two passes; operand I16 takes the low bytes from the row after the
// pixel's, the feature-map buffer's other bank), where start is the entry
// (accumulate), the param row's biases, or zero. The weight and param rows
// are read once, from the instruction's fields. A pixel's entry is written
// D = IPA_STAGES + 1 cycles after it issues; each Gemm writes distinct
// entries.
// Gemms back to back: the one before says in the cycle it issues its last
// pixel that it takes a start (accept_o); the next Gemm starts the cycle
// after and issues its first pixel the cycle after that, while the one
// before's pixels are still in the array's pipeline. So each pixel carries
// what its write needs of its Gemm (init, the high bytes' shift, a pair's
// second entry, which Gemm's param row) and whether it is its Gemm's last
// (done_o as it is written); the IPA takes its operand mode and halves
// from registers a start changes a cycle late, as its stage-0 pixel is
// then the one before's. At most two Gemms are in flight (one draining),
// and a Gemm whose first pixel's entries are next to the one before's last
// pixel's waits a cycle: its read of the entry (two cycles before its
// write) then comes after that write.
//
// Depthwise mode (Gemm.depthwise): row j of the array sums a window of its
// channel's taps. The window's registers (WH kernel rows of WW taps, each
// the CO bytes of the rows' channels, tap (ky, kx) wired to lane 8 ky + kx)
// take a column at a time: it shifts the window left and fills its last
// column. A pixel issues when the column that completes its window has
// arrived, a cycle after the read: window_w columns before an output row's
// first pixel, stride_x before each next. A column comes one of two ways:
//  - From the line buffers (line_q), which hold the window_h kernel rows
//    above the last, LINE_COLS columns each: the Gemm reads its input rows
//    one after another, a pixel a cycle, each pixel once, and pixel x of a
//    row enters buffer window_h - 1 as each buffer's pixel x moves to the
//    one above; so the buffers' pixel x and the one read are a column.
//    (window_h + 1 + (out_rows - 1) stride_y) rows of w = window_w + 1 +
//    (out_cols - 1) stride_x pixels; with `carry`, out_rows stride_y rows,
//    the window's rows above them already in the buffers (the last the
//    Gemm before read). A Gemm keeps its rows from column line_slot x
//    LINE_COLS / 8 of the buffers, so Gemms of other channels between two
//    tiles' do not overwrite them. For rows of 2 to LINE_COLS pixels (a
//    buffer's pixel is written the cycle after it is read), stride_x 1 or
//    2, and every row in a window (stride_y <= window_h + 1). At stride_x
//    2 with an odd window width the Gemm reads two pixels a cycle (the
//    feature-map buffer's pair read: a row's pixels 2i and 2i + 1), and the
//    window takes two columns: it shifts left by two and fills its columns
//    window_w and window_w + 1, whose taps past the window meet zero
//    weights. The line buffers keep even and odd columns in two banks, so
//    a pair is one address of both. ceil(w / 2) cycles a row.
//  - Else a feature-map row a cycle: each output row reads its columns
//    left to right, each column's window_h + 1 rows top to bottom.
// Output pixels in pairs (init PairsFromBias, at stride_x 1 with line
// buffers): the window, window_w + 1 columns, holds pixels 2i and 2i + 1's
// columns, the pair read fills two of its columns a cycle and completes a
// pair of windows each time; rows WIN_ROWS / 2 on take the same columns as
// the rows WIN_ROWS / 2 above them, so the tree's halves (opu_ipa) sum
// pixel 2i on the lanes below L / 2 and 2i + 1 on those above (its
// weights a column on); its entries e and e + 1 are written together.
// Packed pairs: a 5x5 kernel's pair window (5 rows of 6 columns) does not
// fit the lanes below L / 2 at 8 lanes a kernel row, so its taps are 6
// apart there: tap (ky, kx) of a half on its lane 6 ky + kx. A register's
// lane is fixed, so each register has a fixed role in a pair read: the
// column of kernel row ky (kx 4) or the pair's second (kx 5), or the taps
// two lanes on (kx < 4), across a row of registers where its column is 6
// or 7. The reads are those of any pair (a pixel pair a cycle).
// A dense Gemm in pairs (at stride_x 1) reads pixel 2i's row and, as the
// read's second row, 2i + 1's: the lanes L / 2 on take the second's lanes
// below L / 2 (its weights are L / 2 on), the tree's halves sum the two.
// Block pairs (init PairsFromBias at stride_x 2, depthwise, the pair read):
// a stride-2 pixel's window needs only the tree's lanes below L / 2, so
// rows HR on hold a second channel block's (the CO bytes after the
// first's: line buffers HR on, its taps wired alike), the tree's halves
// sum the two blocks, and the second's sums, from the biases in bytes 4 to
// 7 of the param row's lanes, go to the other of the accumulator's first
// two banks at the same offset (acc_waddr2_o: ACC_BANK1 on or back).
`include "opu_field.svh"
module opu_gemm
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,       // a Gemm's last write, in start order
  output logic                  accept_o,     // a start next cycle is taken
  output logic [31:0]           fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_next_i,  // the row after fm_raddr_o's
  output logic [31:0]           wgt_raddr_o,
  input  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic                  acc_we2_o,     // and acc_wdata2_o at acc_waddr2_o
  output logic [31:0]           acc_waddr2_o,  // acc_waddr_o + 1, or the other bank's
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata2_o,
  output logic [63:0]           issues_o
);
  localparam int unsigned D = opu_pkg::IPA_STAGES + 1;
  localparam int unsigned WH = opu_pkg::WIN_ROWS, WW = opu_pkg::WIN_COLS;
  localparam int unsigned TAP = 8 * opu_pkg::CO;  // a tap's bytes: one per row
  logic        running_q;
  // The output rows left count down: the last row is then an equality, not
  // an add and a compare in front of running_q (the 19-cell path).
  logic [31:0] rows_left_q, ox_q, row_fm_q, fm_q, entry_q;
  // A pixel's place in the pipeline: valid_q[k] and entry_q_d[k] are those
  // of the pixel that issued k + 1 cycles ago, and what its write needs of
  // its Gemm: its init, the high bytes' shift, a pair's second entry, which
  // of the two Gemms' param rows (gen), and whether it ends its Gemm (last:
  // with valid clear, a Gemm of no pixels).
  logic [D-1:0] valid_q, last_q, high_q, pp_d_q, bp_d_q, gen_d_q;
  logic [2*D-1:0] init_d_q;
  logic [32*D-1:0] entry_d_q;
  logic        gen_q;                   // the running Gemm's
  logic [31:0] param0_q, param1_q;      // each gen's param row
  logic [31:0] entry2_q;                // the written pixel's second entry
  logic [1:0]  operand_q;               // the IPA's stage-0 pixel's operand mode
  logic [1:0]  pending_q;               // Gemms started and not done
  logic        final_q;                 // dense: this cycle issues the Gemm's last pixel
  logic        hold_q;                  // the first pixel waits a cycle (clash, below)
  logic        mark;                    // this cycle issues (or stands for) a Gemm's last
  logic [31:0] rows, cols, row_step, stride_x;
  logic [1:0]  init;
  logic [32*opu_pkg::CO-1:0] sums, sums_hi;
  // Output pixels in pairs (the field, then held), and the window's column
  // a pair read fills first: window_w, or one before where it is odd.
  logic        pp, pp_q, bp, bp_q;
  logic [2:0]  fill;
  localparam int unsigned HR = WH / 2;  // the rows a pair's first pixel takes
  // The window's rows that hold kernel rows: 0 to window_h, and in pairs
  // HR to HR + window_h too. The others fill with zeros, so their taps are
  // zero whatever the weights there (a pair's second pixel's, where a Gemm
  // over a pair's weights takes a pixel a cycle): a choice on a row's
  // column, not on each of the array's operands.
  logic [7:0]  rows_on, rows_on_q;
  always_comb
    for (int unsigned r = 0; r < 8; r++)
      rows_on[r] = 3'(r) <= win_h || ((pp || bp) && HR > 0 && r >= HR && 3'(r - HR) <= win_h);
  // Packed pairs (above): where a half's lanes, HR rows of 8, are L / 2 and
  // hold 5 kernel rows 6 apart (opu1024).
  localparam int unsigned PK_ROW = 6, PK_ROWS = 5;
  localparam logic PACKS = HR * 8 == opu_pkg::L / 2 && HR * 8 >= PK_ROW * PK_ROWS && WW == 8;
  logic        pk, pk_q;
  assign pk = PACKS && pp && win_h == 3'(PK_ROWS - 1) && win_w == 3'(PK_ROW - 1);
  logic        issue;

  // Depthwise: the read's column and row in the window, the read in flight
  // (its row, whether its column completes a pixel's window), the window.
  logic        dw, dw_q, rd_q, rd_fire_q;
  // An i16 read whole (operand I16): a pixel is two feature-map rows, its
  // high bytes then its low; in depthwise mode (`wide`) the window keeps a
  // column's high bytes at columns 0 to 3 and its low bytes 4 further.
  logic        i16, wide, wide_q;
  logic [2:0]  win_h, win_w, ky_q, rd_ky_q;
  logic [31:0] col_fm_q, pitch;
  logic [15:0] col_q, fire_col_q;  // columns of the window's row: fm_pitch reaches 4095
  logic [TAP-1:0] taps, taps2;  // the arriving row's bytes of the rows' channels, the next row's
  logic [TAP-1:0] taps_b, taps2_b;  // block pairs: the second block's (CO bytes on)
  logic [WH*WW*TAP-1:0] win_q;
  // With line buffers: the input rows until the next that completes an
  // output row's windows, whether the read's column goes into the window,
  // and the column (g_lines).
  logic        line, line_q, rd_load_q, pair, pair_q;
  logic [31:0] stride_y, until_q;
  logic [10:0] last_col;  // the last pixel's first column, (out_cols - 1) stride_x
  logic [WH*TAP-1:0] column, column2;  // column2: a pair's second

  assign rows = 32'(`OPU_FIELD(insn_i, GEMM_OUT_ROWS));
  assign cols = 32'(`OPU_FIELD(insn_i, GEMM_OUT_COLS));
  assign pitch = 32'(`OPU_FIELD(insn_i, GEMM_FM_PITCH));
  assign stride_y = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_Y));
  assign row_step = stride_y * pitch;
  assign stride_x = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_X));
  assign init = `OPU_FIELD(insn_i, GEMM_INIT);
  assign dw = `OPU_FIELD(insn_i, GEMM_DEPTHWISE);
  assign i16 = `OPU_FIELD(insn_i, GEMM_OPERAND) == opuc_isa_pkg::GEMM_OPERAND_I16;
  assign wide = dw && i16;
  assign win_h = `OPU_FIELD(insn_i, GEMM_WINDOW_H);  // rows - 1
  assign win_w = `OPU_FIELD(insn_i, GEMM_WINDOW_W);  // columns - 1
  assign wgt_raddr_o = 32'(`OPU_FIELD(insn_i, GEMM_WGT_ADDR));
  // The param row is read the cycle before the write that adds it.
  assign param_raddr_o = gen_d_q[D-2] ? param1_q : param0_q;
  assign fm_raddr_o = fm_q;
  // The entry is read two cycles before the pixel's sums arrive and
  // registered: from the accumulator's RAMs through their choice, the
  // 48-bit add and back into a RAM is too long a path for one cycle
  // (docs/rtl.md, Synthesis). (D is 3 or more: IPA_STAGES is 2 or more.)
  assign acc_raddr_o = entry_d_q[32*(D-3) +: 32];
  logic [opu_pkg::ENTRY_BITS-1:0] acc_old_q;
  always_ff @(posedge clk_i) acc_old_q <= acc_rdata_i;
  assign issue = dw_q ? rd_q && rd_fire_q : running_q;
  // Line buffers for rows of 2 to LINE_COLS pixels, stride_x 1 or 2 (a
  // shift, not a multiply, on the path to line_q), and every row in a window.
  assign last_col = {1'b0, `OPU_FIELD(insn_i, GEMM_OUT_COLS) - 10'd1} << (stride_x == 2);
  // A wide column takes an address of both banks: half the columns.
  assign line = (stride_x == 1 || stride_x == 2) && (win_w != '0 || cols != 1) &&
                32'(last_col) + 32'(win_w) + 1 <=
                    (wide ? opu_pkg::LINE_COLS / 2 : opu_pkg::LINE_COLS) &&
                stride_y != 0 && stride_y <= 32'(win_h) + 1;
  assign pp = init == opuc_isa_pkg::GEMM_INIT_PAIRS_FROM_BIAS && stride_x != 2;
  assign bp = init == opuc_isa_pkg::GEMM_INIT_PAIRS_FROM_BIAS && stride_x == 2;
  assign pair = opu_pkg::FM_PAIRS > 0 && line && !wide && ((stride_x == 2 && !win_w[0]) || pp);
  assign fill = {win_w[2:1], 1'b0};

  // Dense pairs: the lanes L / 2 on take pixel 2i + 1's row (the read's
  // second, the other bank) below L / 2; one choice on the bus, before it
  // fans out to the array's rows.
  localparam int unsigned HALF_BEAT = opu_pkg::BEAT_BITS / 2;
  logic [opu_pkg::BEAT_BITS-1:0] fm_ipa;
  assign fm_ipa = pp_q && !dw_q ? {fm_rdata_next_i[HALF_BEAT-1:0], fm_rdata_i[HALF_BEAT-1:0]}
                                : fm_rdata_i;

  opu_ipa u_ipa (
    .clk_i, .valid_i(valid_q[0]), .fm_i(fm_ipa), .fm_next_i(fm_rdata_next_i),
    .weights_i(wgt_rdata_i), .operand_i(operand_q), .window_i(dw_q),
    .taps_i(win_q), .halves_i(pp_q || bp_q),
    .sums_o(sums), .sums_hi_o(sums_hi)
  );

  // Row j's channel in the arriving row: lane + j, or lane + j / 2 with
  // pair_rows. lane is a multiple of half a granule (CO / 2 lanes), so the
  // row shifts by whole half granules (8 ways on opu1024, not 64), then
  // each row takes a fixed byte of it.
  localparam int unsigned HALF = opu_pkg::CO / 2 > 0 ? opu_pkg::CO / 2 : 1;
  logic [opu_pkg::BEAT_BITS-1:0] from_lane, from_lane2;
  assign from_lane = fm_rdata_i >> (32'(`OPU_FIELD(insn_i, GEMM_LANE)) / HALF * (8 * HALF));
  assign from_lane2 = fm_rdata_next_i >> (32'(`OPU_FIELD(insn_i, GEMM_LANE)) / HALF * (8 * HALF));
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      taps[8*j +: 8] = `OPU_FIELD(insn_i, GEMM_PAIR_ROWS) ? from_lane[8*(j/2) +: 8]
                                                         : from_lane[8*j +: 8];
      taps2[8*j +: 8] = `OPU_FIELD(insn_i, GEMM_PAIR_ROWS) ? from_lane2[8*(j/2) +: 8]
                                                          : from_lane2[8*j +: 8];
    end
  assign taps_b = from_lane[TAP +: TAP];
  assign taps2_b = from_lane2[TAP +: TAP];

  always_comb begin
    logic [1:0] w_init;
    w_init = init_d_q[2*(D-1) +: 2];
    acc_we_o = valid_q[D-1];
    acc_we2_o = valid_q[D-1] && (pp_d_q[D-1] || bp_d_q[D-1]);  // a pair's second
    acc_waddr_o = entry_d_q[32*(D-1) +: 32];
    acc_waddr2_o = entry2_q;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] start, start2, product;
      start = w_init == opuc_isa_pkg::GEMM_INIT_ACCUMULATE ?
                  acc_old_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] :
              w_init != opuc_isa_pkg::GEMM_INIT_FROM_ZERO ?
                  {{16{param_rdata_i[64*j+31]}}, param_rdata_i[64*j +: 32]} : '0;
      // A second write comes only with init PairsFromBias, so it starts
      // from a bias: a pixel pair's own (bytes 0 to 3 of the lane), or in
      // block pairs the second block's (bytes 4 to 7); not from start's
      // choice, which then stays out of the second adder's LUTs.
      start2 = bp_d_q[D-1] ? {{16{param_rdata_i[64*j+63]}}, param_rdata_i[64*j+32 +: 32]}
                           : {{16{param_rdata_i[64*j+31]}}, param_rdata_i[64*j +: 32]};
      acc_wdata2_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
          start2 + {{16{sums_hi[32*j+31]}}, sums_hi[32*j +: 32]};
      product = {{16{sums[32*j+31]}}, sums[32*j +: 32]};
      if (high_q[D-1]) product = product <<< 8;
      acc_wdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = start + product;
    end
  end

  // The line buffers (opu_gemm_lines.sv): the window's columns.
  if (opu_pkg::LINE_BUFS > 0) begin : g_lines
    opu_gemm_lines u_lines (
      .clk_i, .start_i, .slot_i(3'(`OPU_FIELD(insn_i, GEMM_LINE_SLOT))), .rd_i(rd_q),
      .line_i(line_q), .pair_i(pair_q), .wide_i(wide_q), .bp_i(bp_q), .win_h_i(win_h),
      .col_i(col_q), .taps_i(taps), .taps2_i(taps2), .taps_b_i(taps_b), .taps2_b_i(taps2_b),
      .column_o(column), .column2_o(column2)
    );
  end else begin : g_no_lines
    assign column = {WH{taps}};
    assign column2 = {WH{taps2}};
  end

  // The window's registers: a column shifts every row's taps left, up to
  // the window's last column, which takes the column: from the line
  // buffers at once, or a feature-map row a cycle, the first shifting.
  // A pair shifts them by two and fills the last column and the one past
  // it. Taps past the window multiply zero weights. Each position's choice
  // is worked out once (win_sel, win_en), so a bit takes one 4:1 choice:
  // its row's column (colin: the pixel read or a line buffer's), a pair's
  // second column, or the position one or two to its right.
  // Pairs: row ky + HR takes row ky's column (wiring, fixed at elaboration:
  // an index worked out in a procedure becomes a shifter).
  logic [WH*TAP-1:0] mirrored, mirrored2;
  for (genvar ky = 0; ky < WH; ky++) begin : g_mirror
    if (HR > 0 && ky >= HR) begin : g_above
      assign mirrored[ky*TAP +: TAP] = column[(ky - HR)*TAP +: TAP];
      assign mirrored2[ky*TAP +: TAP] = column2[(ky - HR)*TAP +: TAP];
    end else begin : g_same
      assign mirrored[ky*TAP +: TAP] = column[ky*TAP +: TAP];
      assign mirrored2[ky*TAP +: TAP] = column2[ky*TAP +: TAP];
    end
  end
  localparam logic [1:0] FROM_COLUMN = 2'd0, FROM_SECOND = 2'd1, FROM_NEXT = 2'd2,
                         FROM_NEXT2 = 2'd3;
  // Each register's sources: its row's column (colin), a pair's second
  // (colin2), the register two on (next2); packed, kernel row PK_KY's
  // columns and lane + 2's register, where they differ (fixed at
  // elaboration: a 2:1 choice there, wiring elsewhere). pk_role: the
  // register's part in a packed pair read (0 none, else 1 + its source).
  logic [WH*WW*TAP-1:0] pos_col, pos_col2, pos_next2;
  logic [WH*WW*TAP-1:0] colin_at, colin2_at;  // colin, colin2 of each register's row
  logic [3*WH*WW-1:0] pk_role;
  logic [2*WH*WW-1:0] win_sel;
  logic [WH*WW-1:0] win_en;
  logic [WH*TAP-1:0] colin, colin2;
  always_comb
    for (int unsigned ky = 0; ky < WH; ky++) begin
      // Pairs: row ky + HR holds row ky's columns (pixel 2i + 1's taps).
      colin[ky*TAP +: TAP] = !rows_on_q[ky] ? '0 : !line_q ? taps
                           : pp_q ? mirrored[ky*TAP +: TAP] : column[ky*TAP +: TAP];
      colin2[ky*TAP +: TAP] = !rows_on_q[ky] ? '0 : !line_q ? taps2
                            : pp_q ? mirrored2[ky*TAP +: TAP] : column2[ky*TAP +: TAP];
      for (int unsigned kx = 0; kx < WW; kx++) begin
        win_sel[2*(ky*WW + kx) +: 2] = FROM_COLUMN;
        win_en[ky*WW + kx] = 1'b0;
        // Wide: columns 0 to 3 and 4 to 7 each a window of its own, fed a
        // column's high and low bytes, shifting within themselves.
        if (wide_q) begin
          if (rd_q && (!line_q || rd_load_q)) begin
            if (3'(kx % 4) == win_w && (line_q || 3'(ky) == rd_ky_q)) begin
              win_en[ky*WW + kx] = 1'b1;
              win_sel[2*(ky*WW + kx) +: 2] = kx >= 4 ? FROM_SECOND : FROM_COLUMN;
            end else if (3'(kx % 4) < win_w && (line_q || rd_ky_q == '0)) begin
              win_en[ky*WW + kx] = 1'b1;
              win_sel[2*(ky*WW + kx) +: 2] = FROM_NEXT;
            end
          end
        end else if (rd_q && line_q && rd_load_q && pk_q) begin
          // Packed pairs: each register's fixed role (pk_role).
          win_en[ky*WW + kx] = pk_role[3*(ky*WW + kx) +: 3] != 3'd0;
          win_sel[2*(ky*WW + kx) +: 2] = 2'(pk_role[3*(ky*WW + kx) +: 3] - 3'd1);
        end else if (rd_q && line_q && rd_load_q && pair_q) begin
          // A pair fills columns fill and fill + 1 (past the window at an
          // odd width: zero weights), the columns before it shift by two.
          if (3'(kx) == fill) begin
            win_en[ky*WW + kx] = 1'b1;
          end else if (4'(kx) == 4'(fill) + 4'd1) begin
            win_en[ky*WW + kx] = 1'b1;
            win_sel[2*(ky*WW + kx) +: 2] = FROM_SECOND;
          end else if (3'(kx) < fill) begin
            win_en[ky*WW + kx] = 1'b1;
            win_sel[2*(ky*WW + kx) +: 2] = FROM_NEXT2;
          end
        end else if (rd_q && line_q && rd_load_q) begin
          if (3'(kx) == win_w) begin
            win_en[ky*WW + kx] = 1'b1;
          end else if (3'(kx) < win_w && kx + 1 < WW) begin
            win_en[ky*WW + kx] = 1'b1;
            win_sel[2*(ky*WW + kx) +: 2] = FROM_NEXT;
          end
        end else if (rd_q && !line_q) begin
          if (3'(kx) == win_w && 3'(ky) == rd_ky_q) begin
            win_en[ky*WW + kx] = 1'b1;
          end else if (3'(kx) < win_w && rd_ky_q == '0 && kx + 1 < WW) begin  // (the last never shifts)
            win_en[ky*WW + kx] = 1'b1;
            win_sel[2*(ky*WW + kx) +: 2] = FROM_NEXT;
          end
        end
      end
    end
  for (genvar ky = 0; ky < WH; ky++) begin : g_pos_r
    for (genvar kx = 0; kx < WW; kx++) begin : g_pos_c
      localparam int unsigned P = ky * WW + kx;
      localparam int unsigned LH = (8 * ky + kx) % (HR > 0 ? HR * 8 : 1);  // lane in its half
      localparam int unsigned PK_KY = LH / PK_ROW, PK_KX = LH % PK_ROW;
      localparam logic PK_TAP = PACKS && LH < PK_ROW * PK_ROWS;
      // Packed, the column comes from kernel row PK_KY (both halves take the
      // same kernel rows), not this row's (ky mod HR in pairs).
      localparam logic OWN_COL =
          !PK_TAP || PK_KX < PK_ROW - 2 || PK_KY == ky % (HR > 0 ? HR : 1);
      // Packed, lane + 2 is the next row's where kx is 6 or 7.
      localparam logic OWN_NEXT2 = !PK_TAP || PK_KX >= PK_ROW - 2 || kx + 2 < WW;
      localparam int unsigned N2 =
          OWN_NEXT2 ? ky * WW + (kx + 2) % WW : (ky + 1) * WW + kx + 2 - WW;
      assign colin_at[P*TAP +: TAP] = colin[ky*TAP +: TAP];
      assign colin2_at[P*TAP +: TAP] = colin2[ky*TAP +: TAP];
      if (OWN_COL) begin : g_own_col
        assign pos_col[P*TAP +: TAP] = colin_at[P*TAP +: TAP];
        assign pos_col2[P*TAP +: TAP] = colin2_at[P*TAP +: TAP];
      end else begin : g_pk_col
        assign pos_col[P*TAP +: TAP] = pk_q ? column[PK_KY*TAP +: TAP] : colin_at[P*TAP +: TAP];
        assign pos_col2[P*TAP +: TAP] = pk_q ? column2[PK_KY*TAP +: TAP]
                                             : colin2_at[P*TAP +: TAP];
      end
      if (OWN_NEXT2) begin : g_own_next2
        assign pos_next2[P*TAP +: TAP] = win_q[N2*TAP +: TAP];
      end else begin : g_pk_next2
        assign pos_next2[P*TAP +: TAP] = pk_q ? win_q[N2*TAP +: TAP]
                                              : win_q[(ky * WW + (kx + 2) % WW)*TAP +: TAP];
      end
      assign pk_role[3*P +: 3] = !PK_TAP ? 3'd0 : PK_KX == PK_ROW - 2 ? 3'd1 + 3'(FROM_COLUMN)
                               : PK_KX == PK_ROW - 1 ? 3'd1 + 3'(FROM_SECOND)
                                                     : 3'd1 + 3'(FROM_NEXT2);
    end
  end
  // A Gemm starts on a window of zeros: columns past its own (a pair's
  // last, under a pair's weights) are never filled. (A flip-flop's
  // synchronous reset: no logic in front of it.)
  always_ff @(posedge clk_i)
    for (int unsigned ky = 0; ky < WH; ky++)
      for (int unsigned kx = 0; kx < WW; kx++)
        if (start_i) win_q[(ky*WW + kx)*TAP +: TAP] <= '0;
        else if (win_en[ky*WW + kx])
          case (win_sel[2*(ky*WW + kx) +: 2])
            FROM_COLUMN: win_q[(ky*WW + kx)*TAP +: TAP] <= pos_col[(ky*WW + kx)*TAP +: TAP];
            FROM_SECOND: win_q[(ky*WW + kx)*TAP +: TAP] <= pos_col2[(ky*WW + kx)*TAP +: TAP];
            FROM_NEXT:   win_q[(ky*WW + kx)*TAP +: TAP] <= win_q[(ky*WW + (kx + 1) % WW)*TAP +: TAP];
            default:     win_q[(ky*WW + kx)*TAP +: TAP] <= pos_next2[(ky*WW + kx)*TAP +: TAP];
          endcase

  opu_counter u_issues (.clk_i, .rst_ni, .step_i(issue), .value_o(issues_o));

  // A dense Gemm issues its last pixel when final_q; a depthwise one in
  // the cycle after its last read (running_q clear, rd_q set). A Gemm of no
  // pixels sends a mark alone.
  assign mark = (running_q && !dw_q && final_q) || (dw_q && rd_q && !running_q) ||
                (start_i && (rows == 0 || cols == 0));
  assign accept_o = !start_i && !hold_q && pending_q != 2'd2 &&
                    (!running_q || (!dw_q && final_q));
  // The first pixel's entries (a pair's two) meet those of the pixel that
  // issued the cycle before the start (a difference of -1, 0 or 1).
  logic clash;
  assign clash = valid_q[0] && 32'(`OPU_FIELD(insn_i, GEMM_ACC_ADDR)) - entry_d_q[31:0] + 32'd1 <= 32'd2;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {running_q, done_o, dw_q, rd_q, rd_fire_q, line_q, pair_q, wide_q, rd_load_q} <= '0;
      {pp_q, bp_q, pk_q} <= '0;
      rows_on_q <= '0;
      until_q <= '0;
      {rows_left_q, ox_q, row_fm_q, fm_q, entry_q} <= '0;
      {ky_q, rd_ky_q, col_q, col_fm_q, fire_col_q} <= '0;
      {valid_q, last_q, high_q, pp_d_q, bp_d_q, gen_d_q, init_d_q} <= '0;
      entry2_q <= '0;
      entry_d_q <= '0;
      {gen_q, operand_q, pending_q, final_q, hold_q} <= '0;
      {param0_q, param1_q} <= '0;
    end else begin
      done_o <= last_q[D-1];
      pending_q <= pending_q + 2'(start_i) - 2'(done_o);
      valid_q <= {valid_q[D-2:0], issue};
      last_q <= {last_q[D-2:0], mark};
      entry_d_q <= {entry_d_q[32*(D-1)-1:0], entry_q};
      init_d_q <= {init_d_q[2*(D-1)-1:0], init};
      high_q <= {high_q[D-2:0], `OPU_FIELD(insn_i, GEMM_OPERAND) == opuc_isa_pkg::GEMM_OPERAND_HIGH};
      pp_d_q <= {pp_d_q[D-2:0], pp_q};
      bp_d_q <= {bp_d_q[D-2:0], bp_q};
      // The second entry, worked out a stage ahead of its write.
      entry2_q <= !bp_d_q[D-2] ? entry_d_q[32*(D-2) +: 32] + 32'd1
                : entry_d_q[32*(D-2) +: 32] < opu_pkg::ACC_BANK1
                    ? entry_d_q[32*(D-2) +: 32] + opu_pkg::ACC_BANK1
                    : entry_d_q[32*(D-2) +: 32] - opu_pkg::ACC_BANK1;
      gen_d_q <= {gen_d_q[D-2:0], gen_q};
      if (hold_q) begin
        hold_q <= 1'b0;
        running_q <= 1'b1;
      end
      rd_q <= dw_q && running_q;
      rd_ky_q <= ky_q;
      rd_load_q <= until_q == '0;
      rd_fire_q <= (line_q ? until_q == '0 : ky_q == win_h) && col_q == fire_col_q;
      if (issue) entry_q <= entry_q + (pp_q ? 32'd2 : 32'd1);
      if (start_i) begin
        running_q <= rows != 0 && cols != 0 && !clash;
        hold_q <= rows != 0 && cols != 0 && clash;
        final_q <= rows == 32'd1 && cols <= (pp ? 32'd2 : 32'd1);
        gen_q <= !gen_q;
        if (gen_q) param0_q <= 32'(`OPU_FIELD(insn_i, GEMM_PARAM_ADDR));
        else param1_q <= 32'(`OPU_FIELD(insn_i, GEMM_PARAM_ADDR));
        operand_q <= `OPU_FIELD(insn_i, GEMM_OPERAND);
        dw_q <= dw;
        line_q <= dw && line;
        pair_q <= dw && pair;
        pp_q <= pp;
        bp_q <= dw && bp;
        pk_q <= dw && pk;
        rows_on_q <= rows_on;
        wide_q <= wide;
        // The rows before the first that completes windows: the window's
        // but one, or with carry (its rows above in the buffers) stride_y - 1.
        until_q <= `OPU_FIELD(insn_i, GEMM_CARRY) ? stride_y - 1 : 32'(win_h);
        rows_left_q <= rows;
        {ox_q, ky_q, col_q} <= '0;
        fire_col_q <= pair ? 16'(fill) : 16'(win_w);
        row_fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        col_fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        entry_q <= 32'(`OPU_FIELD(insn_i, GEMM_ACC_ADDR));
      end else if (running_q && line_q) begin
        // Along the input row up to its last pixel's column (ox_q counts
        // the row's pixels), then the next; done after the row that
        // completes the last output row's windows.
        // A pair of output pixels is two columns on and counts two.
        if (col_q == fire_col_q) begin
          fire_col_q <= fire_col_q + (pp_q ? 16'd2 : 16'(stride_x));
          ox_q <= ox_q + (pp_q ? 32'd2 : 32'd1);
        end
        if (col_q != fire_col_q || ox_q + (pp_q ? 32'd2 : 32'd1) != cols) begin
          col_q <= col_q + (pair_q ? 16'd2 : 16'd1);
          fm_q <= fm_q + (pair_q || wide_q ? 32'd2 : 32'd1);
        end else begin
          {ox_q, col_q} <= '0;
          fire_col_q <= pair_q ? 16'(fill) : 16'(win_w);
          row_fm_q <= row_fm_q + pitch;
          fm_q <= row_fm_q + pitch;
          if (until_q != '0) begin
            until_q <= until_q - 1;
          end else begin
            until_q <= stride_y - 1;
            rows_left_q <= rows_left_q - 1;
            if (rows_left_q == 32'd1) running_q <= 1'b0;
          end
        end
      end else if (running_q && dw_q) begin
        // Down the column, then to the next column, then, after the column
        // of the row's last pixel (ox_q counts the row's pixels), the next row.
        if (ky_q != win_h) begin
          ky_q <= ky_q + 1;
          fm_q <= fm_q + pitch;
        end else begin
          ky_q <= '0;
          if (col_q == fire_col_q) begin
            fire_col_q <= fire_col_q + 16'(stride_x);
            ox_q <= ox_q + 1;
          end
          if (col_q != fire_col_q || ox_q + 1 != cols) begin
            col_q <= col_q + 1;
            col_fm_q <= col_fm_q + (wide_q ? 32'd2 : 32'd1);
            fm_q <= col_fm_q + (wide_q ? 32'd2 : 32'd1);
          end else begin
            {ox_q, col_q} <= '0;
            fire_col_q <= 16'(win_w);
            rows_left_q <= rows_left_q - 1;
            row_fm_q <= row_fm_q + row_step;
            col_fm_q <= row_fm_q + row_step;
            fm_q <= row_fm_q + row_step;
            if (rows_left_q == 32'd1) running_q <= 1'b0;
          end
        end
      end else if (running_q) begin
        // Dense pairs: two pixels, two rows, an issue.
        if (ox_q + (pp_q ? 32'd2 : 32'd1) < cols) begin
          ox_q <= ox_q + (pp_q ? 32'd2 : 32'd1);
          fm_q <= fm_q + (pp_q ? 32'd2 : i16 ? stride_x << 1 : stride_x);  // stride_x counts pixels
          final_q <= rows_left_q == 32'd1 && ox_q + (pp_q ? 32'd4 : 32'd2) >= cols;
        end else begin
          ox_q <= '0;
          rows_left_q <= rows_left_q - 1;
          final_q <= rows_left_q == 32'd2 && (pp_q ? 32'd2 : 32'd1) >= cols;
          row_fm_q <= row_fm_q + row_step;
          fm_q <= row_fm_q + row_step;
          if (rows_left_q == 32'd1) running_q <= 1'b0;
        end
      end
    end
  end
endmodule
