// The pool stage: for each pooled pixel, the max or the sum of the taps of
// its window that lie inside the source tile (window (oy, ox) starts at
// (oy * stride_y - pad_y, ox * stride_x - pad_x)), one tap read a cycle; with
// `accumulate`, the pooled entry's old value is read first and combined too
// (a window spread over tiles). The pooled entry is written the cycle after
// its last tap is read.
`include "opu_field.svh"
module opu_pool
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic [63:0]           taps_o
);
  logic        running_q, reading_dst_q;
  logic [31:0] oy_q, ox_q, y_q, x_q, dst_q;
  logic signed [31:0] wy_q, wx_q;  // the window's first row and column, maybe in padding
  logic [31:0] y0, x0, wy_end, wx_end;  // ... its first inside the source, its end
  logic        s1_valid_q, s1_first_q, s1_last_q;
  logic [31:0] s1_dst_q;
  logic [opu_pkg::ENTRY_BITS-1:0] run_q, combined;
  logic [31:0] src_rows, src_cols, y1, x1;
  logic        is_sum, accumulate, last_tap;

  assign src_rows = 32'(`OPU_FIELD(insn_i, POOL_SRC_ROWS));
  assign src_cols = 32'(`OPU_FIELD(insn_i, POOL_SRC_COLS));
  assign is_sum = `OPU_FIELD(insn_i, POOL_SUM);
  assign accumulate = `OPU_FIELD(insn_i, POOL_ACCUMULATE);
  assign y0 = wy_q < 0 ? '0 : $unsigned(wy_q);
  assign x0 = wx_q < 0 ? '0 : $unsigned(wx_q);
  // A window ends past row 0 (pad_y < size_y), so its end is a plain count.
  assign wy_end = $unsigned(wy_q) + 32'(`OPU_FIELD(insn_i, POOL_SIZE_Y));
  assign wx_end = $unsigned(wx_q) + 32'(`OPU_FIELD(insn_i, POOL_SIZE_X));
  assign y1 = wy_end < src_rows ? wy_end : src_rows;
  assign x1 = wx_end < src_cols ? wx_end : src_cols;
  assign last_tap = !reading_dst_q && y_q + 1 == y1 && x_q + 1 == x1;
  assign acc_raddr_o = reading_dst_q ? dst_q
                                     : 32'(`OPU_FIELD(insn_i, POOL_SRC_ADDR)) + y_q * src_cols + x_q;

  always_comb begin
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] run, v;
      run = run_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
      v = acc_rdata_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
      if (s1_first_q) combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = v;
      else if (is_sum) combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = run + v;
      else combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = v > run ? v : run;
    end
  end
  assign acc_we_o = s1_valid_q && s1_last_q;
  assign acc_waddr_o = s1_dst_q;
  assign acc_wdata_o = combined;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {running_q, reading_dst_q, s1_valid_q, s1_first_q, s1_last_q, done_o} <= '0;
      {oy_q, ox_q, wy_q, wx_q, y_q, x_q, dst_q, s1_dst_q} <= '0;
      run_q <= '0;
      taps_o <= '0;
    end else begin
      done_o <= 1'b0;
      s1_valid_q <= running_q;
      s1_first_q <= reading_dst_q || (!accumulate && y_q == y0 && x_q == x0);
      s1_last_q <= last_tap;
      s1_dst_q <= dst_q;
      if (s1_valid_q) run_q <= combined;
      if (start_i) begin
        logic empty;
        empty = `OPU_FIELD(insn_i, POOL_OUT_ROWS) == 0 || `OPU_FIELD(insn_i, POOL_OUT_COLS) == 0;
        running_q <= !empty;
        done_o <= empty;
        reading_dst_q <= `OPU_FIELD(insn_i, POOL_ACCUMULATE);
        {oy_q, ox_q} <= '0;
        wy_q <= -$signed(32'(`OPU_FIELD(insn_i, POOL_PAD_Y)));
        wx_q <= -$signed(32'(`OPU_FIELD(insn_i, POOL_PAD_X)));
        y_q <= '0;
        x_q <= '0;
        dst_q <= 32'(`OPU_FIELD(insn_i, POOL_DST_ADDR));
      end else if (running_q) begin
        if (reading_dst_q) begin
          reading_dst_q <= 1'b0;
        end else begin
          taps_o <= taps_o + 1;
          if (x_q + 1 < x1) begin
            x_q <= x_q + 1;
          end else if (y_q + 1 < y1) begin
            x_q <= x0;
            y_q <= y_q + 1;
          end else begin
            // The next pooled pixel.
            logic [31:0] nox, noy;
            logic signed [31:0] nwy, nwx;
            nox = ox_q + 1;
            noy = oy_q;
            nwy = wy_q;
            nwx = wx_q + 32'(`OPU_FIELD(insn_i, POOL_STRIDE_X));
            if (nox == 32'(`OPU_FIELD(insn_i, POOL_OUT_COLS))) begin
              nox = '0;
              nwx = -$signed(32'(`OPU_FIELD(insn_i, POOL_PAD_X)));
              noy = oy_q + 1;
              nwy = wy_q + 32'(`OPU_FIELD(insn_i, POOL_STRIDE_Y));
            end
            ox_q <= nox;
            oy_q <= noy;
            wx_q <= nwx;
            wy_q <= nwy;
            x_q <= nwx < 0 ? '0 : $unsigned(nwx);
            y_q <= nwy < 0 ? '0 : $unsigned(nwy);
            dst_q <= dst_q + 1;
            reading_dst_q <= accumulate;
            if (noy == 32'(`OPU_FIELD(insn_i, POOL_OUT_ROWS))) running_q <= 1'b0;
          end
        end
      end
      if (s1_valid_q && !running_q) done_o <= 1'b1;
    end
  end
endmodule
