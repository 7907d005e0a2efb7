// Gemm: one kernel tap over a tile. Pixel by pixel, one a cycle: read the
// pixel's feature-map row; its sums leave the array's pipeline IPA_STAGES
// cycles later (opu_ipa), when the accumulator entry, read a cycle before,
// is there too; then write back start + sum (x 256 for the high byte of an
// i16), where start is the entry (accumulate), the param row's biases, or
// zero. The weight and param rows are read once, from the instruction's
// fields. A pixel's entry is written D = IPA_STAGES + 1 cycles after it
// issues; each Gemm writes distinct entries, and the next starts after its
// last write.
//
// Depthwise mode (Gemm.depthwise): row j of the array sums a window of its
// channel's taps. The window's registers (WH kernel rows of WW taps, each
// the CO bytes of the rows' channels, tap (ky, kx) wired to lane 8 ky + kx)
// are fed one feature-map row a cycle: an output row reads its columns
// left to right, each column's window_h rows top to bottom; a column
// arriving shifts the window left (its first row does) and takes the
// window's last column. A pixel issues when the column that completes its
// window has arrived, a cycle after the read: window_w columns before an
// output row's first pixel, stride_x before each next.
`include "opu_field.svh"
module opu_gemm
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic [31:0]           fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_i,
  output logic [31:0]           wgt_raddr_o,
  input  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic [63:0]           issues_o
);
  localparam int unsigned D = opu_pkg::IPA_STAGES + 1;
  localparam int unsigned WH = opu_pkg::WIN_ROWS, WW = opu_pkg::WIN_COLS;
  localparam int unsigned TAP = 8 * opu_pkg::CO;  // a tap's bytes: one per row
  logic        running_q;
  logic [31:0] oy_q, ox_q, row_fm_q, fm_q, entry_q;
  // A pixel's place in the pipeline: valid_q[k] and entry_q_d[k] are those
  // of the pixel that issued k + 1 cycles ago.
  logic [D-1:0] valid_q;
  logic [32*D-1:0] entry_d_q;
  logic [31:0] rows, cols, row_step, stride_x;
  logic [1:0]  init;
  logic [32*opu_pkg::CO-1:0] sums;
  logic        issue;

  // Depthwise: the read's column and row in the window, the read in flight
  // (its row, whether its column completes a pixel's window), the window.
  logic        dw, dw_q, rd_q, rd_fire_q;
  logic [2:0]  win_h, win_w, ky_q, rd_ky_q;
  logic [31:0] col_fm_q, pitch;
  logic [15:0] col_q, fire_col_q;  // columns of the window's row: fm_pitch reaches 4095
  logic [TAP-1:0] taps;  // the arriving row's bytes of the rows' channels
  logic [WH*WW*TAP-1:0] win_q;

  assign rows = 32'(`OPU_FIELD(insn_i, GEMM_OUT_ROWS));
  assign cols = 32'(`OPU_FIELD(insn_i, GEMM_OUT_COLS));
  assign pitch = 32'(`OPU_FIELD(insn_i, GEMM_FM_PITCH));
  assign row_step = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_Y)) * pitch;
  assign stride_x = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_X));
  assign init = `OPU_FIELD(insn_i, GEMM_INIT);
  assign dw = `OPU_FIELD(insn_i, GEMM_DEPTHWISE);
  assign win_h = `OPU_FIELD(insn_i, GEMM_WINDOW_H);  // rows - 1
  assign win_w = `OPU_FIELD(insn_i, GEMM_WINDOW_W);  // columns - 1
  assign wgt_raddr_o = 32'(`OPU_FIELD(insn_i, GEMM_WGT_ADDR));
  assign param_raddr_o = 32'(`OPU_FIELD(insn_i, GEMM_PARAM_ADDR));
  assign fm_raddr_o = fm_q;
  // The entry is read the cycle before the pixel's sums arrive.
  assign acc_raddr_o = entry_d_q[32*(D-2) +: 32];
  assign issue = dw_q ? rd_q && rd_fire_q : running_q;

  opu_ipa u_ipa (
    .clk_i, .valid_i(valid_q[0]), .fm_i(fm_rdata_i), .weights_i(wgt_rdata_i),
    .fm_unsigned_i(`OPU_FIELD(insn_i, GEMM_FM_UNSIGNED)), .window_i(dw_q), .taps_i(win_q),
    .sums_o(sums)
  );

  // Row j's channel in the arriving row: lane + j, or lane + j / 2 with pair_rows.
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic [7:0] lane;
      lane = 8'(`OPU_FIELD(insn_i, GEMM_LANE)) +
             8'(`OPU_FIELD(insn_i, GEMM_PAIR_ROWS) ? j / 2 : j);
      taps[8*j +: 8] = lane < 8'(opu_pkg::L) ? fm_rdata_i[8*lane +: 8] : '0;
    end

  always_comb begin
    acc_we_o = valid_q[D-1];
    acc_waddr_o = entry_d_q[32*(D-1) +: 32];
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] start, product;
      start = init == opuc_isa_pkg::GEMM_INIT_ACCUMULATE ?
                  acc_rdata_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] :
              init == opuc_isa_pkg::GEMM_INIT_FROM_BIAS ?
                  {{16{param_rdata_i[64*j+31]}}, param_rdata_i[64*j +: 32]} : '0;
      product = {{16{sums[32*j+31]}}, sums[32*j +: 32]};
      if (`OPU_FIELD(insn_i, GEMM_HIGH_BYTE)) product = product <<< 8;
      acc_wdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = start + product;
    end
  end

  // The window's registers: a column's first row shifts every row's taps
  // left, up to the window's last column, and each row of the column then
  // takes that last column. Taps past the window multiply zero weights.
  always_ff @(posedge clk_i)
    if (rd_q)
      for (int unsigned ky = 0; ky < WH; ky++)
        for (int unsigned kx = 0; kx < WW; kx++)
          if (3'(kx) == win_w && 3'(ky) == rd_ky_q)
            win_q[(ky*WW + kx)*TAP +: TAP] <= taps;
          else if (3'(kx) < win_w && rd_ky_q == '0 && kx + 1 < WW)  // (the last never shifts)
            win_q[(ky*WW + kx)*TAP +: TAP] <= win_q[(ky*WW + (kx + 1) % WW)*TAP +: TAP];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {running_q, done_o, dw_q, rd_q, rd_fire_q} <= '0;
      {oy_q, ox_q, row_fm_q, fm_q, entry_q} <= '0;
      {ky_q, rd_ky_q, col_q, col_fm_q, fire_col_q} <= '0;
      valid_q <= '0;
      entry_d_q <= '0;
      issues_o <= '0;
    end else begin
      done_o <= 1'b0;
      valid_q <= {valid_q[D-2:0], issue};
      entry_d_q <= {entry_d_q[32*(D-1)-1:0], entry_q};
      rd_q <= dw_q && running_q;
      rd_ky_q <= ky_q;
      rd_fire_q <= ky_q == win_h && col_q == fire_col_q;
      if (issue) begin
        issues_o <= issues_o + 1;
        entry_q <= entry_q + 1;
      end
      if (start_i) begin
        running_q <= rows != 0 && cols != 0;
        done_o <= rows == 0 || cols == 0;
        dw_q <= dw;
        {oy_q, ox_q, ky_q, col_q} <= '0;
        fire_col_q <= 16'(win_w);
        row_fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        col_fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        entry_q <= 32'(`OPU_FIELD(insn_i, GEMM_ACC_ADDR));
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
            col_fm_q <= col_fm_q + 1;
            fm_q <= col_fm_q + 1;
          end else begin
            {ox_q, col_q} <= '0;
            fire_col_q <= 16'(win_w);
            oy_q <= oy_q + 1;
            row_fm_q <= row_fm_q + row_step;
            col_fm_q <= row_fm_q + row_step;
            fm_q <= row_fm_q + row_step;
            if (oy_q + 1 == rows) running_q <= 1'b0;
          end
        end
      end else if (running_q) begin
        if (ox_q + 1 < cols) begin
          ox_q <= ox_q + 1;
          fm_q <= fm_q + stride_x;
        end else begin
          ox_q <= '0;
          oy_q <= oy_q + 1;
          row_fm_q <= row_fm_q + row_step;
          fm_q <= row_fm_q + row_step;
          if (oy_q + 1 == rows) running_q <= 1'b0;
        end
      end
      // Done as the last pixel is written: nothing behind it.
      if (valid_q[D-1] && !running_q && !rd_q && valid_q[D-2:0] == '0) done_o <= 1'b1;
    end
  end
endmodule
