//===- src/support/batch_allocator.cc - The C allocator set up for one big job ===//
#include "support/batch_allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>

#if defined(__GLIBC__) && UINTPTR_MAX > 0xffffffffu && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#include <malloc.h>
#include <sys/mman.h>

#include <climits>
#define OPUC_TUNE_GLIBC_MALLOC 1
#endif

namespace opuc {

bool PrepareAllocatorForBatchJob() {
#ifdef OPUC_TUNE_GLIBC_MALLOC
  // An arena a core: threads that share one take turns at its lock on every
  // allocation (codegen's search on two threads ran at half the speed of one).
  const unsigned cores = std::thread::hardware_concurrency();
  mallopt(M_ARENA_MAX, static_cast<int>(std::max(1u, std::min(cores, 64u))));
  mallopt(M_MMAP_MAX, 0);              // large buffers as well: freed, they are reused
  mallopt(M_TRIM_THRESHOLD, INT_MAX);  // the heap is not given back mid-job
  // Grow the heap once by the reserve (address space only: nothing is
  // touched) and ask for huge pages on it; freed, it stays the heap's top.
  constexpr size_t kReserve = size_t{1} << 30, kHugePage = size_t{2} << 20;
  void* block = std::malloc(kReserve);
  if (!block) return true;
  const auto start = (reinterpret_cast<uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
  const size_t length =
      (kReserve - (start - reinterpret_cast<uintptr_t>(block))) & ~(kHugePage - 1);
  madvise(reinterpret_cast<void*>(start), length, MADV_HUGEPAGE);  // advice: failure is harmless
  std::free(block);
  return true;
#else
  return false;
#endif
}

}  // namespace opuc
