//===- src/cpu/epilogue.h - After the sum ----------------*- C++ -*-===//
//
// What an inner product does to each sum, over a block of output rows whose
// channel is the innermost index: on floats the bias and the fused
// activation, as the reference does them (sum + bias, then TFLite's clamp);
// on integers the reference's output stage (bias, accumulator check, S[c],
// saturation and clamp), written straight into the output's format.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_EPILOGUE_H
#define OPUC_SRC_CPU_EPILOGUE_H

#include <algorithm>
#include <cstdint>
#include <vector>

#include "chain_step.h"
#include "integer_util.h"
#include "requant32.h"

namespace opuc::cpu {

class FloatEpilogue {
 public:
  explicit FloatEpilogue(const reference::KernelContext& ctx);
  /// rows × n sums at `data`, in place.
  void Apply(float* data, int64_t rows, int64_t n) const;

 private:
  const float* bias_ = nullptr;
  Activation activation_ = Activation::kNone;
};

/// Elementwise ops that follow a float inner product in a fused function
/// (fused.cc), applied to each block of its output in place, each as its
/// reference kernel computes it.
class FloatChain {
 public:
  explicit FloatChain(std::vector<ChainStep> steps) : steps_(std::move(steps)) {}
  /// rows × n output elements at `data`, the first at flat index `offset`.
  void Apply(float* data, int64_t offset, int64_t rows, int64_t n) const;

 private:
  std::vector<ChainStep> steps_;
};

class IntegerEpilogue {
 public:
  /// The stage of the node's weights along `weight_axis`, n channels.
  static Expected<IntegerEpilogue> Make(const reference::KernelContext& ctx, int weight_axis,
                                        int64_t n);
  /// rows × n exact sums (without the bias) into elements [offset, ...) of
  /// *out; an accumulator out of range is the reference's error.
  template <typename Acc>
  Status Apply(const Acc* acc, int64_t rows, HostTensor* out, int64_t offset) const {
    return reference::VisitFormat(out->dtype(), [&](auto tag) -> Status {
      using Out = decltype(tag);
      Out* __restrict y = out->data<Out>() + offset;  // restrict: int8 stores alias everything
      if (FitsInt32(acc, rows * n_)) {
        ApplyInt32(acc, rows, y);
        return OkStatus();
      }
      const int* __restrict shift = stage_.shift.data();
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < n_; ++c) {
          const int64_t sum = static_cast<int64_t>(acc[r * n_ + c]);
          const int64_t total = sum + (stage_.bias ? stage_.bias[c] : 0);
          if (total < acc_min_ || total > acc_max_) return stage_.Finish(ctx_, sum, c).status();
          y[r * n_ + c] =
              static_cast<Out>(RequantTo(total, shift[c], stage_.range.lo, stage_.range.hi));
        }
      }
      return OkStatus();
    });
  }

 private:
  IntegerEpilogue(const reference::KernelContext& ctx, reference::InnerProductStage stage,
                  int64_t n);
  const reference::KernelContext& ctx_;
  reference::InnerProductStage stage_;
  int64_t n_;
  int64_t acc_min_, acc_max_;  ///< The accumulator: int32, or int48 for i16 inputs.

  /// The output stage in int32 without branches (requant32.h), per channel:
  /// for an int32 accumulator and every shift Requant32 covers.
  bool int32_stage_ = false;
  int64_t bias_min_ = 0, bias_max_ = 0;
  int64_t repeat_ = 1;  ///< Copies of the channel parameters below, one after another.
  std::vector<int32_t> bias_, bound_, shift_, mask_, half_, factor_;

  /// Whether every sum plus its bias provably fits the int32 accumulator
  /// (then none fails its check, and the int32 stage applies).
  template <typename Acc>
  bool FitsInt32(const Acc* acc, int64_t count) const {
    if (!int32_stage_ || count == 0) return false;
    Acc lo = acc[0], hi = acc[0];
    for (int64_t i = 1; i < count; ++i) lo = std::min(lo, acc[i]), hi = std::max(hi, acc[i]);
    return static_cast<int64_t>(lo) + bias_min_ >= acc_min_ &&
           static_cast<int64_t>(hi) + bias_max_ <= acc_max_;
  }
  template <typename Acc, typename Out>
  void ApplyInt32(const Acc* acc, int64_t rows, Out* y) const {
    // The channel parameters repeat `repeat_` times, so whole groups of rows
    // run as one flat loop long enough for full vectors.
    const int64_t span = n_ * repeat_;
    int64_t r = 0;
    for (; r + repeat_ <= rows; r += repeat_) RequantizeSpan(acc + r * n_, y + r * n_, span);
    for (; r < rows; ++r) RequantizeSpan(acc + r * n_, y + r * n_, n_);
  }
  template <typename Acc, typename Out>
  void RequantizeSpan(const Acc* acc, Out* y, int64_t count) const {
    RequantizeInt32(acc, y, count, bias_.data(), bound_.data(), shift_.data(), mask_.data(),
                    half_.data(), factor_.data(), static_cast<int32_t>(stage_.range.lo),
                    static_cast<int32_t>(stage_.range.hi));
  }
  /// y[i] = Requantize(acc[i] + bias[i], ...) with each parameter per element.
  /// Not inlined: inlined, GCC 12 drops the restrict qualifiers and leaves
  /// the loop scalar.
  template <typename Acc, typename Out>
  [[gnu::noinline]] static void RequantizeInt32(
      const Acc* __restrict acc, Out* __restrict y, int64_t count, const int32_t* __restrict bias,
      const int32_t* __restrict bound, const int32_t* __restrict shift,
      const int32_t* __restrict mask, const int32_t* __restrict half,
      const int32_t* __restrict factor, int32_t lo, int32_t hi) {
    for (int64_t i = 0; i < count; ++i)
      y[i] = static_cast<Out>(Requantize(static_cast<int32_t>(acc[i]) + bias[i], bound[i], shift[i],
                                         mask[i], half[i], factor[i], lo, hi));
  }
};

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_EPILOGUE_H
