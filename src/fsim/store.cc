//===- src/fsim/store.cc - The store engine: accumulator to DRAM -------===//
//
// One byte per lane: bits 7:0 of each value (an i8 or u8 output, or the low
// plane of an i16), or bits 15:8 (the high plane). A pixel's lanes are
// consecutive bytes; consecutive pixels are L bytes apart (one DRAM pixel
// holds a block of L channels), or granules x Co in a compact map. The upsample stage rides on the
// store: with `upsample` each pixel is written as a 2x2 block of the doubled map. With `pair` an
// entry holds two pixels, lanes 0 to Co/2 - 1 the first and Co/2 on the second (pixel pairs:
// docs/isa.md), and `cols` counts pixels.
//
//===----------------------------------------------------------------------===//
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
  if (insn.rows == 0 || insn.cols == 0) return OkStatus();
  const int64_t last_entry =
      insn.acc_addr + (insn.rows - 1) * insn.acc_pitch + (insn.cols - 1) / per_entry;
  OPUC_RETURN_IF_ERROR(m.InRange("acc_addr", insn.acc_addr, last_entry - insn.acc_addr + 1,
                                 m.units.acc_entries, "accumulator entry"));
  OPUC_RETURN_IF_ERROR(
      m.InRange("dram_addr", insn.dram_addr, StoredSpan(insn, pixel), m.dram_bytes, "DRAM byte"));
  if (m.dry) return OkStatus();                  // checked; no data to move
  const int64_t copies = insn.upsample ? 2 : 1;  // per axis
  const int shift = insn.high_byte ? 8 : 0;
  for (int64_t r = 0; r < insn.rows; ++r) {
    for (int64_t c = 0; c < insn.cols; ++c) {
      const int64_t entry = insn.acc_addr + r * insn.acc_pitch + c / per_entry;
      const int64_t* v = &m.acc[static_cast<size_t>(entry * Co + (c % per_entry) * (Co / 2))];
      for (int64_t i = 0; i < copies; ++i) {
        for (int64_t k = 0; k < copies; ++k) {
          uint8_t* to = m.dram->data() + insn.dram_addr + (copies * r + i) * insn.dram_stride +
                        (copies * c + k) * pixel;
          for (int64_t j = 0; j < insn.lanes; ++j)
            to[j] = static_cast<uint8_t>(static_cast<uint64_t>(v[j]) >> shift);
        }
      }
    }
  }
  m.counters.bytes_stored += StoredBytes(insn);
  return OkStatus();
}

}  // namespace opuc::fsim
