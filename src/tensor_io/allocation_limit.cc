//===- src/tensor_io/allocation_limit.cc - The largest buffer opuc allocates ===//
#include "opuc/tensor_io/allocation_limit.h"

#include <atomic>
#include <cstdio>
#include <string>

#include "support/format.h"

namespace opuc {
namespace {

std::atomic<uint64_t> limit{kDefaultAllocationLimit};

/// "1.5 GiB", "64 MiB", "300 bytes": the size a reader compares at a glance.
std::string Readable(uint64_t bytes) {
  constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return Cat(bytes, " bytes");
  char text[32];
  const bool whole = value == static_cast<double>(static_cast<uint64_t>(value));
  std::snprintf(text, sizeof(text), value < 10 && !whole ? "%.1f %s" : "%.0f %s", value,
                kUnits[unit]);
  return text;
}

}  // namespace

uint64_t AllocationLimit() { return limit.load(std::memory_order_relaxed); }

void SetAllocationLimit(uint64_t bytes) { limit.store(bytes, std::memory_order_relaxed); }

Status CheckAllocation(uint64_t bytes, std::string_view what) {
  const uint64_t most = AllocationLimit();
  if (bytes <= most) return OkStatus();
  const std::string readable = bytes < 1024 ? "" : " (" + Readable(bytes) + ")";
  return InvalidArgument(Cat(what, " needs ", bytes, " bytes", readable, ", more than the ",
                             Readable(most),
                             " opuc allocates for one buffer (opuc --max-buffer-bytes lifts it)"));
}

}  // namespace opuc
