// The depthwise window's line buffers (opu_gemm.sv): the kernel rows above
// the one a Gemm reads, LINE_COLS columns of CO bytes each, a Gemm's from
// its line slot on. Buffer k takes the pixel of buffer k + 1, the last
// (window_h - 1) the pixel read, at the column read a cycle before. A
// column: the buffers' pixels above the pixel read (rows past the
// window's take it too: zero weights). Even and odd columns in two
// banks, at column / 2: one pixel a cycle writes one bank, a pair both.
// Block pairs: buffers HR to HR + window_h - 1 hold the second block's
// rows alike, and window row HR + window_h takes its pixel read.
module opu_gemm_lines
(
  input  logic                      clk_i,
  input  logic                      start_i,   // a Gemm starts: its line slot is taken
  input  logic [2:0]                slot_i,    // Gemm.line_slot
  input  logic                      rd_i,      // a read asked a cycle ago is arriving
  input  logic                      line_i,    // the Gemm reads through the line buffers
  input  logic                      pair_i,    // a pair of pixels a read
  input  logic                      wide_i,    // an i16 read whole
  input  logic                      bp_i,      // block pairs
  input  logic [2:0]                win_h_i,   // the window's rows - 1
  input  logic [15:0]               col_i,     // the column this cycle's read asks for
  input  logic [8*opu_pkg::CO-1:0]  taps_i, taps2_i,      // the read's row, a pair's second
  input  logic [8*opu_pkg::CO-1:0]  taps_b_i, taps2_b_i,  // the second block's
  output logic [opu_pkg::WIN_ROWS*8*opu_pkg::CO-1:0] column_o, column2_o
);
  localparam int unsigned TAP = 8 * opu_pkg::CO;
  localparam int unsigned WH = opu_pkg::WIN_ROWS, HR = WH / 2;
  localparam int unsigned LB = opu_pkg::LINE_BUFS;
  localparam int unsigned BANK_COLS = (opu_pkg::LINE_COLS + 1) / 2;
  localparam int unsigned BAW = BANK_COLS > 1 ? $clog2(BANK_COLS) : 1;
  logic [15:0] rd_col_q;
  logic [BAW-1:0] slot_q;  // the line slot's first address in a bank
  always_ff @(posedge clk_i)
    if (start_i) slot_q <= BAW'(32'(slot_i) * (opu_pkg::LINE_COLS / 16));
  logic [LB-1:0] we_even, we_odd;
  logic [LB*TAP-1:0] even, odd, wdata_even, wdata_odd;
  always_ff @(posedge clk_i) rd_col_q <= col_i;
  // A column's address: column / 2 (even and odd columns in the two
  // banks), or, wide, the column (its high bytes in one bank, low in the other).
  logic [BAW-1:0] waddr, raddr;
  assign waddr = wide_i ? BAW'(rd_col_q) : BAW'(rd_col_q[15:1]);
  assign raddr = wide_i ? BAW'(col_i) : BAW'(col_i[15:1]);
  // What the rows from HR on take where a pixel read enters them: in
  // block pairs the second block's, otherwise the first's, chosen once
  // here rather than in each row's choice (a third source in every row
  // from HR on costs a LUT a bit). Rows past a window's last take it too:
  // their weights are zero.
  logic [TAP-1:0] hi_taps, hi_taps2, hi_wtaps2;
  assign hi_taps = bp_i ? taps_b_i : taps_i;
  assign hi_taps2 = bp_i ? taps2_b_i : taps2_i;
  assign hi_wtaps2 = bp_i ? taps2_b_i : pair_i || wide_i ? taps2_i : taps_i;
  // Row r takes the pixel read (rather than its line buffer): the
  // window's last row, counted from HR for a block pair's second block.
  function automatic logic takes_read(input int unsigned r);
    takes_read = bp_i && HR > 0 && r >= HR ? 3'(r - HR) == win_h_i : 3'(r) == win_h_i;
  endfunction
  // Buffer k takes the pixel read (rather than buffer k + 1's): the
  // window's row above its last, counted alike.
  function automatic logic buffer_takes_read(input int unsigned k);
    buffer_takes_read = bp_i && HR > 0 && k >= HR ? 3'(k + 1 - HR) == win_h_i
                                                  : 3'(k + 1) == win_h_i;
  endfunction
  always_comb begin
    for (int unsigned k = 0; k < LB; k++) begin
      if (bp_i && HR > 0 && k >= HR) begin  // the second block's (HR + window_h <= LB)
        we_even[k] = rd_i && line_i && 3'(k - HR) < win_h_i;
        we_odd[k] = we_even[k];
      end else begin
        we_even[k] = rd_i && line_i && 3'(k) < win_h_i && (pair_i || wide_i || !rd_col_q[0]);
        we_odd[k] = rd_i && line_i && 3'(k) < win_h_i && (pair_i || wide_i || rd_col_q[0]);
      end
      wdata_even[k*TAP +: TAP] = !buffer_takes_read(k) ? even[((k + 1) % LB)*TAP +: TAP]
                               : k >= HR ? hi_taps : taps_i;
      wdata_odd[k*TAP +: TAP] = !buffer_takes_read(k) ? odd[((k + 1) % LB)*TAP +: TAP]
                              : k >= HR ? hi_wtaps2 : pair_i || wide_i ? taps2_i : taps_i;
    end
    for (int unsigned ky = 0; ky < WH; ky++) begin
      column_o[ky*TAP +: TAP] =
          ky < LB && !takes_read(ky) ? (rd_col_q[0] && !wide_i ? odd[(ky % LB)*TAP +: TAP]
                                                                : even[(ky % LB)*TAP +: TAP])
          : ky >= HR ? hi_taps : taps_i;
      column2_o[ky*TAP +: TAP] = ky < LB && !takes_read(ky) ? odd[(ky % LB)*TAP +: TAP]
                               : ky >= HR ? hi_taps2 : taps2_i;
    end
  end
  for (genvar k = 0; k < LB; k++) begin : g_line
    opu_sdp_ram #(.WIDTH(TAP), .DEPTH(BANK_COLS)) u_even (
      .clk_i, .we_i(we_even[k]), .waddr_i(slot_q + waddr), .wdata_i(wdata_even[k*TAP +: TAP]),
      .raddr_i(slot_q + raddr),
      .rdata_o(even[k*TAP +: TAP])
    );
    opu_sdp_ram #(.WIDTH(TAP), .DEPTH(BANK_COLS)) u_odd (
      .clk_i, .we_i(we_odd[k]), .waddr_i(slot_q + waddr), .wdata_i(wdata_odd[k*TAP +: TAP]),
      .raddr_i(slot_q + raddr),
      .rdata_o(odd[k*TAP +: TAP])
    );
  end
endmodule
