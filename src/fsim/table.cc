//===- src/fsim/table.cc - The compare stage's lookup tables -----------===//
//
// numerics.md §6 and §1b: an 8-bit value indexes a 256-entry table (T[q +
// 128] for i8, T[q] for u8); an i16 value q = 256·high + low reads the
// knots T[high + 128] and T[high + 129] of a 257-entry table and
// interpolates between them with one rounding. The entries are 16 bits
// whatever the output's format (the compiler wrote them in it), laid in
// the feature-map buffer from row table_addr on, two bytes each. A value
// outside the input format has no entry: that is an error, not a wrap.
//
//===----------------------------------------------------------------------===//
#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecTable(Machine& m, const isa::TableInsn& insn) {
  const int64_t L = m.units.lanes, Co = m.units.out_lanes;
  if (insn.in_format > isa::TableInsn::kI16)
    return m.Fail(Cat("in_format is ", insn.in_format, "; it is 0, 1 or 2"));
  struct Format {
    const char* name;
    int64_t lo, hi;
  };
  static_assert(isa::TableInsn::kI8 == 0 && isa::TableInsn::kU8 == 1 && isa::TableInsn::kI16 == 2,
                "formats[] is indexed by in_format");
  const Format formats[] = {{"i8", -128, 127}, {"u8", 0, 255}, {"i16", -32768, 32767}};
  const Format& in = formats[insn.in_format];
  const bool wide = insn.in_format == isa::TableInsn::kI16;
  const int64_t entries = wide ? 257 : 256;
  OPUC_RETURN_IF_ERROR(m.InRange("table_addr", insn.table_addr, (2 * entries + L - 1) / L,
                                 m.units.fm_rows, "feature-map row"));
  OPUC_RETURN_IF_ERROR(
      m.InRange("acc_addr", insn.acc_addr, insn.count, m.units.acc_entries, "accumulator entry"));
  if (m.dry) return OkStatus();  // checked; no data to move
  const auto* bytes =
      reinterpret_cast<const uint8_t*>(&m.fm[static_cast<size_t>(insn.table_addr * L)]);
  const auto entry = [bytes](int64_t k) {
    return static_cast<int16_t>(bytes[2 * k] | bytes[2 * k + 1] << 8);
  };
  for (int64_t e = insn.acc_addr; e < insn.acc_addr + insn.count; ++e) {
    for (int64_t j = 0; j < Co; ++j) {
      int64_t& v = m.acc[static_cast<size_t>(e * Co + j)];
      if (v < in.lo || v > in.hi)
        return m.Fail(Cat("entry ", e, " lane ", j, " holds ", v, ", outside the ", in.name,
                          " the table reads"));
      if (wide) {
        const Int16Bytes split = SplitInt16(static_cast<int32_t>(v));
        v = Interpolate(entry(split.high + 128), entry(split.high + 129), split.low);
      } else {
        v = entry(insn.in_format == isa::TableInsn::kI8 ? v + 128 : v);
      }
    }
  }
  m.counters.post_entries += insn.count;
  return OkStatus();
}

}  // namespace opuc::fsim
