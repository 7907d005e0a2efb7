// PrepareAllocatorForBatchJob (support/batch_allocator.h): once it has set
// glibc's allocator up, a large buffer freed and allocated again is the
// same memory, touched without faulting its pages in afresh. glibc's
// default maps every buffer above 32 MB anew: 16 384 faults for 64 MB.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>

#include "support/batch_allocator.h"

namespace opuc {
namespace {

int64_t MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// Allocates `bytes`, writes a byte of every 4 KB page, frees it; returns
/// the faults taken. Volatile: a plain store before free() is dead code.
int64_t FaultsToTouch(size_t bytes) {
  const int64_t before = MinorFaults();
  void* raw = std::malloc(bytes);
  REQUIRE(raw != nullptr);
  auto* block = static_cast<volatile unsigned char*>(raw);
  for (size_t i = 0; i < bytes; i += 4096) block[i] = 1;
  std::free(raw);
  return MinorFaults() - before;
}

TEST_CASE("batch allocator: a large buffer freed is reused, not faulted in again") {
  if (!PrepareAllocatorForBatchJob()) {
    MESSAGE("not glibc on a 64-bit host, or under a sanitizer: nothing is set up");
    return;
  }
  constexpr size_t kBytes = size_t{64} << 20;
  FaultsToTouch(kBytes);  // the first time, the heap grows into it
  const int64_t again = FaultsToTouch(kBytes);
  CAPTURE(again);
  CHECK(again < 1000);
}

}  // namespace
}  // namespace opuc
