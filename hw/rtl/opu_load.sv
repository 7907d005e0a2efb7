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
// Loads in flight: the request walker takes the next instruction as soon as
// it has asked for the last beat of the one before (accept_o), so a chain of
// small loads waits out the DRAM latency once; the instructions it has
// taken queue (IN_FLIGHT of them) for the writers, which take them in order
// and finish each (done_o) before the next. A response the writers cannot
// take yet (the instruction before still writing zeros or pixels) waits in
// DRAM: rd_rsp_ready_o is low.
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
#(
  parameter int unsigned IN_FLIGHT = 4  // instructions taken and not written; a power of two
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 start_i,
  input  opu_pkg::word_t                insn_i,
  output logic                 accept_o,    // may start another instruction
  output logic                 done_o,      // the oldest instruction is written
  output logic                 dram_wait_o,
  output logic                 rd_req_valid_o,
  output logic [31:0]          rd_req_addr_o,
  input  logic                 rd_req_ready_i,
  input  logic                 rd_rsp_valid_i,
  output logic                 rd_rsp_ready_o,
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
  // The instructions taken, for the writers; the head is the next they take.
  opu_pkg::word_t next_insn;
  logic [$clog2(IN_FLIGHT):0] next_count_unused;
  logic          next_empty, take, finishing, rsp_take, fits;
  logic          compact_q;
  logic [1:0]    gran_q;
  logic [31:0]   row_bytes_q;            // a compact row's bytes
  logic [CW-1:0] gcnt_q, have, have_if, lo, hi, useful;
  logic [2*GN*GB-1:0] gbuf_q;            // the queue of granules, oldest first
  logic [3*GN*GB-1:0] cat, part;
  logic [opu_pkg::BEAT_BITS-1:0] pixel;
  logic [31:0]   rs_beats, rs_row_addr_q, rb_q, rb_left;
  logic [31:0]   rr_q;                   // compact rows whose beats have all come
  logic          emit, data_we;
  logic        active_q, diagonal_q;
  logic [1:0]  buffer_q;
  logic [31:0] rows_q, cols_q, stride_q, pitch_q, height_q, beats_q;
  logic [31:0] pad_left_q, step_x_q, step_y_q, row_step_q;
  // Requests, of the instruction the request walker has taken: its rows
  // of cols units of beats beats, or compact rows of row_bytes, paced by
  // credits.
  logic          rq_compact_q, req_fire, req_more;
  logic [1:0]    rq_gran_q;
  logic [CW-1:0] credit_q, cap_q;
  logic [31:0]   rq_rows_q, rq_cols_q, rq_beats_q, rq_stride_q, rq_row_bytes_q, rq_beats;
  logic [31:0]   rq_r_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q;
  // Responses.
  logic [31:0] rs_r_q, rs_c_q, rs_b_q, rs_row_unit_q, rs_unit_q;
  // The zero frame; on it, the next row that holds units read (and how
  // many such rows are left), and on such a row the next unit read.
  logic [31:0] zy_q, zx_q, zrow_unit_q, zrow_q, zrows_left_q, zcol_q, zcols_left_q;
  logic        skip_unit;
  logic        data_rows, rsp_more, zero_more, middle, zero_write;
  logic [31:0] next_zx;

  // A compact row's bytes: cols pixels of gran granules (an add of shifts,
  // not a multiplier: the request walker and the writers each need it).
  function automatic logic [31:0] compact_row_bytes(input logic [31:0] cols,
                                                    input logic [1:0] gran);
    compact_row_bytes = ((gran[0] ? cols : '0) + (gran[1] ? cols << 1 : '0)) * opu_pkg::CO;
  endfunction

  opu_fifo #(.WIDTH(opu_pkg::WORD_BITS), .DEPTH(IN_FLIGHT)) u_taken (
    .clk_i, .rst_ni, .push_i(start_i), .data_i(insn_i), .pop_i(take), .head_o(next_insn),
    .empty_o(next_empty), .count_o(next_count_unused)
  );

  assign req_more = rq_r_q < rq_rows_q && rq_cols_q != 0;
  assign accept_o = !req_more;
  assign data_rows = rows_q != 0 && cols_q != 0;
  assign rsp_more = active_q && data_rows && rs_r_q < rows_q;
  assign zero_more = active_q && zy_q < height_q;
  // The writers finish an instruction, and take the next one in that cycle.
  assign finishing = active_q && !rsp_more && !zero_more;
  assign take = !next_empty && (!active_q || finishing);
  assign middle = zrows_left_q != 0 && zy_q == zrow_q;
  assign zero_write = zero_more && zx_q < pitch_q && !data_we;

  // Compact pixels: the beats of a row, from the one of its first byte.
  assign rq_beats = ((rq_row_q & 32'(opu_pkg::L - 1)) + rq_row_bytes_q + 32'(opu_pkg::L - 1)) >> LW;
  assign rs_beats = ((rs_row_addr_q & 32'(opu_pkg::L - 1)) + row_bytes_q + 32'(opu_pkg::L - 1)) >> LW;
  // A response's useful granules [lo, hi): from the row's first on its
  // first beat, to the row's last on its last.
  assign rb_left = ((rs_row_addr_q & 32'(opu_pkg::L - 1)) + row_bytes_q) / opu_pkg::CO - rb_q * GN;
  assign lo = rb_q == 0 ? CW'((rs_row_addr_q & 32'(opu_pkg::L - 1)) / opu_pkg::CO) : '0;
  assign hi = rb_left < GN ? CW'(rb_left) : CW'(GN);
  // A response is taken when the queue has room for its granules after
  // this cycle's pixel (always, unless responses bunched after a wait).
  assign have_if = gcnt_q + hi - lo;
  assign fits = (have_if >= CW'(gran_q) ? have_if - CW'(gran_q) : have_if) <= CW'(2 * GN);
  // (A compact load's pixels may still be written after its last beat came:
  // the beats after it are the next load's.)
  assign rd_rsp_ready_o = rsp_more && (!compact_q || (rr_q < rows_q && fits));
  assign rsp_take = rd_rsp_valid_i && rd_rsp_ready_o;
  assign useful = rsp_take ? hi - lo : '0;
  assign have = gcnt_q + useful;
  always_comb begin
    part = (3*GN*GB)'(rd_rsp_data_i) >> (GB * 32'(lo));
    for (int unsigned g = 0; g < 3 * GN; g++)
      if (32'(g) >= 32'(useful)) part[GB*g +: GB] = '0;
    cat = (3*GN*GB)'(gbuf_q) | (part << (GB * 32'(gcnt_q)));
    pixel = '0;
    for (int unsigned g = 0; g < GN; g++)
      if (32'(g) < 32'(gran_q)) pixel[GB*g +: GB] = cat[GB*g +: GB];
  end
  assign emit = compact_q && rsp_more && have >= CW'(gran_q);
  assign data_we = compact_q ? emit : rsp_take;
  assign req_fire = rd_req_valid_o && rd_req_ready_i;
  // Past a unit read: one unit (zeros between) or the row's whole run of them.
  assign skip_unit = middle && step_x_q != 1 && zcols_left_q != 0 && zx_q + 1 == zcol_q;
  assign next_zx = (middle && step_x_q == 1 && zx_q + 1 == pad_left_q) ? pad_left_q + cols_q :
                   skip_unit ? zx_q + 2 : zx_q + 1;

  assign rd_req_valid_o = req_more && (!rq_compact_q || credit_q >= CW'(GN));
  assign rd_req_addr_o = (rq_compact_q ? rq_row_q & ~32'(opu_pkg::L - 1) : rq_row_q) + rq_off_q;
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
      waddr_o = rs_unit_q;
      wbeat_o = rs_b_q[7:0];
      wdiag_o = diagonal_q;
    end else if (zero_write) begin
      we_o[buffer_q] = 1'b1;
      waddr_o = zrow_unit_q + zx_q;
      wzero_o = 1'b1;
    end
  end

  // The request walker.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {rq_compact_q, rq_gran_q, credit_q, cap_q} <= '0;
      {rq_rows_q, rq_cols_q, rq_beats_q, rq_stride_q, rq_row_bytes_q} <= '0;
      {rq_r_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q} <= '0;
    end else if (start_i) begin
      logic [1:0] buffer;
      buffer = `OPU_FIELD(insn_i, LOAD_BUFFER);
      rq_rows_q <= 32'(`OPU_FIELD(insn_i, LOAD_ROWS));
      rq_cols_q <= 32'(`OPU_FIELD(insn_i, LOAD_COLS));
      rq_stride_q <= 32'(`OPU_FIELD(insn_i, LOAD_DRAM_STRIDE));
      rq_compact_q <= buffer == opuc_isa_pkg::LOAD_BUFFER_FEATURE_MAP &&
                      `OPU_FIELD(insn_i, LOAD_GRANULES) != 0;
      rq_gran_q <= `OPU_FIELD(insn_i, LOAD_GRANULES);
      rq_row_bytes_q <= compact_row_bytes(32'(`OPU_FIELD(insn_i, LOAD_COLS)),
                                          `OPU_FIELD(insn_i, LOAD_GRANULES));
      cap_q <= CW'(GN) + CW'(`OPU_FIELD(insn_i, LOAD_GRANULES)) - 1'b1;
      credit_q <= CW'(GN) + CW'(`OPU_FIELD(insn_i, LOAD_GRANULES)) - 1'b1;
      rq_beats_q <= `OPU_FIELD(insn_i, LOAD_DIAGONAL) ? 32'd1 :
                    buffer == opuc_isa_pkg::LOAD_BUFFER_WEIGHTS ? opu_pkg::WGT_BEATS :
                    buffer == opuc_isa_pkg::LOAD_BUFFER_PARAMS  ? opu_pkg::PARAM_BEATS :
                                                                  opu_pkg::FM_BEATS;
      {rq_r_q, rq_c_q, rq_b_q, rq_off_q} <= '0;
      rq_row_q <= `OPU_FIELD(insn_i, LOAD_DRAM_ADDR);
    end else begin
      if (rq_compact_q) begin
        logic [CW:0] credit;
        credit = (CW+1)'(credit_q) - (req_fire ? (CW+1)'(GN) : '0) + (CW+1)'(rq_gran_q);
        credit_q <= credit > (CW+1)'(cap_q) ? cap_q : CW'(credit);
      end
      if (rq_compact_q && req_fire) begin
        rq_off_q <= rq_off_q + opu_pkg::BEAT_BYTES;
        if (rq_c_q + 1 < rq_beats) begin
          rq_c_q <= rq_c_q + 1;
        end else begin
          rq_c_q <= '0;
          rq_r_q <= rq_r_q + 1;
          rq_row_q <= rq_row_q + rq_stride_q;
          rq_off_q <= '0;
        end
      end else if (req_fire) begin
        rq_off_q <= rq_off_q + opu_pkg::BEAT_BYTES;
        if (rq_b_q + 1 < rq_beats_q) begin
          rq_b_q <= rq_b_q + 1;
        end else begin
          rq_b_q <= '0;
          if (rq_c_q + 1 < rq_cols_q) begin
            rq_c_q <= rq_c_q + 1;
          end else begin
            rq_c_q <= '0;
            rq_r_q <= rq_r_q + 1;
            rq_row_q <= rq_row_q + rq_stride_q;
            rq_off_q <= '0;
          end
        end
      end
    end
  end

  // The writers: responses and the zero frame, an instruction at a time.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q <= 1'b0;
      diagonal_q <= 1'b0;
      done_o <= 1'b0;
      bytes_o <= '0;
      {buffer_q, rows_q, cols_q, stride_q, pitch_q, height_q, beats_q, pad_left_q} <= '0;
      {step_x_q, step_y_q, row_step_q} <= '0;
      {zrow_q, zrows_left_q, zcol_q, zcols_left_q} <= '0;
      {rs_r_q, rs_c_q, rs_b_q, rs_row_unit_q, rs_unit_q} <= '0;
      {zy_q, zx_q, zrow_unit_q} <= '0;
      {compact_q, gran_q, row_bytes_q, gcnt_q, gbuf_q, rs_row_addr_q, rb_q, rr_q} <= '0;
    end else begin
      done_o <= finishing;
      if (take) begin
        logic [31:0] pitch, first_unit, pl, pt, rows, cols, sx, sy, spread_x, spread_y;
        logic        first_middle;
        logic [1:0]  buffer;
        buffer = `OPU_FIELD(next_insn, LOAD_BUFFER);
        pl = 32'(`OPU_FIELD(next_insn, LOAD_PAD_LEFT));
        pt = 32'(`OPU_FIELD(next_insn, LOAD_PAD_TOP));
        rows = 32'(`OPU_FIELD(next_insn, LOAD_ROWS));
        cols = 32'(`OPU_FIELD(next_insn, LOAD_COLS));
        sx = 32'(`OPU_FIELD(next_insn, LOAD_ZEROS_X)) + 1;
        sy = 32'(`OPU_FIELD(next_insn, LOAD_ZEROS_Y)) + 1;
        spread_x = cols == 0 ? '0 : (cols - 1) * sx + 1;
        spread_y = rows == 0 ? '0 : (rows - 1) * sy + 1;
        pitch = pl + spread_x + 32'(`OPU_FIELD(next_insn, LOAD_PAD_RIGHT));
        first_unit = 32'(`OPU_FIELD(next_insn, LOAD_SRAM_ADDR)) + pt * pitch + pl;
        first_middle = pt == 0 && rows != 0 && cols != 0;
        active_q <= 1'b1;
        buffer_q <= buffer;
        rows_q <= rows;
        cols_q <= cols;
        stride_q <= 32'(`OPU_FIELD(next_insn, LOAD_DRAM_STRIDE));
        pitch_q <= pitch;
        height_q <= pt + spread_y + 32'(`OPU_FIELD(next_insn, LOAD_PAD_BOTTOM));
        step_x_q <= sx;
        step_y_q <= sy;
        row_step_q <= pitch * sy;
        diagonal_q <= `OPU_FIELD(next_insn, LOAD_DIAGONAL);
        compact_q <= buffer == opuc_isa_pkg::LOAD_BUFFER_FEATURE_MAP &&
                     `OPU_FIELD(next_insn, LOAD_GRANULES) != 0;
        gran_q <= `OPU_FIELD(next_insn, LOAD_GRANULES);
        row_bytes_q <= compact_row_bytes(cols, `OPU_FIELD(next_insn, LOAD_GRANULES));
        gcnt_q <= '0;
        gbuf_q <= '0;
        rs_row_addr_q <= `OPU_FIELD(next_insn, LOAD_DRAM_ADDR);
        rb_q <= '0;
        rr_q <= '0;
        beats_q <= `OPU_FIELD(next_insn, LOAD_DIAGONAL) ? 32'd1 :
                   buffer == opuc_isa_pkg::LOAD_BUFFER_WEIGHTS ? opu_pkg::WGT_BEATS :
                   buffer == opuc_isa_pkg::LOAD_BUFFER_PARAMS  ? opu_pkg::PARAM_BEATS :
                                                                 opu_pkg::FM_BEATS;
        pad_left_q <= pl;
        {rs_r_q, rs_c_q, rs_b_q} <= '0;
        rs_row_unit_q <= first_unit;
        rs_unit_q <= first_unit;
        zy_q <= '0;
        zrow_q <= pt;
        zrows_left_q <= cols == 0 ? '0 : rows;
        // The first row of the frame holds units read only without top
        // padding; then its first unit may be one.
        zx_q <= (first_middle && pl == 0) ? (sx == 1 ? cols : 32'd1) : 32'd0;
        zcol_q <= (first_middle && pl == 0) ? sx : pl;
        zcols_left_q <= (first_middle && pl == 0) ? cols - 1 : cols;
        zrow_unit_q <= 32'(`OPU_FIELD(next_insn, LOAD_SRAM_ADDR));
      end else if (finishing) begin
        active_q <= 1'b0;
      end else if (active_q) begin
        if (compact_q) begin
          gcnt_q <= have - (emit ? CW'(gran_q) : '0);
          gbuf_q <= (2*GN*GB)'(emit ? cat >> (GB * 32'(gran_q)) : cat);
          if (rsp_take) begin
            if (rb_q + 1 < rs_beats) begin
              rb_q <= rb_q + 1;
            end else begin
              rb_q <= '0;
              rr_q <= rr_q + 1;
              rs_row_addr_q <= rs_row_addr_q + stride_q;
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
            logic [31:0] y, row, left;
            logic        next_middle;
            y = zy_q + 1;
            row = middle ? zrow_q + step_y_q : zrow_q;
            left = middle ? zrows_left_q - 1 : zrows_left_q;
            next_middle = left != 0 && y == row;
            zy_q <= y;
            zrow_q <= row;
            zrows_left_q <= left;
            zrow_unit_q <= zrow_unit_q + pitch_q;
            zx_q <= (next_middle && pad_left_q == 0) ? (step_x_q == 1 ? cols_q : 32'd1) : 32'd0;
            zcol_q <= (next_middle && pad_left_q == 0) ? step_x_q : pad_left_q;
            zcols_left_q <= (next_middle && pad_left_q == 0) ? cols_q - 1 : cols_q;
          end
        end
      end
    end
  end
endmodule
