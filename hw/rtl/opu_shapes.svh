// The shapes every module of hw/rtl shares, derived from the preset's values
// above them in the generated package opu_pkg (sim/rtl_config.cc writes the
// package and includes this file in it).
localparam int unsigned ACC_BITS = 48;     // numerics.md §1b: an i16 input's sum
localparam int unsigned BEAT_BYTES = L;    // one DRAM read: a feature-map unit
localparam int unsigned BEAT_BITS = 8 * BEAT_BYTES;
localparam int unsigned FM_BEATS = 1;
localparam int unsigned WGT_BEATS = CO;    // a weight unit is CO x L bytes
localparam int unsigned PARAM_BEATS = CO * 8 / L;
localparam int unsigned WGT_BITS = WGT_BEATS * BEAT_BITS;
localparam int unsigned PARAM_BITS = PARAM_BEATS * BEAT_BITS;
localparam int unsigned ENTRY_BITS = CO * ACC_BITS;
localparam int unsigned FM_AW = $clog2(FM_ROWS);
localparam int unsigned WGT_AW = WGT_ROWS > 1 ? $clog2(WGT_ROWS) : 1;
localparam int unsigned PARAM_AW = PARAM_ROWS > 1 ? $clog2(PARAM_ROWS) : 1;
localparam int unsigned ACC_AW = $clog2(ACC_ENTRIES);
localparam int unsigned WGT_BW = WGT_BEATS > 1 ? $clog2(WGT_BEATS) : 1;
localparam int unsigned PARAM_BW = PARAM_BEATS > 1 ? $clog2(PARAM_BEATS) : 1;
localparam int unsigned NUM_ENGINES = 3;
// The array's pipeline (opu_ipa.sv): the products' register, then an adder
// tree of IPA_LEVELS levels, two a register; a pixel's sums come IPA_STAGES
// cycles after its operands.
localparam int unsigned IPA_LEVELS = L > 1 ? $clog2(L) : 0;
localparam int unsigned IPA_STAGES = 1 + (IPA_LEVELS > 1 ? (IPA_LEVELS + 1) / 2 : 1);

// The depthwise window's registers (opu_gemm.sv): tap (ky, kx) feeds lane
// 8 ky + kx, so the lanes hold L / 8 kernel rows (one below 8 lanes) of up
// to 8 taps; Gemm.window_h reaches 8.
localparam int unsigned WIN_COLS = 8;
localparam int unsigned WIN_ROWS = L < 16 ? 1 : L / 8 < 8 ? L / 8 : 8;
// Its line buffers (opu_gemm.sv): one a kernel row above the window's last,
// LINE_COLS columns of CO bytes each; none without LINE_COLS.
localparam int unsigned LINE_BUFS = LINE_COLS > 1 ? WIN_ROWS - 1 : 0;
// The feature-map buffer in two banks, even and odd rows (opu_buffer.sv's
// PAIRS), where the window has line buffers: the window reads a pair of
// pixels a cycle at stride 2 (opu_gemm.sv), the load writes a pair of
// compact pixels a cycle (opu_load.sv).
localparam int unsigned FM_PAIRS = LINE_BUFS > 0 ? 1 : 0;
// The pooled entries a 2x2 max pool that ends a post pass keeps
// (opu_pool_tail.sv; OpuBufferUnits's kPoolTailEntries): a block RAM's
// depth, which costs no more block RAM than fewer.
localparam int unsigned POOL_TAIL_ENTRIES = 512;

typedef logic [WORD_BITS-1:0] word_t;
localparam int unsigned INDEX_BITS = 32;
typedef logic [INDEX_BITS-1:0] index_t;  // an instruction's place in the program

// A post stage's pipeline (opu_post_lanes.sv): operands, product or sum,
// the value to round, its shift, each behind a register; an entry leaves a stage
// POST_STAGE_CYCLES cycles after it entered.
localparam int unsigned POST_STAGE_CYCLES = 4;
// The lookup table's (opu_table.sv): the knots, the interpolation's product.
localparam int unsigned TABLE_CYCLES = 2;
// Average's (opu_average.sv): it runs alone, its pipeline its own.
localparam int unsigned AVERAGE_CYCLES = 7;
