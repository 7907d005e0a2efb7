//===- opuc/tensor_io/allocation_limit.h - The largest buffer opuc allocates -*- C++ -*-===//
//
// Shapes and sizes come from files, so one that declares a tensor of many
// gigabytes must be refused before anything is allocated: asking the
// allocator and handling its failure is not enough (a sanitized build aborts
// on a huge request, and a merely large one that succeeds can run for
// minutes on a file that is a mistake). Every tensor, CPU arena and
// simulated DRAM image is checked against one limit, 1 GiB by default: the
// real models' largest buffer is 13 MiB (pose_landmark_heavy's CPU arena). `opuc
// --max-buffer-bytes` (or SetAllocationLimit) lifts it for the models that need more.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TENSOR_IO_ALLOCATION_LIMIT_H
#define OPUC_TENSOR_IO_ALLOCATION_LIMIT_H

#include <cstdint>
#include <string_view>

#include "opuc/status.h"

namespace opuc {

inline constexpr uint64_t kDefaultAllocationLimit = uint64_t{1} << 30;

/// The most bytes of one buffer; the process-wide setting (thread-safe).
uint64_t AllocationLimit();
void SetAllocationLimit(uint64_t bytes);

/// Ok when `bytes` fit the limit; otherwise an error naming `what`, the
/// size, the limit and how to lift it.
Status CheckAllocation(uint64_t bytes, std::string_view what);

}  // namespace opuc

#endif  // OPUC_TENSOR_IO_ALLOCATION_LIMIT_H
