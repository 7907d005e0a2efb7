// The pool stage: for each pooled pixel, the max or the sum of the taps of
// its window that lie inside the source tile (window (oy, ox) starts at
// (oy * stride_y - pad_y, ox * stride_x - pad_x)), one tap read a cycle; with
// `accumulate`, the pooled entry's old value is read first and combined too
// (a window spread over tiles). Each tap's value is registered as it leaves
// the accumulator and combined the cycle after: the read port's choice of
// RAMs, the 48-bit combine and the write port's choice are too long a path
// for one cycle (docs/rtl.md, Timing budget). The pooled entry is written
// two cycles after its last tap is read.
//
// No path multiplies or clamps on its way to the read address (docs/rtl.md,
// Timing budget): the windows come from a generator two registers ahead of
// the walk, one a cycle. Its first register steps the window's place (rows
// by adding stride_y x src_cols, a product taken once an instruction);
// its second holds the window clamped to the tile: the address of its first
// tap and its rows and columns. The walk reads a window's taps by adding 1,
// or src_cols at a row's end, and takes the next window with its last tap.
// So the first tap is read two cycles later than a walk that computed its
// window in place would read it (the estimator's kPoolSetupCycles), and the
// windows follow one another without a gap.
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
  output logic                  tap_o  // a tap read this cycle (opu_compute counts them)
);
  // Entries are counted modulo 2^AW, which the accumulator's address keeps.
  localparam int unsigned AW = opu_pkg::ACC_AW;
  localparam int unsigned NW = opuc_isa_pkg::POOL_SRC_COLS_WIDTH;  // a count of rows or columns
  localparam int unsigned SW = NW + 2;  // a window's edge, maybe in padding (signed)

  logic [AW-1:0] src, src_cols, row_step_q;
  logic          is_sum, accumulate, running;
  // The generator's first register: window (oy, ox) at rows [wy, wye) and
  // columns [wx, wxe), and the address row wy would have (src + wy
  // src_cols, meant only once wy >= 0).
  logic          g0_valid_q, g0_step;
  logic [NW-1:0] ox_q, oy_q;
  logic signed [SW-1:0] wx_q, wy_q, wxe_q, wye_q;
  logic [AW-1:0] vbase_q;
  // Its second: the window clamped to the tile.
  logic          g1_valid_q, take;
  logic [AW-1:0] g1_addr_q;
  logic [NW-1:0] g1_cols_q, g1_rows_q;  // the taps' columns and rows, less one
  // The walk: the tap read now (or the pooled entry, first, with
  // `accumulate`), the first tap of its row, the taps left on the row and the
  // rows left after it.
  logic          busy_q, reading_dst_q, first_q, tap, last_tap;
  logic [AW-1:0] addr_q, row_addr_q, dst_q;
  logic [NW-1:0] cols_q, xleft_q, yleft_q;
  // s1: a tap's read came back; s2: its value registered, combined.
  logic          s1_valid_q, s1_first_q, s1_last_q, s2_valid_q, s2_first_q, s2_last_q;
  logic [AW-1:0] s1_dst_q, s2_dst_q;
  logic [opu_pkg::ENTRY_BITS-1:0] tap_q, run_q, combined;

  // a b modulo 2^AW, in adders rather than a DSP slice.
  function automatic logic [AW-1:0] times(input logic [AW-1:0] a, input logic [AW-1:0] b);
    times = '0;
    for (int unsigned i = 0; i < AW; i++) times = times + ((a << i) & {AW{b[i]}});
  endfunction
  function automatic logic signed [SW-1:0] field(input logic [NW-1:0] v);
    field = SW'(v);
  endfunction

  assign src = AW'(`OPU_FIELD(insn_i, POOL_SRC_ADDR));
  assign src_cols = AW'(`OPU_FIELD(insn_i, POOL_SRC_COLS));
  assign is_sum = `OPU_FIELD(insn_i, POOL_SUM);
  assign accumulate = `OPU_FIELD(insn_i, POOL_ACCUMULATE);

  assign tap = busy_q && !reading_dst_q;
  assign last_tap = tap && xleft_q == '0 && yleft_q == '0;
  assign tap_o = tap && !start_i;
  assign take = g1_valid_q && (!busy_q || last_tap);
  assign g0_step = g0_valid_q && (!g1_valid_q || take);
  assign running = g0_valid_q || g1_valid_q || busy_q;
  assign acc_raddr_o = 32'(AW'(reading_dst_q ? dst_q : addr_q));

  always_comb begin
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] run, v;
      run = run_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
      v = tap_q[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS];
      if (s2_first_q) combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = v;
      else if (is_sum) combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = run + v;
      else combined[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = v > run ? v : run;
    end
  end
  assign acc_we_o = s2_valid_q && s2_last_q;
  assign acc_waddr_o = 32'(s2_dst_q);
  assign acc_wdata_o = combined;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {s1_valid_q, s1_first_q, s1_last_q, s1_dst_q, done_o} <= '0;
      {s2_valid_q, s2_first_q, s2_last_q, s2_dst_q} <= '0;
      tap_q <= '0;
      {g0_valid_q, ox_q, oy_q, wx_q, wy_q, wxe_q, wye_q, vbase_q, row_step_q} <= '0;
      {g1_valid_q, g1_addr_q, g1_cols_q, g1_rows_q} <= '0;
      {busy_q, reading_dst_q, first_q, addr_q, row_addr_q, dst_q, cols_q, xleft_q, yleft_q} <= '0;
      run_q <= '0;
    end else begin
      done_o <= 1'b0;
      s1_valid_q <= busy_q;
      s1_first_q <= reading_dst_q || (!accumulate && first_q);
      s1_last_q <= last_tap;
      s1_dst_q <= dst_q;
      s2_valid_q <= s1_valid_q;
      s2_first_q <= s1_first_q;
      s2_last_q <= s1_last_q;
      s2_dst_q <= s1_dst_q;
      if (s1_valid_q) tap_q <= acc_rdata_i;
      if (s2_valid_q) run_q <= combined;
      if (start_i) begin
        logic [AW-1:0] pad_y;
        pad_y = AW'(`OPU_FIELD(insn_i, POOL_PAD_Y));
        g0_valid_q <= `OPU_FIELD(insn_i, POOL_OUT_ROWS) != 0 && `OPU_FIELD(insn_i, POOL_OUT_COLS) != 0;
        done_o <= `OPU_FIELD(insn_i, POOL_OUT_ROWS) == 0 || `OPU_FIELD(insn_i, POOL_OUT_COLS) == 0;
        {ox_q, oy_q} <= '0;
        wx_q <= -(SW'(`OPU_FIELD(insn_i, POOL_PAD_X)));
        wy_q <= -(SW'(`OPU_FIELD(insn_i, POOL_PAD_Y)));
        wxe_q <= field(`OPU_FIELD(insn_i, POOL_SIZE_X)) - SW'(`OPU_FIELD(insn_i, POOL_PAD_X));
        wye_q <= field(`OPU_FIELD(insn_i, POOL_SIZE_Y)) - SW'(`OPU_FIELD(insn_i, POOL_PAD_Y));
        vbase_q <= src - times(src_cols, pad_y);
        row_step_q <= times(src_cols, AW'(`OPU_FIELD(insn_i, POOL_STRIDE_Y)));
        g1_valid_q <= 1'b0;
        busy_q <= 1'b0;
        reading_dst_q <= 1'b0;
        dst_q <= AW'(`OPU_FIELD(insn_i, POOL_DST_ADDR));
      end else begin
        // The generator: window (oy, ox) clamped to the tile, then the next.
        if (g0_step) begin
          logic [NW-1:0] x0, x1, y0, y1;
          x0 = wx_q < 0 ? '0 : NW'(wx_q);
          y0 = wy_q < 0 ? '0 : NW'(wy_q);
          x1 = wxe_q < field(`OPU_FIELD(insn_i, POOL_SRC_COLS)) ? NW'(wxe_q) :
                                                                  `OPU_FIELD(insn_i, POOL_SRC_COLS);
          y1 = wye_q < field(`OPU_FIELD(insn_i, POOL_SRC_ROWS)) ? NW'(wye_q) :
                                                                  `OPU_FIELD(insn_i, POOL_SRC_ROWS);
          g1_addr_q <= (wy_q < 0 ? src : vbase_q) + AW'(x0);
          g1_cols_q <= x1 + ~x0;  // x1 - x0 - 1
          g1_rows_q <= y1 + ~y0;
          if (ox_q + 1'b1 == `OPU_FIELD(insn_i, POOL_OUT_COLS)) begin
            ox_q <= '0;
            wx_q <= -(SW'(`OPU_FIELD(insn_i, POOL_PAD_X)));
            wxe_q <= field(`OPU_FIELD(insn_i, POOL_SIZE_X)) - SW'(`OPU_FIELD(insn_i, POOL_PAD_X));
            oy_q <= oy_q + 1'b1;
            wy_q <= wy_q + field(`OPU_FIELD(insn_i, POOL_STRIDE_Y));
            wye_q <= wye_q + field(`OPU_FIELD(insn_i, POOL_STRIDE_Y));
            vbase_q <= vbase_q + row_step_q;
            if (oy_q + 1'b1 == `OPU_FIELD(insn_i, POOL_OUT_ROWS)) g0_valid_q <= 1'b0;
          end else begin
            ox_q <= ox_q + 1'b1;
            wx_q <= wx_q + field(`OPU_FIELD(insn_i, POOL_STRIDE_X));
            wxe_q <= wxe_q + field(`OPU_FIELD(insn_i, POOL_STRIDE_X));
          end
        end
        if (g0_step) g1_valid_q <= 1'b1;
        else if (take) g1_valid_q <= 1'b0;
        // The walk.
        if (take) begin
          busy_q <= 1'b1;
          reading_dst_q <= accumulate;
          first_q <= 1'b1;
          addr_q <= g1_addr_q;
          row_addr_q <= g1_addr_q;
          cols_q <= g1_cols_q;
          xleft_q <= g1_cols_q;
          yleft_q <= g1_rows_q;
        end else if (last_tap) begin
          busy_q <= 1'b0;
        end else if (reading_dst_q) begin
          reading_dst_q <= 1'b0;
        end else if (tap) begin
          first_q <= 1'b0;
          if (xleft_q != '0) begin
            xleft_q <= xleft_q - 1'b1;
            addr_q <= addr_q + 1'b1;
          end else begin
            xleft_q <= cols_q;
            yleft_q <= yleft_q - 1'b1;
            row_addr_q <= row_addr_q + src_cols;
            addr_q <= row_addr_q + src_cols;
          end
        end
        if (last_tap) dst_q <= dst_q + 1'b1;
      end
      if (s2_valid_q && !s1_valid_q && !running) done_o <= 1'b1;
    end
  end
endmodule
