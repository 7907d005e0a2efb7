//===- src/fsim/gemm.cc - The inner-product array ----------------------===//
//
// One instruction is one kernel tap over a tile of output pixels: each
// pixel's L feature-map lanes (signed or unsigned bytes) times the Co x L
// weight matrix, into the pixel's Co accumulator lanes. The high byte of
// an i16 input counts 256 times (numerics.md §1b: its two passes meet
// exactly in the 48-bit accumulator). In depthwise mode the reduction axis
// is a window of taps instead of the lanes: row j multiplies the window's
// bytes of one lane (its channel) by its taps' weights, tap (ky, kx) on
// lane 8 ky + kx (a fixed place for each tap: the RTL's window registers
// are wired to the lanes, docs/rtl.md). Where the window reads its rows
// through line buffers, they keep the last rows read (a slot of them a
// Gemm), and a Gemm with `carry` takes its windows' upper rows from there.
// Block pairs (init 3 at stride_x 2) take a second channel block, Co lanes
// on, in the window's rows and line buffers from units.WindowHalfRows().
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <vector>

#include "machine.h"

namespace opuc::fsim {
namespace {
constexpr int64_t kTapRow = 8;  // lanes from one kernel row of a depthwise window to the next

bool SameRows(const isa::GemmInsn& a, const isa::GemmInsn& b) {
  return a.line_slot == b.line_slot && a.out_cols == b.out_cols && a.stride_x == b.stride_x &&
         a.stride_y == b.stride_y && a.window_h == b.window_h && a.window_w == b.window_w &&
         a.lane == b.lane && a.pair_rows == b.pair_rows && a.operand == b.operand &&
         BlockPairs(a) == BlockPairs(b);
}

// The line slot's checks: it fits the line buffers, and a carry's rows are
// there, written by one Gemm of the same columns, lanes and window.
Status CheckLines(const Machine& m, const isa::GemmInsn& insn, bool lines) {
  if (!lines) {
    if (insn.line_slot != 0 || insn.carry)
      return m.Fail(
          Cat("line_slot and carry need a depthwise Gemm that reads its rows through "
              "the line buffers (",
              m.units.line_columns, " columns)"));
    return OkStatus();
  }
  const int64_t first = insn.line_slot * m.units.LineSlotColumns();
  const int64_t columns = GemmLineColumns(insn);
  if (first + columns > m.units.line_columns)
    return m.Fail(Cat("line_slot ", insn.line_slot, " keeps columns ", first, "..",
                      first + columns - 1, "; the line buffers have ", m.units.line_columns));
  if (!insn.carry) return OkStatus();
  if (insn.window_h == 0) return m.Fail("carry needs a window of two rows or more");
  const int64_t writer = m.line_writer[static_cast<size_t>(first)];
  for (int64_t c = first; c < first + columns; ++c)
    if (writer < 0 || m.line_writer[static_cast<size_t>(c)] != writer ||
        !SameRows(m.line_writers[static_cast<size_t>(writer)], insn))
      return m.Fail(Cat("carry: line slot ", insn.line_slot, "'s column ", c,
                        " does not hold rows of a Gemm with these columns, lanes, window and "
                        "blocks"));
  return OkStatus();
}

// What the Gemm leaves in the line buffers: each of the window's rows but
// the last takes the row the Gemm read (or, with carry, held) that many
// rows before the end; the rest keep theirs. Block pairs: the second
// block's from buffer WindowHalfRows() on (`read` holds the first block's
// rows, then the second's).
void KeepLines(Machine& m, const isa::GemmInsn& insn, const std::vector<int8_t>& read) {
  const int64_t Co = m.units.out_lanes, first = insn.line_slot * m.units.LineSlotColumns();
  const int64_t columns = GemmLineColumns(insn);
  const int64_t rows = WindowRowsRead(insn);
  m.line_writers.push_back(insn);
  for (int64_t c = first; c < first + columns; ++c)
    m.line_writer[static_cast<size_t>(c)] = static_cast<int64_t>(m.line_writers.size()) - 1;
  if (m.dry) return;
  const auto at = [&](int64_t k, int64_t c) {
    return static_cast<size_t>((k * m.units.line_columns + c) * Co);
  };
  std::vector<int8_t> kept(m.line);
  for (int64_t b = 0; b < (BlockPairs(insn) ? 2 : 1); ++b) {
    const int64_t base = b * m.units.WindowHalfRows();
    for (int64_t k = 0; k < insn.window_h; ++k) {
      const int64_t v = rows + k;  // of the window's rows held, then the rows read
      for (int64_t c = 0; c < columns; ++c)
        std::copy_n(
            v < insn.window_h
                ? &m.line[at(base + v, first + c)]
                : &read[static_cast<size_t>((((b * rows) + v - insn.window_h) * columns + c) * Co)],
            Co, &kept[at(base + k, first + c)]);
    }
  }
  m.line.swap(kept);
}
// What output pixels in pairs need (init PairsFromBias): i8 or u8 bytes at
// stride_x 1, pairs of output pixels in each row from an even entry, and
// two rows a read (the feature-map buffer's two banks). A depthwise Gemm
// reads its rows through the line buffers, its window's rows in the lanes
// below L / 2; a dense one reads pixel 2i's row and 2i + 1's, a pixel a row.
Status CheckPixelPairs(const Machine& m, const isa::GemmInsn& insn) {
  const int64_t L = m.units.lanes;
  if (insn.stride_x != 1)
    return m.Fail(Cat("init is 3 (output pixels in pairs) with stride_x ", insn.stride_x,
                      ": pairs are two neighbouring pixels, stride_x 1"));
  if (insn.operand != isa::GemmInsn::kI8 && insn.operand != isa::GemmInsn::kU8)
    return m.Fail(Cat("init is 3 (output pixels in pairs) with operand ", insn.operand,
                      ": pairs take i8 or u8 bytes"));
  if (insn.out_cols % 2 != 0 || insn.acc_addr % 2 != 0)
    return m.Fail(Cat("init is 3 (output pixels in pairs): out_cols ", insn.out_cols,
                      " and acc_addr ", insn.acc_addr, " must be even"));
  if (!m.units.fm_pairs)
    return m.Fail(
        "init is 3 (output pixels in pairs): the feature-map buffer has one bank, so a read "
        "returns no second row");
  if (!insn.depthwise) return OkStatus();
  if (WindowTapRow(insn, L) == 0)
    return m.Fail(Cat("init is 3 (output pixels in pairs): a window of ", insn.window_h + 1,
                      " rows takes more than the ", L / 2,
                      " lanes of a pixel's half (8 lanes a row; 6 only for 5 rows of 6 columns)"));
  if (!GemmUsesLines(insn, m.units.line_columns))
    return m.Fail(
        "init is 3 (output pixels in pairs): the Gemm must read its rows through the line "
        "buffers, a pair of pixels a cycle from the feature-map buffer's two banks");
  return OkStatus();
}

// What block pairs need (init 3 at stride_x 2): a depthwise window read
// through the line buffers a pair of pixels a cycle (an odd width, i8 or
// u8 bytes, the feature-map buffer's two banks), whose rows fit the lanes
// below L / 2 and whose second block's rows fit the window's rows and line
// buffers from WindowHalfRows(); both blocks' lanes in the row; the first
// block's entries in one of the accumulator's first two banks, the
// second's at the same offset in the other.
Status CheckBlockPairs(const Machine& m, const isa::GemmInsn& insn) {
  const int64_t L = m.units.lanes, Co = m.units.out_lanes, half = m.units.WindowHalfRows();
  const std::string what = "init is 3 at stride_x 2 (two channel blocks a Gemm)";
  if (!insn.depthwise || insn.pair_rows)
    return m.Fail(Cat(what, " takes a depthwise Gemm of one row a channel (pair_rows 0)"));
  if (!m.units.fm_pairs || !GemmUsesLines(insn, m.units.line_columns) || !GemmReadsPairs(insn))
    return m.Fail(Cat(what,
                      " reads a pair of pixels a cycle through the line buffers: i8 or u8 "
                      "bytes, an odd window width, rows of 2 to ",
                      m.units.line_columns, " pixels and a feature-map buffer of two banks"));
  if (insn.operand != isa::GemmInsn::kI8 && insn.operand != isa::GemmInsn::kU8)
    return m.Fail(Cat(what, " with operand ", insn.operand, ": it takes i8 or u8 bytes"));
  if ((insn.window_h + 1) * 8 > L / 2 || half + insn.window_h > m.units.line_buffers)
    return m.Fail(Cat(what, ": a window of ", insn.window_h + 1, " rows; each block's take ", half,
                      " rows of 8 lanes at most"));
  if (insn.lane + 2 * Co > L)
    return m.Fail(Cat(what, ": lane ", insn.lane, " and the ", 2 * Co,
                      " lanes of both blocks reach past lane ", L - 1));
  const int64_t a = insn.acc_addr, pixels = insn.out_rows * insn.out_cols;
  const int64_t bank1 = m.units.AccBank1(), sums = m.units.AccSumsBank();
  const bool first_bank = a + pixels <= bank1;
  if (!first_bank && !(a >= bank1 && a + pixels <= sums))
    return m.Fail(Cat(what, ": entries ", a, "..", a + pixels - 1,
                      " are not all in one of the accumulator's banks [0, ", bank1, ") and [",
                      bank1, ", ", sums, ")"));
  const int64_t b = m.units.StoreBlockEntry(a, 1);
  if (b + pixels > (first_bank ? sums : bank1))
    return m.Fail(Cat(what, ": the second block's entries, ", b, "..", b + pixels - 1,
                      " at the same offset in the other bank, reach past it"));
  return OkStatus();
}

}  // namespace

Status ExecGemm(Machine& m, const isa::GemmInsn& insn) {
  const int64_t L = m.units.lanes, Co = m.units.out_lanes;
  if (insn.init > isa::GemmInsn::kPairsFromBias)
    return m.Fail(Cat("init is ", insn.init, "; it is 0, 1, 2 or 3"));
  const int64_t pixels = insn.out_rows * insn.out_cols;
  if (pixels == 0) return OkStatus();
  // Output pixels in pairs: 2i from the lanes below L / 2, 2i + 1 from those
  // above; depthwise both over pixel 2i's window, dense 2i + 1's own row's
  // lanes below L / 2 meeting the weights L / 2 on.
  const bool block_pairs = BlockPairs(insn);
  const bool pairs = insn.init == isa::GemmInsn::kPairsFromBias && !block_pairs;
  if (pairs) OPUC_RETURN_IF_ERROR(CheckPixelPairs(m, insn));
  if (block_pairs) OPUC_RETURN_IF_ERROR(CheckBlockPairs(m, insn));
  const int64_t blocks = block_pairs ? 2 : 1;
  OPUC_RETURN_IF_ERROR(
      m.InRange("acc_addr", insn.acc_addr, pixels, m.units.acc_entries, "accumulator entry"));
  OPUC_RETURN_IF_ERROR(m.InRange("wgt_addr", insn.wgt_addr, 1, m.units.weight_rows, "weight row"));
  if (insn.init == isa::GemmInsn::kFromBias || insn.init == isa::GemmInsn::kPairsFromBias)
    OPUC_RETURN_IF_ERROR(
        m.InRange("param_addr", insn.param_addr, 1, m.units.param_rows, "param row"));
  // The window each pixel reads from its row p': 1 x 1 but in depthwise mode.
  const int64_t win_h = insn.depthwise ? insn.window_h + 1 : 1;
  const int64_t win_w = insn.depthwise ? insn.window_w + 1 : 1;
  const int64_t per_channel = insn.pair_rows ? 2 : 1;  // rows reading one lane
  // An i16 read whole: each pixel's row holds its high bytes, the next its
  // low; the window keeps them at taps kx and kx + 4.
  const bool whole_i16 = insn.operand == isa::GemmInsn::kI16;
  const int64_t px = PixelRows(insn);
  if (insn.depthwise && whole_i16 && win_w > kTapRow / 2)
    return m.Fail(Cat("a depthwise window of an i16 read whole is ", win_w,
                      " taps wide: its low bytes take the taps 4 further, so 4 at most"));
  if (whole_i16 && !m.units.fm_pairs)
    return m.Fail(
        "operand is 3 (an i16 in one pass): the feature-map buffer has one bank, so a read "
        "returns no second row");
  const int64_t reach = win_w + (whole_i16 ? kTapRow / 2 : 0);  // an i16's low bytes 4 further
  // Lanes from one kernel row to the next: 8, or 6 in packed pairs.
  const int64_t tap_row = pairs && insn.depthwise ? WindowTapRow(insn, L) : kTapRow;
  if (insn.depthwise && (win_h - 1) * kTapRow + reach > L)
    return m.Fail(Cat("a depthwise window of ", win_h, "x", win_w, " taps reaches lane ",
                      (win_h - 1) * kTapRow + reach - 1, ": the array has ", L));
  if (insn.depthwise && insn.lane + (Co - 1) / per_channel >= L)
    return m.Fail(Cat("lane is ", insn.lane, ": its ", Co, " rows read lanes past ", L - 1));
  if (const int64_t half = std::max<int64_t>(1, Co / 2); insn.depthwise && insn.lane % half != 0)
    return m.Fail(Cat("lane is ", insn.lane, "; it is a multiple of Co / 2 = ", half,
                      " (the array's rows take their channels half a granule at a time)"));
  const bool lines = GemmUsesLines(insn, m.units.line_columns);
  OPUC_RETURN_IF_ERROR(CheckLines(m, insn, lines));
  // Input rows read, from fm_addr: with carry, only the rows below those
  // its line slot holds.
  const int64_t rows_read =
      lines && insn.carry ? WindowRowsRead(insn) : (insn.out_rows - 1) * insn.stride_y + win_h;
  const int64_t last_fm = insn.fm_addr + (rows_read - 1) * insn.fm_pitch +
                          ((insn.out_cols - 1) * insn.stride_x + win_w) * px - 1;
  OPUC_RETURN_IF_ERROR(m.InRange("fm_addr", insn.fm_addr, last_fm - insn.fm_addr + 1,
                                 m.units.fm_rows, "feature-map row"));
  // The rows read as the line buffers take them: Co bytes a column (row j's
  // channel's), a pair's second column one past the row where it has one;
  // block pairs, the first block's rows, then the second's (Co lanes on).
  const int64_t columns = lines ? GemmLineColumns(insn) : 0;
  std::vector<int8_t> read;
  if (lines && !m.dry) {
    read.assign(static_cast<size_t>(blocks * rows_read * columns * Co), 0);
    for (int64_t b = 0; b < blocks; ++b)
      for (int64_t r = 0; r < rows_read; ++r)
        for (int64_t c = 0; c < columns; ++c) {
          const int64_t fm_row = insn.fm_addr + r * insn.fm_pitch + c;
          if (fm_row >= m.units.fm_rows) continue;  // a pair's second past the buffer
          for (int64_t j = 0; j < Co; ++j)
            read[static_cast<size_t>(((b * rows_read + r) * columns + c) * Co + j)] =
                m.fm[static_cast<size_t>(fm_row * L + insn.lane + b * Co + j / per_channel)];
        }
  }
  if (m.dry) {
    if (lines) KeepLines(m, insn, read);
    return OkStatus();  // checked; no data to move
  }
  const int8_t* w = &m.weight[static_cast<size_t>(insn.wgt_addr * Co * L)];
  const int64_t scale = insn.operand == isa::GemmInsn::kHigh ? 256 : 1;
  // With carry, window row ky of output row oy is row (oy + 1) stride_y - 1
  // + ky of the line slot's rows followed by the rows read (block b's).
  const int64_t slot = insn.line_slot * m.units.LineSlotColumns();
  const auto carried = [&](int64_t b, int64_t oy, int64_t ky, int64_t c, int64_t j) -> int8_t {
    const int64_t v = (oy + 1) * insn.stride_y - 1 + ky;
    if (v < insn.window_h)
      return m.line[static_cast<size_t>(
          ((b * m.units.WindowHalfRows() + v) * m.units.line_columns + slot + c) * Co + j)];
    return read[static_cast<size_t>(((b * rows_read + v - insn.window_h) * columns + c) * Co + j)];
  };
  // Block 1's entries: the other bank's at the same offset.
  const int64_t second =
      block_pairs ? m.units.StoreBlockEntry(insn.acc_addr, 1) - insn.acc_addr : 0;
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t oy = 0; oy < insn.out_rows; ++oy) {
      for (int64_t ox = 0; ox < insn.out_cols; ++ox) {
        // A depthwise pair's second reads its first's window on the lanes
        // L / 2 on; so does a block pair's second block.
        const int64_t origin = pairs && insn.depthwise ? ox - ox % 2 : ox;
        const int64_t half = (pairs && ox % 2 == 1) || b == 1 ? L / 2 : 0;
        const int64_t row =
            insn.fm_addr + oy * insn.stride_y * insn.fm_pitch + origin * insn.stride_x * px;
        const int8_t* x = &m.fm[static_cast<size_t>(row * L)];
        const int64_t entry = insn.acc_addr + b * second + oy * insn.out_cols + ox;
        int64_t* acc = &m.acc[static_cast<size_t>(entry * Co)];
        const auto value_of = [&](int8_t v) -> int64_t {
          return insn.operand == isa::GemmInsn::kU8 ? static_cast<uint8_t>(v) : v;
        };
        const auto byte = [&](int64_t at) -> int64_t {
          return whole_i16 ? x[at] * 256 + static_cast<uint8_t>(x[L + at]) : value_of(x[at]);
        };
        for (int64_t j = 0; j < Co; ++j) {
          int64_t sum = 0;
          if (insn.depthwise) {
            // Tap (ky, kx)'s byte of plane p (1: an i16's low bytes), from the
            // line slot and the rows read, or from the rows.
            const int64_t lane = insn.lane + b * Co + j / per_channel;
            const auto tap = [&](int64_t ky, int64_t kx, int64_t p) -> int8_t {
              if (lines && insn.carry)
                return carried(b, oy, ky, (origin * insn.stride_x + kx) * px + p, j);
              return x[(ky * insn.fm_pitch + kx * px + p) * L + lane];
            };
            for (int64_t ky = 0; ky < win_h; ++ky)
              for (int64_t kx = 0; kx < win_w; ++kx) {
                const int8_t* wk = &w[j * L + half + ky * tap_row + kx];
                sum += whole_i16 ? tap(ky, kx, 0) * 256 * wk[0] +
                                       static_cast<uint8_t>(tap(ky, kx, 1)) * wk[kTapRow / 2]
                                 : value_of(tap(ky, kx, 0)) * wk[0];
              }
          } else if (pairs) {
            for (int64_t l = 0; l < L / 2; ++l) sum += byte(l) * w[j * L + half + l];
          } else {
            for (int64_t l = 0; l < L; ++l) sum += byte(l) * w[j * L + l];
          }
          const int64_t start = insn.init == isa::GemmInsn::kAccumulate ? acc[j]
                                : insn.init == isa::GemmInsn::kFromZero ? 0
                                : b == 1 ? m.SecondBias(insn.param_addr, j)
                                         : m.Bias(insn.param_addr, j);
          const int64_t value = start + sum * scale;
          if (value < kAccMin || value > kAccMax)
            return m.Fail(Cat("accumulator entry ", entry, " lane ", j, " reaches ", value,
                              ", outside 48 bits"));
          acc[j] = value;
        }
      }
    }
  if (lines) KeepLines(m, insn, read);
  m.counters.gemm_issues += pairs ? pixels / 2 : pixels;
  return OkStatus();
}

}  // namespace opuc::fsim
