//===- src/fsim/residual_add.cc - The residual add stage ---------------===//
//
// numerics.md §5, add: both operands aligned up to the finest fraction
// length F by exact left shifts, added exactly, rounded once to the
// output's length and clamped to its format. The accumulated operand is
// the value the earlier stages left in the accumulator; the residual is a
// byte per lane of a feature-map row (one pixel of L lanes) that the load
// engine brought in, entry e reading row res_addr + e from lane res_lane;
// an i16 residual is two such bytes, the signed high one there and the
// unsigned low one `count` rows further on (its second plane, loaded after
// the first). Lanes from res_lanes on add 0: the channels a zero pad
// appends to a shorter residual (BlazeFace's channel padding), never read
// from memory. With `broadcast` every entry reads row res_addr (an i16's
// low bytes the next): a per-channel constant operand. With `multiply` the
// stage multiplies instead (numerics.md §5, mul): the exact product, shifted
// up by acc_shift, rounded once by out_shift.
//
//===----------------------------------------------------------------------===//
#include <cstdlib>

#include <algorithm>

#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecResAdd(Machine& m, const isa::ResAddInsn& insn) {
  const int64_t L = m.units.lanes, Co = m.units.out_lanes;
  const int64_t lanes = insn.res_lanes;
  if (lanes > Co) return m.Fail(Cat("res_lanes is ", lanes, "; it is 0 to ", Co));
  if (lanes > 0 && insn.res_lane + lanes > L)
    return m.Fail(Cat("res_lane is ", insn.res_lane, "; lanes ", insn.res_lane, " to ",
                      insn.res_lane + lanes - 1, " pass the row's ", L));
  if (const int64_t half = std::max<int64_t>(1, Co / 2); lanes > 0 && insn.res_lane % half != 0)
    return m.Fail(Cat("res_lane is ", insn.res_lane, "; it is a multiple of Co / 2 = ", half,
                      " (the post stages take the residual half a granule at a time)"));
  OPUC_RETURN_IF_ERROR(m.CheckPost(insn.acc_addr, insn.count, insn.lo, insn.hi));
  if (insn.res_format > isa::ResAddInsn::kI16)
    return m.Fail(Cat("res_format is ", insn.res_format, "; it is 0 to 2"));
  if (insn.multiply && insn.res_shift != 0)
    return m.Fail(Cat("res_shift is ", insn.res_shift, " with multiply; a product shifts by a"));
  const bool i16 = insn.res_format == isa::ResAddInsn::kI16;
  const int64_t rows = insn.broadcast ? 1 : insn.count;  // per plane
  if (lanes > 0)
    OPUC_RETURN_IF_ERROR(m.InRange("res_addr", insn.res_addr, rows * (i16 ? 2 : 1), m.units.fm_rows,
                                   "feature-map row"));
  if (m.dry) return OkStatus();  // checked; no data to move
  for (int64_t e = 0; e < insn.count; ++e) {
    const auto at = [&](int64_t row) {
      return &m.fm[static_cast<size_t>((insn.res_addr + row) * L + insn.res_lane)];
    };
    const int64_t r = insn.broadcast ? 0 : e;
    const int8_t* row = lanes > 0 ? at(r) : nullptr;
    const int8_t* low = lanes > 0 && i16 ? at(rows + r) : nullptr;
    const int64_t entry = insn.acc_addr + e;
    int64_t* acc = &m.acc[static_cast<size_t>(entry * Co)];
    for (int64_t j = 0; j < Co; ++j) {
      int64_t res = 0;
      if (j < lanes && i16) res = row[j] * 256 + static_cast<uint8_t>(low[j]);
      if (j < lanes && !i16)
        res = insn.res_format == isa::ResAddInsn::kU8 ? static_cast<uint8_t>(row[j]) : row[j];
      int64_t exact = 0;
      if (insn.multiply) {
        // |acc| < 2^47 and |res| <= 2^15; the shift must stay inside 63 bits.
        const int64_t product = acc[j] * res;
        if (product != 0 && (std::abs(product) >> (62 - insn.acc_shift)) != 0)
          return m.Fail(Cat("entry ", entry, " lane ", j, ": ", acc[j], " x ", res, " << ",
                            insn.acc_shift, " leaves 63 bits"));
        exact = ShrRhu(product, -static_cast<int>(insn.acc_shift));
      } else {
        exact = ShrRhu(acc[j], -static_cast<int>(insn.acc_shift)) +
                ShrRhu(res, -static_cast<int>(insn.res_shift));
      }
      acc[j] = RequantTo(exact, static_cast<int>(insn.out_shift), insn.lo, insn.hi);
    }
  }
  m.counters.post_entries += insn.count;
  return OkStatus();
}

}  // namespace opuc::fsim
