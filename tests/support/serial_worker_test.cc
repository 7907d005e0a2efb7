// SerialWorker (support/serial_worker.h): the jobs run in the order posted,
// on a thread other than the caller's, and Wait() returns after all of
// them; a job's exception comes out of Wait() and the jobs after it are
// dropped; the destructor runs what is still queued.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "support/serial_worker.h"

namespace opuc {
namespace {

TEST_CASE("serial worker: jobs run in order, beside the caller, before Wait returns") {
  std::vector<int> order;  // touched by the worker only until Wait()
  std::thread::id ran_on;
  SerialWorker worker;
  for (int i = 0; i < 100; ++i)
    worker.Post([&order, &ran_on, i] {
      order.push_back(i);
      ran_on = std::this_thread::get_id();
    });
  worker.Wait();
  REQUIRE(order.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(order[static_cast<size_t>(i)] == i);
  const bool elsewhere = ran_on != std::this_thread::get_id();
  CHECK(elsewhere);
  worker.Post([&order] { order.push_back(100); });  // usable again after Wait
  worker.Wait();
  CHECK(order.size() == 101);
}

TEST_CASE("serial worker: the first exception comes out of Wait, the jobs after it do not run") {
  std::atomic<int> ran{0};
  SerialWorker worker;
  worker.Post([&] { ++ran; });
  worker.Post([] { throw std::runtime_error("first"); });
  worker.Post([] { throw std::runtime_error("second"); });
  worker.Post([&] { ++ran; });
  CHECK_THROWS_WITH(worker.Wait(), "first");
  CHECK(ran == 1);
  worker.Wait();  // the failure was reported once
  worker.Post([&] { ++ran; });
  worker.Wait();
  CHECK(ran == 2);
}

TEST_CASE("serial worker: the destructor runs the jobs still queued") {
  std::atomic<int> ran{0};
  {
    SerialWorker worker;
    for (int i = 0; i < 50; ++i) worker.Post([&] { ++ran; });
  }
  CHECK(ran == 50);
}

}  // namespace
}  // namespace opuc
