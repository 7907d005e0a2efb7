//===- src/fsim/store.cc - The store engine: accumulator to DRAM -------===//
//
// One byte per lane: bits 7:0 of each value (an i8 or u8 output, or the low
// plane of an i16), or bits 15:8 (the high plane). A pixel's lanes are
// consecutive bytes; consecutive pixels are L bytes apart (one DRAM pixel
// holds a block of L channels), or granules x Co in a compact map. The upsample stage rides on the
// store: with `upsample` each pixel is written as a 2x2 block of the doubled map. With `pair` an
// entry holds two pixels, lanes 0 to Co/2 - 1 the first and Co/2 on the second (pixel pairs:
// docs/isa.md), and `cols` counts pixels. With `extra_blocks` a pixel's
// next blocks of Co lanes (Co/2 with `pair`) follow it in DRAM, each from
// an entry of its own (OpuBufferUnits::StoreBlockEntry), so that its whole
// beat is written once.
// With `to_fm` the pixels go to the feature-map buffer instead, a row of L
// bytes each, written whole: the lanes past those stored are zero, as a
// load spreads a compact pixel (a Gemm of the next layer reads them).
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "machine.h"

namespace opuc::fsim {

Status ExecStore(Machine& m, const isa::StoreInsn& insn) {
  const int64_t Co = m.units.out_lanes, pixel = m.units.StorePixelBytes(insn);
  if (insn.lanes < 1 || insn.lanes > Co)
    return m.Fail(Cat("lanes is ", insn.lanes, "; it is 1 to ", Co));
  if (insn.granules > 0 && pixel > m.units.lanes)
    return m.Fail(Cat("granules is ", insn.granules, ": ", pixel, "-byte pixels; a pixel holds at ",
                      "most ", m.units.lanes, " (L) bytes"));
  const int64_t per_entry = insn.pair ? 2 : 1;  // pixels an entry holds
  if (insn.pair && (Co % 2 != 0 || 2 * insn.lanes > Co || insn.upsample))
    return m.Fail(Cat("pair with lanes ", insn.lanes, insn.upsample ? " and upsample" : "",
                      ": a pair stores at most Co/2 = ", Co / 2, " lanes a pixel of an even Co, ",
                      "without upsample"));
  const int64_t blocks = 1 + insn.extra_blocks, block_lanes = m.units.StoreBlockLanes(insn);
  if (blocks > 1 && (insn.upsample || m.units.StorePixelLanes(insn) > pixel))
    return m.Fail(Cat("extra_blocks is ", insn.extra_blocks, ": ", blocks, " blocks of ",
                      block_lanes, " lanes in a ", pixel, "-byte pixel",
                      insn.upsample ? ", with upsample" : "",
                      "; the blocks fill at most a pixel, without upsample"));
  const int64_t L = m.units.lanes;
  if (insn.to_fm && (insn.granules != 0 || insn.pair || insn.upsample || insn.dram_addr % L != 0 ||
                     insn.dram_stride % L != 0))
    return m.Fail(Cat("to_fm with granules ", insn.granules, insn.pair ? ", pair" : "",
                      insn.upsample ? ", upsample" : "", ", dram_addr ", insn.dram_addr,
                      " and dram_stride ", insn.dram_stride, ": the feature-map buffer takes ",
                      "whole rows (granules 0, without pair or upsample, both multiples of L = ", L,
                      ")"));
  if (insn.rows == 0 || insn.cols == 0) return OkStatus();
  const int64_t last_entry =
      insn.acc_addr + (insn.rows - 1) * insn.acc_pitch + (insn.cols - 1) / per_entry;
  // Each block's entries follow block 0's, in one piece: block 0's may not
  // cross into the bank whose blocks go the other way.
  if (blocks > 1 && insn.acc_addr < m.units.AccBank1() && last_entry >= m.units.AccBank1())
    return m.Fail(Cat("extra_blocks with entries ", insn.acc_addr, " to ", last_entry,
                      ": block 0's entries cross the accumulator's second bank at ",
                      m.units.AccBank1()));
  for (int64_t k = 0; k < blocks; ++k) {
    const int64_t first = m.units.StoreBlockEntry(insn.acc_addr, k);
    OPUC_RETURN_IF_ERROR(m.InRange(k == 0 ? "acc_addr" : Cat("block ", k, " of acc_addr"), first,
                                   last_entry - insn.acc_addr + 1, m.units.acc_entries,
                                   "accumulator entry"));
  }
  if (insn.to_fm)
    OPUC_RETURN_IF_ERROR(m.InRange("dram_addr", insn.dram_addr / L,
                                   (StoredSpan(insn, m.units) + L - 1) / L, m.units.fm_rows,
                                   "feature-map row"));
  else
    OPUC_RETURN_IF_ERROR(m.InRange("dram_addr", insn.dram_addr, StoredSpan(insn, m.units),
                                   m.dram_bytes, "DRAM byte"));
  if (m.dry) return OkStatus();  // checked; no data to move
  const int shift = insn.high_byte ? 8 : 0;
  if (insn.to_fm) {
    for (int64_t r = 0; r < insn.rows; ++r)
      for (int64_t c = 0; c < insn.cols; ++c) {
        int8_t* to = &m.fm[static_cast<size_t>(insn.dram_addr + r * insn.dram_stride + c * L)];
        std::fill(to, to + L, int8_t{0});
        for (int64_t b = 0; b < blocks; ++b) {
          const int64_t at = m.units.StoreBlockEntry(insn.acc_addr + r * insn.acc_pitch + c, b);
          const int64_t* v = &m.acc[static_cast<size_t>(at * Co)];
          for (int64_t j = 0; j < (b + 1 < blocks ? Co : insn.lanes); ++j)
            to[b * Co + j] = static_cast<int8_t>(static_cast<uint64_t>(v[j]) >> shift);
        }
      }
    return OkStatus();
  }
  const int64_t copies = insn.upsample ? 2 : 1;  // per axis
  for (int64_t r = 0; r < insn.rows; ++r) {
    for (int64_t c = 0; c < insn.cols; ++c) {
      const int64_t entry = insn.acc_addr + r * insn.acc_pitch + c / per_entry;
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t at = m.units.StoreBlockEntry(entry, b);
        const int64_t* v = &m.acc[static_cast<size_t>(at * Co + (c % per_entry) * (Co / 2))];
        const int64_t lanes = b + 1 < blocks ? block_lanes : insn.lanes;
        for (int64_t i = 0; i < copies; ++i) {
          for (int64_t k = 0; k < copies; ++k) {
            uint8_t* to = m.dram->data() + insn.dram_addr + (copies * r + i) * insn.dram_stride +
                          (copies * c + k) * pixel + b * block_lanes;
            for (int64_t j = 0; j < lanes; ++j)
              to[j] = static_cast<uint8_t>(static_cast<uint64_t>(v[j]) >> shift);
          }
        }
      }
    }
  }
  m.counters.bytes_stored += StoredBytes(insn, m.units);
  return OkStatus();
}

}  // namespace opuc::fsim
