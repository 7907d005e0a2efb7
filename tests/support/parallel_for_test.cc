// ParallelFor (support/parallel_for.h): every item exactly once, on however
// many threads, the calling one among them.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/parallel_for.h"

namespace opuc {
namespace {

TEST_CASE("parallel for: every index once, whatever the thread count") {
  for (int threads : {0, 1, 2, 7}) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> runs(1000);
    std::mutex mutex;
    std::set<std::thread::id> workers;
    ParallelFor(1000, threads, [&](int64_t i) {
      ++runs[static_cast<size_t>(i)];
      const std::lock_guard<std::mutex> lock(mutex);
      workers.insert(std::this_thread::get_id());
    });
    for (const std::atomic<int>& r : runs) REQUIRE(r.load() == 1);
    CHECK(workers.size() <= static_cast<size_t>(ThreadCount(threads)));
    if (threads == 1) CHECK(workers == std::set<std::thread::id>{std::this_thread::get_id()});
  }
  int calls = 0;
  ParallelFor(0, 4, [&](int64_t) { ++calls; });
  CHECK(calls == 0);
  CHECK(ThreadCount(3) == 3);
  CHECK(ThreadCount(0) >= 1);
}

TEST_CASE("parallel for: an exception in any thread reaches the caller, and no more items start") {
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    std::atomic<int> started{0};
    CHECK_THROWS_WITH_AS(ParallelFor(1000, threads,
                                     [&](int64_t i) {
                                       ++started;
                                       if (i == 5) throw std::runtime_error("item 5");
                                     }),
                         "item 5", std::runtime_error);
    if (threads == 1) CHECK(started.load() == 6);  // items 0 to 5, none after
  }
}

}  // namespace
}  // namespace opuc
