//===- support/serial_worker.h - Jobs run in order beside the caller -*- C++ -*-===//
//
// Some work is ready long before its result is needed: the quantizer can
// factor a layer's Gram matrix as soon as the calibration run has shown the
// layer its input, while the run goes on to the next layers (and leaves a
// core idle in its serial stretches). A SerialWorker is one thread that
// runs the jobs posted to it in order; Wait() returns once they have run.
// Its constructor throws std::system_error when no thread is to be had.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_SERIAL_WORKER_H
#define OPUC_SUPPORT_SERIAL_WORKER_H

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace opuc {

class SerialWorker {
 public:
  SerialWorker() : thread_([this] { Loop(); }) {}
  SerialWorker(const SerialWorker&) = delete;
  SerialWorker& operator=(const SerialWorker&) = delete;

  /// Waits for the jobs posted (an exception one threw is dropped: call
  /// Wait() to see it), then stops the thread.
  ~SerialWorker() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  void Post(std::function<void()> job) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    changed_.notify_all();
  }

  /// Returns once every job posted so far has run. The first exception a
  /// job threw is rethrown here; the jobs posted after it, up to this
  /// call, did not run.
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return jobs_.empty() && !busy_; });
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left to run
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      if (failure_) {  // dropped until Wait() reports the failure
        changed_.notify_all();
        continue;
      }
      busy_ = true;
      lock.unlock();
      std::exception_ptr failure;
      try {
        job();
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      busy_ = false;
      if (failure) failure_ = failure;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr failure_;
  std::thread thread_;  ///< Last: it starts once the members above exist.
};

}  // namespace opuc

#endif  // OPUC_SUPPORT_SERIAL_WORKER_H
