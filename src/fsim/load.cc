//===- src/fsim/load.cc - The load engine: DRAM to a buffer ------------===//
//
// rows x cols units from DRAM (each row contiguous, rows dram_stride bytes
// apart) into a buffer region of (pad_top + rows + pad_bottom) rows of
// (pad_left + cols + pad_right) units, the border zero: the padding of a
// convolution never travels over the bus. With zeros_y / zeros_x the rows
// and units read land that many zero rows and units apart (the
// zero-inserted input a transposed convolution slides its kernel over),
// and the region grows to match. A diagonal load spreads each L-byte unit
// over a weight row's Co x L matrix: row j keeps lanes l with l mod Co = j.
// A compact feature-map unit (granules x Co bytes) fills its row's first
// lanes. An interleaved load writes its region's unit k to row sram_addr +
// 2k: the rows between are an i16's other plane, which a load of its own
// writes (the array reads both planes of a pixel as one row pair).
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "machine.h"

namespace opuc::fsim {

Status ExecLoad(Machine& m, const isa::LoadInsn& insn) {
  uint8_t* base = nullptr;
  int64_t units = 0;
  std::string_view what;
  switch (insn.buffer) {
    case isa::LoadInsn::kFeatureMap:
      base = reinterpret_cast<uint8_t*>(m.fm.data());
      units = m.units.fm_rows;
      what = "feature-map row";
      break;
    case isa::LoadInsn::kWeights:
      base = reinterpret_cast<uint8_t*>(m.weight.data());
      units = m.units.weight_rows;
      what = "weight row";
      break;
    case isa::LoadInsn::kParams:
      base = m.param.data();
      units = m.units.param_rows;
      what = "param row";
      break;
    default: return m.Fail(Cat("buffer is ", insn.buffer, "; buffers are 0, 1 and 2"));
  }
  if (insn.buffer != isa::LoadInsn::kFeatureMap && (insn.zeros_y != 0 || insn.zeros_x != 0))
    return m.Fail(Cat("zeros_y ", insn.zeros_y, " and zeros_x ", insn.zeros_x, " with buffer ",
                      insn.buffer, ": only the feature map takes zeros between"));
  if (insn.diagonal &&
      (insn.buffer != isa::LoadInsn::kWeights || m.units.lanes % m.units.out_lanes != 0))
    return m.Fail(Cat("diagonal with buffer ", insn.buffer, ", ", m.units.lanes, " lanes and ",
                      m.units.out_lanes,
                      " outputs: only weights load diagonally, where the "
                      "outputs divide the lanes"));
  if (insn.granules > 0 && (insn.buffer != isa::LoadInsn::kFeatureMap ||
                            insn.granules * m.units.out_lanes > m.units.lanes))
    return m.Fail(Cat("granules is ", insn.granules, " with buffer ", insn.buffer, ", ",
                      m.units.lanes, " lanes and ", m.units.out_lanes,
                      " outputs: only the feature map takes compact pixels, of at most L bytes"));
  const int64_t unit = m.units.LoadUnitBytes(insn);  // in DRAM
  // On chip: a weight row spread from its diagonal, a whole feature-map row
  // for a compact pixel (its lanes past the pixel stay zero).
  const int64_t row_bytes = insn.diagonal                               ? unit * m.units.out_lanes
                            : insn.buffer == isa::LoadInsn::kFeatureMap ? m.units.lanes
                                                                        : unit;
  if (insn.interleave && insn.buffer != isa::LoadInsn::kFeatureMap)
    return m.Fail(Cat("interleave with buffer ", insn.buffer,
                      ": only the feature map takes an i16's planes row by row"));
  const int64_t step_y = insn.zeros_y + 1, step_x = insn.zeros_x + 1;
  const int64_t height = LoadedRows(insn), pitch = LoadedPitch(insn);
  OPUC_RETURN_IF_ERROR(m.InRange("sram_addr", insn.sram_addr, LoadedSpan(insn), units, what));
  const auto dram_size = m.dram_bytes;
  if (insn.rows > 0 && insn.cols > 0)
    OPUC_RETURN_IF_ERROR(m.InRange("dram_addr", insn.dram_addr,
                                   (insn.rows - 1) * insn.dram_stride + insn.cols * unit, dram_size,
                                   "DRAM byte"));
  if (m.dry) return OkStatus();  // checked; no data to move
  // The row of the region's unit k.
  const int64_t spread = insn.interleave ? 2 : 1;
  const auto unit_row = [&](int64_t k) { return base + (insn.sram_addr + k * spread) * row_bytes; };
  for (int64_t k = 0; k < height * pitch; ++k)
    std::memset(unit_row(k), 0, static_cast<size_t>(row_bytes));
  for (int64_t r = 0; r < insn.rows; ++r) {
    const uint8_t* from = m.dram->data() + insn.dram_addr + r * insn.dram_stride;
    const int64_t first = (insn.pad_top + r * step_y) * pitch + insn.pad_left;
    for (int64_t c = 0; c < insn.cols; ++c) {
      uint8_t* row = unit_row(first + c * step_x);
      if (!insn.diagonal) {
        std::memcpy(row, from + c * unit, static_cast<size_t>(unit));
        continue;
      }
      // Row j of the Co x L matrix keeps lanes j, j + Co, ...
      for (int64_t l = 0; l < unit; ++l) row[l % m.units.out_lanes * unit + l] = from[c * unit + l];
    }
  }
  m.counters.bytes_loaded += insn.rows * insn.cols * unit;
  return OkStatus();
}

}  // namespace opuc::fsim
