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
// The writers' frame is worked out as the request walker takes the
// instruction, in two registered steps, so that no path holds two products:
// its width first (pitch_pre_q), then its height, first unit and row step,
// queued with the fields the writers read (a frame word, FW bits) in the
// cycle after start_i (insn_i still holds the instruction then: the shell
// starts none in the cycle after a start). The writers start on the frame
// word they take, a cycle later than they would on the instruction, which
// DRAM's latency hides.
// A compact feature-map pixel (`granules` x CO bytes, granules of a beat's
// GN = L / CO) shares its beat with others: the load reads each row as the
// aligned beats that hold it, a queue of granules (2 GN) collects their
// useful ones, and a pixel is written a cycle once its granules are there
// (its lanes past them zero). Requests are paced to the writes by credits
// (granules per cycle, at most GN + granules - 1 banked), so that the
// granules in the queue never exceed 2 GN: beats issued over any n cycles
// carry at most granules x (n - 1) + GN + granules - 1 of them, the writes
// take granules a cycle.
// With PAIRS (the feature-map buffer in even and odd banks) a compact load
// without zeros between its units writes two pixels of a row a cycle, the
// second at the unit after the first (wpair_o), once both pixels' granules
// are there; its requests are paced to 2 x granules a cycle (at most GN +
// 2 granules - 1 banked), and a response is taken while the queue has room
// for it after this cycle's pixels.
// An interleaved load (an i16's plane) writes the frame's unit k to row
// sram_addr + 2k, one unit a cycle: the rows between are the other plane's.
`include "opu_field.svh"
module opu_load
#(
  parameter int unsigned IN_FLIGHT = 4,  // instructions taken and not written; a power of two
  parameter int unsigned PAIRS = 0       // the feature-map buffer takes two units a cycle
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
  output logic                 wpair_o,     // also wdata_next_o at waddr_next_o = waddr_o + 1
  output logic [31:0]          waddr_next_o,
  output logic [opu_pkg::BEAT_BITS-1:0] wdata_next_o,
  output logic [63:0]          bytes_o
);
  localparam int unsigned GN = opu_pkg::L / opu_pkg::CO;  // granules a beat
  localparam int unsigned GB = 8 * opu_pkg::CO;           // bits of a granule
  localparam int unsigned CW = $clog2(3 * GN + 1);        // a count of granules
  localparam int unsigned LW = $clog2(opu_pkg::L);
  // Rows read (a count of them, and of those done, up to the field's all ones).
  localparam int unsigned NW = opuc_isa_pkg::LOAD_ROWS_WIDTH;
  localparam int unsigned CLW = opuc_isa_pkg::LOAD_COLS_WIDTH;
  localparam int unsigned PW = opuc_isa_pkg::LOAD_PAD_LEFT_WIDTH;
  localparam int unsigned SW = opuc_isa_pkg::LOAD_ZEROS_X_WIDTH + 1;  // a step of units
  logic          next_empty, take, finishing, rsp_take, fits;
  logic          compact_q;
  logic [1:0]    gran_q;
  // A compact row's bytes; each row's beats and useful granules are
  // worked out a beat ahead, in registers, from the row's first byte's
  // place in its beat (no path adds, compares and shifts in one cycle).
  localparam int unsigned RW = opuc_isa_pkg::LOAD_COLS_WIDTH + 2 + $clog2(opu_pkg::CO) + 1;
  logic [RW-1:0] row_bytes_q, rs_bytes_q;
  logic [LW-1:0] rs_off_q;               // the response row's first byte in its beat
  logic          rs_last_q;              // the next response is its row's last beat
  logic [CW-1:0] rs_lo_q, rs_useful_q;   // its useful granules: [lo, lo + useful)
  logic [CW-1:0] gcnt_q, have_if, gcnt_if, gcnt_else;
  logic [NW-1:0] rr_q;                   // compact rows whose beats have all come
  logic [2*GN*GB-1:0] gbuf_q, gbuf_if, gbuf_else;  // the queue of granules, oldest first
  logic [3*GN*GB-1:0] cat_if, cat, part;
  logic [opu_pkg::BEAT_BITS-1:0] pixel, pixel2;
  logic          emit, emit_if, emit_else, data_we;
  // The row's units left to write (rs_left_q); pairs: the load may write
  // them (pair_q), two of the row's pixels are left, and this cycle writes one.
  logic          pair_q, pair_can, emit2, emit2_if, emit2_else;
  logic [CW-1:0] gran2, took_if, took_else;
  logic [63:0]   bytes_one, bytes_pair;
  logic [opuc_isa_pkg::LOAD_COLS_WIDTH-1:0] rs_left_q;
  logic        active_q, diagonal_q, interleave_q;
  logic [UW-1:0] sram_q;  // the frame's first unit, where an interleaved load spreads from
  logic [1:0]  buffer_q;
  logic [NW-1:0] rows_q;
  logic [31:0] cols_q, beats_q;
  logic [LW-1:0] stride_q;               // the row stride's bytes past whole beats
  // The frame's units (on-chip addresses, sizes and places in it) are as
  // wide as the instruction's on-chip address.
  localparam int unsigned UW = opuc_isa_pkg::LOAD_SRAM_ADDR_WIDTH;
  logic [UW-1:0] pitch_q, height_q, pad_left_q, step_x_q, step_y_q, row_step_q;
  // The loads taken, for the writers, as frame words: the head is the next
  // they take. pitch_pre_q is the width of the load start_i took.
  localparam int unsigned SPAN = RW + 2 * CW + 1;  // a compact row's first beat (`beat`)
  localparam int unsigned FW = 1 + 2 + 1 + 1 + 2 + NW + CLW + LW + 5 * UW + 2 * PW + 2 * SW + RW +
                               LW + SPAN + 1;
  logic [FW-1:0] frame_in, next_frame;
  logic [$clog2(IN_FLIGHT):0] next_count_unused;
  logic          pre_q;
  logic [UW-1:0] pitch_pre_q;
  // The head's fields.
  logic [1:0]    f_buffer, f_gran;
  logic          f_interleave, f_diagonal, f_compact, f_first_whole;
  logic [NW-1:0] f_rows;
  logic [CLW-1:0] f_cols;
  logic [LW-1:0] f_stride, f_off;
  logic [UW-1:0] f_pitch, f_height, f_sram, f_row_step, f_first_unit;
  logic [PW-1:0] f_pad_left, f_pad_top;
  logic [SW-1:0] f_sx, f_sy;
  logic [RW-1:0] f_row_bytes;
  logic [SPAN-1:0] f_span;
  // Requests, of the instruction the request walker has taken: its rows
  // of cols units of beats beats, or compact rows of row_bytes (each row's
  // beats a row ahead: rq_left_q), paced by credits.
  logic          rq_compact_q, rq_pair_q, req_fire, req_more;
  logic [1:0]    rq_gran_q;
  logic [CW-1:0] credit_q, cap_q;
  logic [RW-1:0] rq_row_bytes_q, rq_left_q;
  logic [NW-1:0] rq_rows_q, rq_r_q;
  logic [31:0]   rq_cols_q, rq_beats_q, rq_stride_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q;
  // Responses.
  logic [NW-1:0] rs_r_q;
  logic [31:0] rs_b_q;
  logic [UW-1:0] rs_row_unit_q, rs_unit_q;
  // The zero frame; on it, the next row that holds units read (and how
  // many such rows are left), and on such a row the next unit read.
  logic [UW-1:0] zy_q, zx_q, zrow_unit_q, zrow_q, zcol_q, next_zx;
  logic [31:0] zrows_left_q, zcols_left_q;
  logic        skip_unit;
  logic        data_rows, rsp_more, zero_more, middle, zero_write;

  // a k, for a k of a few bits: the sum of a's shifts, in adders rather
  // than a DSP slice (an unregistered one would be the path's whole budget).
  function automatic logic [UW-1:0] times(input logic [UW-1:0] a, input logic [3:0] k);
    times = '0;
    for (int unsigned i = 0; i < 4; i++) times = times + ((a << i) & {UW{k[i]}});
  endfunction

  // A compact row's bytes: cols pixels of gran granules.
  function automatic logic [RW-1:0] compact_row_bytes(input logic [UW-1:0] cols,
                                                      input logic [1:0] gran);
    compact_row_bytes = RW'(times(cols, 4'(gran))) * RW'(opu_pkg::CO);
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

  // The cycle after start_i: the frame word of its load, from its width
  // (pitch_pre_q) and the compact row's bytes the request walker took.
  always_comb begin
    logic [3:0] sy;
    sy = 4'(`OPU_FIELD(insn_i, LOAD_ZEROS_Y)) + 1'b1;
    frame_in = {
      `OPU_FIELD(insn_i, LOAD_INTERLEAVE), `OPU_FIELD(insn_i, LOAD_BUFFER), `OPU_FIELD(insn_i, LOAD_DIAGONAL), rq_compact_q,
      `OPU_FIELD(insn_i, LOAD_GRANULES), `OPU_FIELD(insn_i, LOAD_ROWS), `OPU_FIELD(insn_i, LOAD_COLS),
      LW'(`OPU_FIELD(insn_i, LOAD_DRAM_STRIDE)), pitch_pre_q,
      // The height: rows read sy apart, and the padding.
      UW'(`OPU_FIELD(insn_i, LOAD_PAD_TOP)) + UW'(`OPU_FIELD(insn_i, LOAD_PAD_BOTTOM)) +
          (`OPU_FIELD(insn_i, LOAD_ROWS) == 0 ? '0 :
           times(UW'(`OPU_FIELD(insn_i, LOAD_ROWS)), sy) - UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_Y))),
      UW'(`OPU_FIELD(insn_i, LOAD_SRAM_ADDR)),
      times(pitch_pre_q, sy),  // the units of a row of reads: step_y rows of the frame
      // The first unit read: pad_top rows of the frame in, pad_left units along.
      UW'(`OPU_FIELD(insn_i, LOAD_SRAM_ADDR)) + UW'(`OPU_FIELD(insn_i, LOAD_PAD_LEFT)) +
          times(pitch_pre_q, 4'(`OPU_FIELD(insn_i, LOAD_PAD_TOP))),
      `OPU_FIELD(insn_i, LOAD_PAD_LEFT), `OPU_FIELD(insn_i, LOAD_PAD_TOP),
      SW'(`OPU_FIELD(insn_i, LOAD_ZEROS_X)) + 1'b1, SW'(sy), rq_row_bytes_q,
      LW'(`OPU_FIELD(insn_i, LOAD_DRAM_ADDR)),
      row_start(LW'(`OPU_FIELD(insn_i, LOAD_DRAM_ADDR)), rq_row_bytes_q),
      // The frame's first row holds units read, the first of them its first unit.
      `OPU_FIELD(insn_i, LOAD_PAD_TOP) == 0 && `OPU_FIELD(insn_i, LOAD_ROWS) != 0 &&
          `OPU_FIELD(insn_i, LOAD_COLS) != 0 && `OPU_FIELD(insn_i, LOAD_PAD_LEFT) == 0
    };
  end

  opu_fifo #(.WIDTH(FW), .DEPTH(IN_FLIGHT)) u_taken (
    .clk_i, .rst_ni, .clear_i(1'b0), .push_i(pre_q), .data_i(frame_in), .pop_i(take), .head_o(next_frame),
    .empty_o(next_empty), .count_o(next_count_unused)
  );
  assign {f_interleave, f_buffer, f_diagonal, f_compact, f_gran, f_rows, f_cols, f_stride, f_pitch, f_height,
          f_sram, f_row_step, f_first_unit, f_pad_left, f_pad_top, f_sx, f_sy, f_row_bytes, f_off,
          f_span, f_first_whole} = next_frame;

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

  // A response is taken when the queue has room for its granules after
  // this cycle's pixel (always, unless responses bunched after a wait):
  // have_if - gran <= 2 GN once a pixel's granules are there, and below
  // gran <= GN it fits anyway, so have_if <= 2 GN + gran says it.
  assign have_if = gcnt_q + rs_useful_q;
  assign gran2 = CW'(gran_q) << 1;
  assign pair_can = pair_q && rs_left_q > 1;
  assign fits = (CW+1)'(have_if) <= (CW+1)'(2 * GN) + (pair_can ? (CW+1)'(gran2) : (CW+1)'(gran_q));
  // (A compact load's pixels may still be written after its last beat came:
  // the beats after it are the next load's.)
  assign rd_rsp_ready_o = rsp_more && (!compact_q || (rr_q < rows_q && fits));
  assign rsp_take = rd_rsp_valid_i && rd_rsp_ready_o;
  // The queue after this cycle's response, worked out from registers as if
  // the response were taken and as if not, so that taking it (the DRAM's
  // valid and the queue's room) is the last choice before the registers.
  always_comb begin
    part = (3*GN*GB)'(rd_rsp_data_i) >> (GB * 32'(rs_lo_q));
    for (int unsigned g = 0; g < 3 * GN; g++)
      if (32'(g) >= 32'(rs_useful_q)) part[GB*g +: GB] = '0;
    cat_if = (3*GN*GB)'(gbuf_q) | (part << (GB * 32'(gcnt_q)));
    cat = rsp_take ? cat_if : (3*GN*GB)'(gbuf_q);
    pixel = '0;
    pixel2 = '0;
    for (int unsigned g = 0; g < GN; g++)
      if (32'(g) < 32'(gran_q)) begin
        pixel[GB*g +: GB] = cat[GB*g +: GB];
        pixel2[GB*g +: GB] = cat[GB*(g + 32'(gran_q)) +: GB];
      end
  end
  assign emit_if = compact_q && rsp_more && have_if >= CW'(gran_q);
  assign emit_else = compact_q && rsp_more && gcnt_q >= CW'(gran_q);
  assign emit2_if = pair_can && have_if >= gran2;
  assign emit2_else = pair_can && gcnt_q >= gran2;
  assign emit = rsp_take ? emit_if : emit_else;
  assign emit2 = emit && (rsp_take ? emit2_if : emit2_else);
  assign took_if = emit2_if ? gran2 : emit_if ? CW'(gran_q) : '0;
  assign took_else = emit2_else ? gran2 : emit_else ? CW'(gran_q) : '0;
  assign gcnt_if = have_if - took_if;
  assign gcnt_else = gcnt_q - took_else;
  assign gbuf_if = (2*GN*GB)'(cat_if >> (GB * 32'(took_if)));
  assign gbuf_else = (2*GN*GB)'((3*GN*GB)'(gbuf_q) >> (GB * 32'(took_else)));
  assign data_we = compact_q ? emit : rsp_take;
  // The bytes written, as the functional simulator counts them: both sums
  // from registers, a pair's chosen last (emit2 comes late in the cycle).
  assign bytes_one = bytes_o + (compact_q ? 64'(gran_q) * opu_pkg::CO : 64'(opu_pkg::BEAT_BYTES));
  assign bytes_pair = bytes_o + 64'(gran_q) * (2 * opu_pkg::CO);
  assign req_fire = rd_req_valid_o && rd_req_ready_i;
  // Past a unit read: one unit (zeros between) or the row's whole run of them.
  assign skip_unit = middle && step_x_q != 1 && zcols_left_q != 0 && zx_q + 1'b1 == zcol_q;
  assign next_zx = (middle && step_x_q == 1 && zx_q + 1'b1 == pad_left_q) ? pad_left_q + UW'(cols_q) :
                   skip_unit ? zx_q + UW'(2) : zx_q + 1'b1;

  assign rd_req_valid_o = req_more && (!rq_compact_q || credit_q >= CW'(GN));
  assign rd_req_addr_o = (rq_compact_q ? rq_row_q & ~32'(opu_pkg::L - 1) : rq_row_q) + rq_off_q;
  assign dram_wait_o = active_q && rsp_more && !data_we;

  // The row of the frame's unit a: 2a - sram_addr for an interleaved load.
  function automatic logic [31:0] spread(input logic [31:0] a);
    spread = interleave_q ? (a << 1) - 32'(sram_q) : a;
  endfunction

  always_comb begin
    we_o = '0;
    waddr_o = '0;
    wbeat_o = '0;
    wzero_o = 1'b0;
    wdiag_o = 1'b0;
    wdata_o = compact_q ? pixel : rd_rsp_data_i;
    wpair_o = 1'b0;
    waddr_next_o = 32'(UW'(rs_unit_q + 1'b1));
    wdata_next_o = pixel2;
    // The buffer's bit by comparison, not we_o[buffer_q]: Yosys writes a
    // variable index on the left as a shift by its 32-bit negation, a
    // carry chain in front of the store's fm write ready (opu_top).
    if (data_we || zero_write)
      for (int unsigned b = 0; b < 3; b++) we_o[b] = buffer_q == 2'(b);
    if (data_we) begin
      waddr_o = spread(32'(rs_unit_q));
      wbeat_o = rs_b_q[7:0];
      wdiag_o = diagonal_q;
      wpair_o = emit2;
    end else if (zero_write) begin
      waddr_o = spread(32'(UW'(zrow_unit_q + zx_q)));
      wzero_o = 1'b1;
    end
  end

  // The frame's width as the request walker takes the load: (cols - 1) sx
  // + 1 units read a row (a unit, then sx - 1 zeros before the next) and
  // the padding. Its frame word is queued a cycle later.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pre_q <= 1'b0;
      pitch_pre_q <= '0;
    end else begin
      pre_q <= start_i;
      if (start_i) begin
        logic [UW-1:0] cols;
        logic [3:0]    sx;
        cols = UW'(`OPU_FIELD(insn_i, LOAD_COLS));
        sx = 4'(`OPU_FIELD(insn_i, LOAD_ZEROS_X)) + 1'b1;
        pitch_pre_q <= UW'(`OPU_FIELD(insn_i, LOAD_PAD_LEFT)) + UW'(`OPU_FIELD(insn_i, LOAD_PAD_RIGHT)) +
                       (cols == 0 ? '0 : times(cols, sx) - UW'(`OPU_FIELD(insn_i, LOAD_ZEROS_X)));
      end
    end
  end

  // The request walker: its instruction's fields as it takes it, a
  // compact row's beats (a shifted add, then an add) among them.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {rq_compact_q, rq_pair_q, rq_gran_q, credit_q, cap_q, rq_row_bytes_q, rq_left_q} <= '0;
      {rq_rows_q, rq_cols_q, rq_beats_q, rq_stride_q} <= '0;
      {rq_r_q, rq_c_q, rq_b_q, rq_row_q, rq_off_q} <= '0;
    end else if (start_i) begin
      logic [1:0]    buffer;
      logic [RW-1:0] row_bytes;
      logic [CW-1:0] paced;  // granules a cycle: a pixel's, or a pair's
      logic          compact, pair;
      buffer = `OPU_FIELD(insn_i, LOAD_BUFFER);
      compact = buffer == opuc_isa_pkg::LOAD_BUFFER_FEATURE_MAP &&
                `OPU_FIELD(insn_i, LOAD_GRANULES) != 0;
      pair = PAIRS > 0 && compact && `OPU_FIELD(insn_i, LOAD_ZEROS_X) == 0 &&
             !`OPU_FIELD(insn_i, LOAD_INTERLEAVE);
      paced = CW'(`OPU_FIELD(insn_i, LOAD_GRANULES)) << pair;
      row_bytes = compact_row_bytes(UW'(`OPU_FIELD(insn_i, LOAD_COLS)),
                                    `OPU_FIELD(insn_i, LOAD_GRANULES));
      rq_rows_q <= `OPU_FIELD(insn_i, LOAD_ROWS);
      rq_cols_q <= 32'(`OPU_FIELD(insn_i, LOAD_COLS));
      rq_stride_q <= 32'(`OPU_FIELD(insn_i, LOAD_DRAM_STRIDE));
      rq_compact_q <= compact;
      rq_pair_q <= pair;
      rq_gran_q <= `OPU_FIELD(insn_i, LOAD_GRANULES);
      rq_row_bytes_q <= row_bytes;
      rq_left_q <= row_beats(LW'(`OPU_FIELD(insn_i, LOAD_DRAM_ADDR)), row_bytes);
      cap_q <= CW'(GN) + paced - 1'b1;
      credit_q <= CW'(GN) + paced - 1'b1;
      rq_beats_q <= `OPU_FIELD(insn_i, LOAD_DIAGONAL) ? 32'd1 :
                    buffer == opuc_isa_pkg::LOAD_BUFFER_WEIGHTS ? opu_pkg::WGT_BEATS :
                    buffer == opuc_isa_pkg::LOAD_BUFFER_PARAMS  ? opu_pkg::PARAM_BEATS :
                                                                  opu_pkg::FM_BEATS;
      {rq_r_q, rq_c_q, rq_b_q, rq_off_q} <= '0;
      rq_row_q <= `OPU_FIELD(insn_i, LOAD_DRAM_ADDR);
    end else begin
      if (rq_compact_q) begin
        logic [CW:0] credit;
        credit = (CW+1)'(credit_q) - (req_fire ? (CW+1)'(GN) : '0) +
                 ((CW+1)'(rq_gran_q) << rq_pair_q);
        credit_q <= credit > (CW+1)'(cap_q) ? cap_q : CW'(credit);
      end
      if (rq_compact_q && req_fire) begin
        rq_off_q <= rq_off_q + opu_pkg::BEAT_BYTES;
        if (rq_left_q != RW'(1)) begin
          rq_left_q <= rq_left_q - 1'b1;
        end else begin
          rq_r_q <= rq_r_q + 1'b1;
          rq_row_q <= rq_row_q + rq_stride_q;
          rq_off_q <= '0;
          rq_left_q <= row_beats(LW'(rq_row_q + rq_stride_q), rq_row_bytes_q);
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
            rq_r_q <= rq_r_q + 1'b1;
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
      {rs_r_q, rs_b_q, rs_row_unit_q, rs_unit_q} <= '0;
      {zy_q, zx_q, zrow_unit_q} <= '0;
      {compact_q, pair_q, rs_left_q, gran_q, row_bytes_q, gcnt_q, gbuf_q, rr_q} <= '0;
      {interleave_q, sram_q} <= '0;
      {rs_bytes_q, rs_off_q, rs_last_q, rs_lo_q, rs_useful_q} <= '0;
    end else begin
      done_o <= finishing;
      if (take) begin
        active_q <= 1'b1;
        buffer_q <= f_buffer;
        rows_q <= f_rows;
        cols_q <= 32'(f_cols);
        stride_q <= f_stride;
        pitch_q <= f_pitch;
        height_q <= f_height;
        step_x_q <= UW'(f_sx);
        step_y_q <= UW'(f_sy);
        row_step_q <= f_row_step;
        diagonal_q <= f_diagonal;
        compact_q <= f_compact;
        pair_q <= PAIRS > 0 && f_compact && f_sx == 1 && !f_interleave;
        interleave_q <= f_interleave;
        sram_q <= f_sram;
        rs_left_q <= f_cols;
        gran_q <= f_gran;
        row_bytes_q <= f_row_bytes;
        gcnt_q <= '0;
        gbuf_q <= '0;
        rr_q <= '0;
        rs_off_q <= f_off;
        {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= f_span;
        beats_q <= f_diagonal ? 32'd1 :
                   f_buffer == opuc_isa_pkg::LOAD_BUFFER_WEIGHTS ? opu_pkg::WGT_BEATS :
                   f_buffer == opuc_isa_pkg::LOAD_BUFFER_PARAMS  ? opu_pkg::PARAM_BEATS :
                                                                   opu_pkg::FM_BEATS;
        pad_left_q <= UW'(f_pad_left);
        {rs_r_q, rs_b_q} <= '0;
        rs_row_unit_q <= f_first_unit;
        rs_unit_q <= f_first_unit;
        zy_q <= '0;
        zrow_q <= UW'(f_pad_top);
        zrows_left_q <= f_cols == 0 ? '0 : 32'(f_rows);
        // The first row of the frame holds units read only without top
        // padding; then its first unit may be one.
        if (f_first_whole) begin
          zx_q <= f_sx == 1 ? UW'(f_cols) : UW'(1);
          zcol_q <= UW'(f_sx);
          zcols_left_q <= 32'(f_cols) - 1;
        end else begin
          zx_q <= '0;
          zcol_q <= UW'(f_pad_left);
          zcols_left_q <= 32'(f_cols);
        end
        zrow_unit_q <= f_sram;
      end else if (finishing) begin
        active_q <= 1'b0;
      end else if (active_q) begin
        if (compact_q) begin
          gcnt_q <= rsp_take ? gcnt_if : gcnt_else;
          gbuf_q <= rsp_take ? gbuf_if : gbuf_else;
          if (rsp_take) begin
            if (!rs_last_q) begin
              {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= beat_after(rs_bytes_q);
            end else begin
              rr_q <= rr_q + 1'b1;
              rs_off_q <= rs_off_q + stride_q;
              {rs_bytes_q, rs_last_q, rs_lo_q, rs_useful_q} <= row_start(rs_off_q + stride_q, row_bytes_q);
            end
          end
        end
        if (data_we) begin
          bytes_o <= emit2 ? bytes_pair : bytes_one;
          if (rs_b_q + 1 < beats_q) begin
            rs_b_q <= rs_b_q + 1;
          end else begin
            rs_b_q <= '0;
            // rs_left_q counts the row's pixels left; a pair takes two.
            if (rs_left_q > (emit2 ? 2 : 1)) begin
              rs_left_q <= rs_left_q - (emit2 ? 2 : 1);
              rs_unit_q <= rs_unit_q + (emit2 ? UW'(2) : step_x_q);
            end else begin
              rs_left_q <= CLW'(cols_q);
              rs_r_q <= rs_r_q + 1'b1;
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
      end
    end
  end
endmodule
