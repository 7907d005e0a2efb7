//===- src/opu/hw_config_validate.cc - Is this a usable OPU? --------------===//
//
// Every number in range (the field table's least and greatest values), DRAM
// at least a byte in 1,024 cycles, and an HDFG the
// matcher can walk: unique stage names, edges in range without repeats or
// self-loops, every stage reachable from the root, and no inner-product
// stage on a cycle (one ipa per group).
//
//===----------------------------------------------------------------------===//
#include <set>

#include "hw_config_fields.h"
#include "opuc/opu/hw_config.h"
#include "support/format.h"

namespace opuc {
namespace {

Status InRange(const HwField& field, int64_t value) {
  if (value < field.minimum)
    return InvalidArgument(Cat(field.path, " is ", value, "; expected at least ", field.minimum));
  if (value > field.maximum)
    return InvalidArgument(Cat(field.path, " is ", value, "; expected at most ", field.maximum));
  return OkStatus();
}

// Instructions address a buffer with at most 16 bits (Load.sram_addr,
// Gemm.fm_addr, acc_addr): rows past that are unreachable, and the
// simulator would still allocate them.
constexpr int64_t kMaxBufferRows = int64_t{1} << 16;

/// The buffer's bytes (both fields bounded, so the product fits) and its
/// rows of `row_bytes`: a whole buffer within the bank bound and 2^16 rows.
Status CheckBuffer(const char* name, const BufferSpec& b, int64_t row_bytes, const char* rows) {
  const int64_t bytes = b.bytes_per_bank * b.banks;
  if (bytes > kMaxBufferBytes)
    return InvalidArgument(Cat("buffers.", name, " is ", bytes,
                               " bytes (bytes_per_bank x banks); expected at most ",
                               kMaxBufferBytes));
  if (bytes / row_bytes > kMaxBufferRows)
    return InvalidArgument(Cat("buffers.", name, " holds ", bytes / row_bytes, " ", rows, " of ",
                               row_bytes, " bytes; instructions address at most ", kMaxBufferRows));
  return OkStatus();
}

Status CheckBuffers(const HwConfig& c) {
  const int64_t L = c.array.input_channels, Co = c.array.output_channels;
  OPUC_RETURN_IF_ERROR(CheckBuffer("feature_map", c.buffers.feature_map, L, "rows"));
  OPUC_RETURN_IF_ERROR(CheckBuffer("weight", c.buffers.weight, L * Co, "rows"));
  OPUC_RETURN_IF_ERROR(CheckBuffer("bias", c.buffers.bias, Co * 8, "rows"));
  return CheckBuffer("partial_sum", c.buffers.partial_sum, Co * 6, "entries");
}

/// A real-valued field: positive and at most the table's greatest value
/// (NaN fails both tests).
Status PositiveInRange(const HwField& field, double value) {
  if (!(value > 0.0))
    return InvalidArgument(Cat(field.path, " is ", value, "; expected a positive number"));
  if (!(value <= static_cast<double>(field.maximum)))
    return InvalidArgument(Cat(field.path, " is ", value, "; expected at most ", field.maximum));
  return OkStatus();
}

// DRAM bytes a cycle (bandwidth / clock) the estimator and the bounds divide
// by: at least a byte in 1,024 cycles, so that a program's cycles stay
// within int64 (and within anything a report can mean).
constexpr double kMinDramBytesPerCycle = 1.0 / 1024;

Status CheckDramRate(const HwConfig& c) {
  const double bytes_per_cycle = c.dram.bandwidth_gb_per_s * 1e3 / c.array.clock_mhz;
  if (bytes_per_cycle >= kMinDramBytesPerCycle) return OkStatus();
  return InvalidArgument(Cat("dram.bandwidth_gb_per_s is ", c.dram.bandwidth_gb_per_s,
                             " at array.clock_mhz ", c.array.clock_mhz, ": ", bytes_per_cycle,
                             " bytes a cycle; expected at least one byte in 1024 cycles"));
}

Status CheckHdfg(const Hdfg& g) {
  const auto n = static_cast<int32_t>(g.stages.size());
  if (n == 0) return InvalidArgument("hdfg.stages is empty; expected at least one stage");
  std::set<std::string> names;
  for (int32_t i = 0; i < n; ++i) {
    const HdfgStage& s = g.stages[static_cast<size_t>(i)];
    const std::string field = Cat("hdfg.stages[", i, "]");
    if (s.name.empty()) return InvalidArgument(field + ".name is empty");
    if (!names.insert(s.name).second)
      return InvalidArgument(Cat(field, ".name '", s.name, "' names two stages"));
    if (HwModuleName(s.module) == "<bad module>")
      return InvalidArgument(Cat(field, ".module is not a module"));
    std::set<int32_t> seen;
    for (size_t k = 0; k < s.successors.size(); ++k) {
      const int32_t t = s.successors[k];
      const std::string edge = Cat(field, ".successors[", k, "]");
      if (t < 0 || t >= n)
        return InvalidArgument(
            Cat(edge, " is ", t, "; expected a stage index in [0, ", n - 1, "]"));
      if (t == i) return InvalidArgument(Cat(edge, ": stage '", s.name, "' feeds itself"));
      if (!seen.insert(t).second)
        return InvalidArgument(Cat(edge, ": the edge to '", g.stages[static_cast<size_t>(t)].name,
                                   "' is listed twice"));
    }
  }
  if (g.root < 0 || g.root >= n)
    return InvalidArgument(
        Cat("hdfg.root is ", g.root, "; expected a stage index in [0, ", n - 1, "]"));
  std::vector<bool> reached(static_cast<size_t>(n), false);
  std::vector<int32_t> stack = {g.root};
  while (!stack.empty()) {
    const int32_t s = stack.back();
    stack.pop_back();
    if (reached[static_cast<size_t>(s)]) continue;
    reached[static_cast<size_t>(s)] = true;
    for (int32_t t : g.stages[static_cast<size_t>(s)].successors) stack.push_back(t);
  }
  for (int32_t i = 0; i < n; ++i) {
    const HdfgStage& s = g.stages[static_cast<size_t>(i)];
    if (!reached[static_cast<size_t>(i)])
      return InvalidArgument(Cat("hdfg.stages[", i, "] '", s.name,
                                 "' cannot be reached from the root '",
                                 g.stages[static_cast<size_t>(g.root)].name, "'"));
    if (s.module == HwModule::kIpa && OnCycle(g, i))
      return InvalidArgument(Cat("hdfg.stages[", i, "] '", s.name,
                                 "' is an ipa on a cycle; a group holds one inner product"));
  }
  return OkStatus();
}

}  // namespace

Status ValidateHwConfig(const HwConfig& c) {
  if (c.name.empty()) return InvalidArgument("name is empty");
  for (const HwField& field : HwConfigFields()) {
    // The table hands out mutable references; this only reads through them.
    const HwFieldRef ref = field.ref(const_cast<HwConfig&>(c));
    if (auto* i = std::get_if<int64_t*>(&ref)) {
      OPUC_RETURN_IF_ERROR(InRange(field, **i));
    } else if (auto* d = std::get_if<double*>(&ref)) {
      OPUC_RETURN_IF_ERROR(PositiveInRange(field, **d));
    }
  }
  if (c.dram.word_bits % 8 != 0)
    return InvalidArgument(
        Cat("dram.word_bits is ", c.dram.word_bits, "; expected a multiple of 8"));
  if (c.store.taps >> kNumHwModules)
    return InvalidArgument("store.taps holds a bit that names no module");
  OPUC_RETURN_IF_ERROR(CheckBuffers(c));
  OPUC_RETURN_IF_ERROR(CheckDramRate(c));
  return CheckHdfg(c.hdfg);
}

}  // namespace opuc
