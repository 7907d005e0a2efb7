//===- support/parallel_for.h - Independent work items on a few threads -*- C++ -*-===//
//
// The quantizer's rounding factors are independent per layer and cost
// seconds on a large model; this spreads such items over the cores. Items
// are claimed one at a time from a shared counter, so give the costliest
// first. Results must not depend on which thread runs an item.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_PARALLEL_FOR_H
#define OPUC_SUPPORT_PARALLEL_FOR_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace opuc {

/// The threads `requested` means: itself when positive, else one per core.
inline int ThreadCount(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

/// Runs fn(i) once for every i in [0, count) on up to ThreadCount(threads)
/// threads, the calling one included. An exception fn throws (the first,
/// if several do) is rethrown here once every thread has stopped; the items
/// not yet started then do not run.
template <typename Fn>
void ParallelFor(int64_t count, int threads, Fn fn) {
  std::atomic<int64_t> next{0};
  std::mutex mutex;
  std::exception_ptr failure;
  const auto work = [&] {
    for (int64_t i = next++; i < count; i = next++) {
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        next = count;  // no more items
      }
    }
  };
  const int64_t helpers = std::min<int64_t>(ThreadCount(threads), count) - 1;
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace opuc

#endif  // OPUC_SUPPORT_PARALLEL_FOR_H
