// The load engine: rows x cols units from DRAM (rows dram_stride bytes
// apart, each row contiguous) into one buffer, inside a frame of zero
// units (the padding never crosses the bus). A unit is one beat of L bytes
// for the feature map, CO beats for weights (one with `diagonal`: the
// weight buffer spreads it over the row), CO x 8 / L beats for params.
// With zeros_y / zeros_x the units read land step_y = zeros_y + 1 rows and
// step_x = zeros_x + 1 units apart, zeros between (a transposed
// convolution's zero-inserted input).
// Three walkers run at once: one issues read requests as fast as DRAM takes
// them, one writes the responses (in request order) to their units, and one
// writes zeros to the frame's units, yielding the write port to responses.
// They start a cycle after the instruction (setup_q): the frame's width and
// height are registered first, then the products with them (the first unit,
// a row of reads' step), so that no path holds two of them.
// A compact feature-map pixel (`granules` x CO bytes, granules of a beat's
// GN = L / CO) shares its beat with others: the load reads each row as the
// aligned beats that hold it, a queue of granules (2 GN) collects their
// useful ones, and a pixel is written a cycle once its granules are there
// (its lanes past them zero). Requests are paced to the writes by credits
// (granules per cycle, at most GN + granules - 1 banked), so that the
// granules in the queue never exceed 2 GN: beats issued over any n cycles
// carry at most granules x (n - 1) + GN + granules - 1 of them, the writes
// take granules a cycle.
`include "opu_field.svh"
module opu_load
(
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  opu_pkg::word_t                insn_i,
  output logic                 done_o,
  output logic                 dram_wait_o,
  output logic                 rd_req_valid_o,
  output logic [31:0]          rd_req_addr_o,
  input  logic                 rd_req_ready_i,
  input  logic                 rd_rsp_valid_i,
  input  logic [opu_pkg::BEAT_BITS-1:0] rd_rsp_data_i,
  output logic [2:0]           we_o,        // one-hot: feature map, weights, params
  output logic [31:0]          waddr_o,
  output logic [7:0]           wbeat_o,
  output logic                 wzero_o,
  output logic                 wdiag_o,     // spread the beat over a weight row's CO beats
  output logic [opu_pkg::BEAT_BITS-1:0] wdata_o,
  output logic [63:0]          bytes_o
);
  localparam int unsigned GN = opu_pkg::L / opu_pkg::CO;  // granules a beat
  localparam int unsigned GB = 8 * opu_pkg::CO;           // bits of a granule
  localparam int unsigned CW = $clog2(3 * GN + 1);        // a count of granules
  localparam int unsigned LW = $clog2(opu_pkg::L);
  logic          compact_q;
  logic [1:0]    gran_q;
  // A compact row's bytes; each row's beats and useful granules are
  // worked out a beat ahead, in registers, from the row's first byte's
  // place in its beat (no path adds, compares and shifts in one cycle).
  localparam int unsigned RW = opuc_isa_pkg::LOAD_COLS_WIDTH + 2 + $clog2(opu_pkg::CO) + 1;
  logic [RW-1:0] row_bytes_q, rq_left_q, rs_bytes_q;
  logic [LW-1:0] rs_off_q;               // the response row's first byte in its beat
  logic          rs_last_q;              // the next response is its row's last beat
  logic [CW-1:0] rs_lo_q, rs_useful_q;   // its useful granules: [lo, lo + useful)
  logic [CW-1:0] credit_q, cap_q, gcnt_q, have, useful;
  logic [2*GN*GB-1:0] gbuf_q;            // the queue of granules, oldest first
  logic [3*GN*GB-1:0] cat, part;
  logic [opu_pkg::BEAT_BITS-1:0] pixel;
  logic          emit, data_we, req_fire;
  logic        active_q, setup_q, diagonal_q;
  logic [1:0]  buffer_q;
  logic [31:0] rows_q, cols_q, stride_q, beats_q;
  // The frame's units (on-chip addresses, sizes and places in it) are as
  // wide as the instruction's on-chip address.
  localparam int unsigned UW = opuc_isa_pkg::LOAD_SRAM_ADDR_WIDTH;
  logic [UW-1:0] sram_q, pitch_q, height_q, pad_left_q, step_x_q, step_y_q, row_step_q;
  // Requests.
  logic [31:0] rq_r_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q;
  // Responses.
  logic [31:0] rs_r_q, rs_c_q, rs_b_q;
  logic [UW-1:0] rs_row_unit_q, rs_unit_q;
  // The zero frame; on it, the next row that holds units read (and how
  // many such rows are left), and on such a row the next unit read.
  logic [UW-1:0] zy_q, zx_q, zrow_unit_q, zrow_q, zcol_q, next_zx;
  logic [31:0] zrows_left_q, zcols_left_q;
  logic        skip_unit;
  logic        data_rows, req_more, rsp_more, zero_more, middle, zero_write;

  // a k, for a k of a few bits: the sum of a's shifts, in adders rather
  // than a DSP slice (an unregistered one would be the path's whole budget).
  function automatic logic [UW-1:0] times(input logic [UW-1:0] a, input logic [3:0] k);
    times = '0;
    for (int unsigned i = 0; i < 4; i++) times = times + ((a << i) & {UW{k[i]}});
  endfunction

  // A compact row of `bytes` whose first byte is byte `off` of its beat:
  // its beats.
  function automatic logic [RW-1:0] row_beats(input logic [LW-1:0] off, input logic [RW-1:0] bytes);
    row_beats = (RW'(off) + bytes + RW'(opu_pkg::L - 1)) >> LW;
  endfunction
  // A response beat with `bytes` of its row from its first byte on, its
  // useful granules from `lo`: {bytes, whether it is the row's last beat,
  // lo, the useful granules}.
  function automatic logic [RW+2*CW:0] beat(input logic [RW-1:0] bytes, input logic [CW-1:0] lo);
    logic [CW-1:0] hi;
    hi = bytes >= RW'(opu_pkg::L) ? CW'(GN) : CW'(32'(bytes) / opu_pkg::CO);
    beat = {bytes, bytes <= RW'(opu_pkg::L), lo, hi - lo};
  endfunction
  function automatic logic [RW+2*CW:0] row_start(input logic [LW-1:0] off,
                                                  input logic [RW-1:0] bytes);
    row_start = beat(RW'(off) + bytes, CW'(32'(off) / opu_pkg::CO));
  endfunction
  function automatic logic [RW+2*CW:0] beat_after(input logic [RW-1:0] bytes);
    beat_after = beat(bytes - RW'(opu_pkg::L), '0);
  endfunction

  assign data_rows = rows_q != 0 && cols_q != 0;
  assign req_more = active_q && data_rows && rq_r_q < rows_q;
  assign rsp_more = active_q && data_rows && rs_r_q < rows_q;
  assign zero_more = active_q && zy_q < height_q;
  assign middle = zrows_left_q != 0 && zy_q == zrow_q;
  assign zero_write = zero_more && zx_q < pitch_q && !data_we;

  // Compact pixels: the beats of a row, from the one of its first byte.
  assign useful = rd_rsp_valid_i ? rs_useful_q : '0;
  assign have = gcnt_q + useful;
  always_comb begin
    part = (3*GN*GB)'(rd_rsp_data_i) >> (GB * 32'(rs_lo_q));
    for (int unsigned g = 0; g < 3 * GN; g++)
      if (32'(g) >= 32'(useful)) part[GB*g +: GB] = '0;
    cat = (3*GN*GB)'(gbuf_q) | (part << (GB * 32'(gcnt_q)));
    pixel = '0;
    for (int unsigned g = 0; g < GN; g++)
      if (32'(g) < 32'(gran_q)) pixel[GB*g +: GB] = cat[GB*g +: GB];
  end
  assign emit = compact_q && rsp_more && have >= CW'(gran_q);
  assign data_we = compact_q ? emit : rd_rsp_valid_i && rsp_more;
  assign req_fire = rd_req_valid_o && rd_req_ready_i;
  // Past a unit read: one unit (zeros between) or the row's whole run of them.
  assign skip_unit = middle && step_x_q != 1 && zcols_left_q != 0 && zx_q + 1'b1 == zcol_q;
  assign next_zx = (middle && step_x_q == 1 && zx_q + 1'b1 == pad_left_q) ? pad_left_q + UW'(cols_q) :
                   skip_unit ? zx_q + UW'(2) : zx_q + 1'b1;

  assign rd_req_valid_o = req_more && (!compact_q || credit_q >= CW'(GN));
  assign rd_req_addr_o = (compact_q ? rq_row_q & ~32'(opu_pkg::L - 1) : rq_row_q) + rq_off_q;
  assign dram_wait_o = active_q && rsp_more && !data_we;

  always_comb begin
    we_o = '0;
    waddr_o = '0;
    wbeat_o = '0;
    wzero_o = 1'b0;
    wdiag_o = 1'b0;
    wdata_o = compact_q ? pixel : rd_rsp_data_i;
    if (data_we) begin
      we_o[buffer_q] = 1'b1;
      waddr_o = 32'(rs_unit_q);
      wbeat_o = rs_b_q[7:0];
      wdiag_o = diagonal_q;
    end else if (zero_write) begin
      we_o[buffer_q] = 1'b1;
      waddr_o = 32'(UW'(zrow_unit_q + zx_q));
      wzero_o = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      diagonal_q <= 1'b0;
      done_o <= 1'b0;
      bytes_o <= '0;
      {setup_q, buffer_q, rows_q, cols_q, stride_q, pitch_q, height_q, beats_q, pad_left_q} <= '0;
      {sram_q, step_x_q, step_y_q, row_step_q} <= '0;
      {zrow_q, zrows_left_q, zcol_q, zcols_left_q} <= '0;
      {rq_r_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q} <= '0;
      {rs_r_q, rs_c_q, rs_b_q, rs_row_unit_q, rs_unit_q} <= '0;
      {zy_q, zx_q, zrow_unit_q} <= '0;
      {compact_q, gran_q, row_bytes_q, credit_q, cap_q, gcnt_q, gbuf_q} <= '0;
      {rq_left_q, rs_bytes_q, rs_off_q, rs_last_q, rs_lo_q, rs_useful_q} <= '0;
    end else begin
      done_o <= 1'b0;
      if (start_i) begin
        // The instruction's fields, and its frame's width and height; the
        // products with them wait a cycle (setup_q), so that no path holds
        // two multiplies (docs/rtl.md, Timing budget).
        logic [UW-1:0] cols, sx, sy;
        logic          first_middle;
        logic [1:0]    buffer;
        buffer = `OPU_FIELD(insn_i, LOAD_BUFFER);
        cols = UW'(`OPU_FIELD(insn_i, LOAD_COLS));
        sx = UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_X)) + 1'b1;
        sy = UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_Y)) + 1'b1;
        first_middle = `OPU_FIELD(insn_i, LOAD_PAD_TOP) == 0 && `OPU_FIELD(insn_i, LOAD_ROWS) != 0 &&
                       `OPU_FIELD(insn_i, LOAD_COLS) != 0;
        setup_q <= 1'b1;
        buffer_q <= buffer;
        rows_q <= 32'(`OPU_FIELD(insn_i, LOAD_ROWS));
        cols_q <= 32'(`OPU_FIELD(insn_i, LOAD_COLS));
        stride_q <= 32'(`OPU_FIELD(insn_i, LOAD_DRAM_STRIDE));
        // (cols - 1) sx + 1 units read a row (a unit, then sx - 1 zeros before the next).
        pitch_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_LEFT)) + UW'(`OPU_FIELD(insn_i, LOAD_PAD_RIGHT)) +
                   (cols == 0 ? '0 : times(cols, 4'(sx)) - UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_X)));
        height_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_TOP)) + UW'(`OPU_FIELD(insn_i, LOAD_PAD_BOTTOM)) +
                    (`OPU_FIELD(insn_i, LOAD_ROWS) == 0 ? '0 :
                     times(UW'(`OPU_FIELD(insn_i, LOAD_ROWS)), 4'(sy)) -
                     UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_Y)));
        sram_q <= UW'(`OPU_FIELD(insn_i, LOAD_SRAM_ADDR));
        step_x_q <= sx;
        step_y_q <= sy;
        diagonal_q <= `OPU_FIELD(insn_i, LOAD_DIAGONAL);
        compact_q <= buffer == opuc_isa_pkg::LOAD_BUFFER_FEATURE_MAP &&
                     `OPU_FIELD(insn_i, LOAD_GRANULES) != 0;
        gran_q <= `OPU_FIELD(insn_i, LOAD_GRANULES);
        row_bytes_q <= RW'(times(cols, 4'(`OPU_FIELD(insn_i, LOAD_GRANULES)))) * RW'(opu_pkg::CO);
        cap_q <= CW'(GN) + CW'(`OPU_FIELD(insn_i, LOAD_GRANULES)) - 1'b1;
        credit_q <= CW'(GN) + CW'(`OPU_FIELD(insn_i, LOAD_GRANULES)) - 1'b1;
        gcnt_q <= '0;
        gbuf_q <= '0;
        rs_off_q <= LW'(`OPU_FIELD(insn_i, LOAD_DRAM_ADDR));
        beats_q <= `OPU_FIELD(insn_i, LOAD_DIAGONAL) ? 32'd1 :
                   buffer == opuc_isa_pkg::LOAD_BUFFER_WEIGHTS ? opu_pkg::WGT_BEATS :
                   buffer == opuc_isa_pkg::LOAD_BUFFER_PARAMS  ? opu_pkg::PARAM_BEATS :
                                                                 opu_pkg::FM_BEATS;
        pad_left_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_LEFT));
        {rq_r_q, rq_c_q, rq_b_q, rq_off_q} <= '0;
        rq_row_q <= `OPU_FIELD(insn_i, LOAD_DRAM_ADDR);
        {rs_r_q, rs_c_q, rs_b_q} <= '0;
        zy_q <= '0;
        zrow_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_TOP));
        zrows_left_q <= cols == 0 ? '0 : 32'(`OPU_FIELD(insn_i, LOAD_ROWS));
        // The first row of the frame holds units read only without top
        // padding; then its first unit may be one.
        if (first_middle && `OPU_FIELD(insn_i, LOAD_PAD_LEFT) == 0) begin
          zx_q <= sx == 1 ? cols : UW'(1);
          zcol_q <= sx;
          zcols_left_q <= 32'(cols) - 1;
        end else begin
          zx_q <= '0;
          zcol_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_LEFT));
          zcols_left_q <= 32'(cols);
        end
        zrow_unit_q <= UW'(`OPU_FIELD(insn_i, LOAD_SRAM_ADDR));
      end else if (setup_q) begin
        // The first unit read: pad_top rows of the frame in, pad_left units
        // along; the units of a row of reads, step_y rows of the frame.
        setup_q <= 1'b0;
        active_q <= 1'b1;
        rs_row_unit_q <= sram_q + pad_left_q + times(pitch_q, 4'(zrow_q));
        rs_unit_q <= sram_q + pad_left_q + times(pitch_q, 4'(zrow_q));
        row_step_q <= times(pitch_q, 4'(step_y_q));
        rq_left_q <= row_beats(rs_off_q, row_bytes_q);
        {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= row_start(rs_off_q, row_bytes_q);
      end else if (active_q) begin
        if (compact_q) begin
          logic [CW:0] credit;
          credit = (CW+1)'(credit_q) - (req_fire ? (CW+1)'(GN) : '0) + (CW+1)'(gran_q);
          credit_q <= credit > (CW+1)'(cap_q) ? cap_q : CW'(credit);
        end
        if (compact_q && req_fire) begin
          rq_off_q <= rq_off_q + opu_pkg::BEAT_BYTES;
          if (rq_left_q != RW'(1)) begin
            rq_left_q <= rq_left_q - 1'b1;
          end else begin
            rq_r_q <= rq_r_q + 1;
            rq_row_q <= rq_row_q + stride_q;
            rq_off_q <= '0;
            rq_left_q <= row_beats(LW'(rq_row_q + stride_q), row_bytes_q);
          end
        end else if (req_fire) begin
          rq_off_q <= rq_off_q + opu_pkg::BEAT_BYTES;
          if (rq_b_q + 1 < beats_q) begin
            rq_b_q <= rq_b_q + 1;
          end else begin
            rq_b_q <= '0;
            if (rq_c_q + 1 < cols_q) begin
              rq_c_q <= rq_c_q + 1;
            end else begin
              rq_c_q <= '0;
              rq_r_q <= rq_r_q + 1;
              rq_row_q <= rq_row_q + stride_q;
              rq_off_q <= '0;
            end
          end
        end
        if (compact_q) begin
          gcnt_q <= have - (emit ? CW'(gran_q) : '0);
          gbuf_q <= (2*GN*GB)'(emit ? cat >> (GB * 32'(gran_q)) : cat);
          if (rd_rsp_valid_i) begin
            if (!rs_last_q) begin
              {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= beat_after(rs_bytes_q);
            end else begin
              rs_off_q <= rs_off_q + LW'(stride_q);
              {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= row_start(rs_off_q + LW'(stride_q), row_bytes_q);
            end
          end
        end
        if (data_we) begin
          // The instruction's bytes, as the functional simulator counts them.
          bytes_o <= bytes_o + (compact_q ? 64'(gran_q) * opu_pkg::CO : 64'(opu_pkg::BEAT_BYTES));
          if (rs_b_q + 1 < beats_q) begin
            rs_b_q <= rs_b_q + 1;
          end else begin
            rs_b_q <= '0;
            if (rs_c_q + 1 < cols_q) begin
              rs_c_q <= rs_c_q + 1;
              rs_unit_q <= rs_unit_q + step_x_q;
            end else begin
              rs_c_q <= '0;
              rs_r_q <= rs_r_q + 1;
              rs_row_unit_q <= rs_row_unit_q + row_step_q;
              rs_unit_q <= rs_row_unit_q + row_step_q;
            end
          end
        end
        if (zero_more && !data_we) begin
          if (zx_q < pitch_q) begin
            zx_q <= next_zx;
            if (skip_unit) begin
              zcol_q <= zcol_q + step_x_q;
              zcols_left_q <= zcols_left_q - 1;
            end
          end else begin
            logic [UW-1:0] y, row;
            logic [31:0] left;
            logic        next_middle;
            y = zy_q + 1'b1;
            row = middle ? zrow_q + step_y_q : zrow_q;
            left = middle ? zrows_left_q - 1 : zrows_left_q;
            next_middle = left != 0 && y == row;
            zy_q <= y;
            zrow_q <= row;
            zrows_left_q <= left;
            zrow_unit_q <= zrow_unit_q + pitch_q;
            zx_q <= (next_middle && pad_left_q == 0) ? (step_x_q == 1 ? UW'(cols_q) : UW'(1)) : '0;
            zcol_q <= (next_middle && pad_left_q == 0) ? step_x_q : pad_left_q;
            zcols_left_q <= (next_middle && pad_left_q == 0) ? cols_q - 1 : cols_q;
          end
        end
        if (!req_more && !rsp_more && !zero_more) begin
          active_q <= 1'b0;
          done_o <= 1'b1;
        end
      end
    end
  end
endmodule
