//===- src/cpu/kernels/epilogue.h - After the sum ----------------*- C++ -*-===//
//
// What an inner product does to each sum, over a block of output rows whose
// channel is the innermost index: on floats the bias and the fused
// activation, as the reference does them (sum + bias, then TFLite's clamp);
// on integers the reference's output stage (bias, accumulator check, S[c],
// saturation and clamp), written straight into the output's format.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_KERNELS_EPILOGUE_H
#define OPUC_SRC_CPU_KERNELS_EPILOGUE_H

#include <cstdint>
#include <vector>

#include "chain_step.h"
#include "integer_util.h"

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
};

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_KERNELS_EPILOGUE_H
