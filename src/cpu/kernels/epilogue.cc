//===- src/cpu/kernels/epilogue.cc - After the sum ------------------------===//
#include "epilogue.h"

#include <algorithm>

namespace opuc::cpu {

FloatEpilogue::FloatEpilogue(const reference::KernelContext& ctx)
    : activation_(FusedActivation(ctx.attrs())) {
  if (const HostTensor* bias = ctx.input(2)) bias_ = bias->data<float>();
}

void FloatEpilogue::Apply(float* data, int64_t rows, int64_t n) const {
  float lo = 0, hi = 0;
  switch (activation_) {
    case Activation::kRelu: lo = 0, hi = std::numeric_limits<float>::infinity(); break;
    case Activation::kRelu6: lo = 0, hi = 6; break;
    case Activation::kReluN1To1: lo = -1, hi = 1; break;
    case Activation::kNone:
    case Activation::kTanh: break;
  }
  const bool clamp = activation_ != Activation::kNone && activation_ != Activation::kTanh;
  for (int64_t r = 0; r < rows; ++r) {
    float* __restrict row = data + r * n;
    if (bias_)
      for (int64_t c = 0; c < n; ++c) row[c] += bias_[c];
    if (clamp)
      for (int64_t c = 0; c < n; ++c) row[c] = std::min(std::max(row[c], lo), hi);  // as TFLite
    else if (activation_ == Activation::kTanh)
      for (int64_t c = 0; c < n; ++c) row[c] = reference::Activate(activation_, row[c]);
  }
}

Expected<IntegerEpilogue> IntegerEpilogue::Make(const reference::KernelContext& ctx,
                                                int weight_axis, int64_t n) {
  OPUC_ASSIGN_OR_RETURN(reference::InnerProductStage stage,
                        reference::MakeInnerProductStage(ctx, weight_axis, n));
  return IntegerEpilogue(ctx, std::move(stage), n);
}

IntegerEpilogue::IntegerEpilogue(const reference::KernelContext& ctx,
                                 reference::InnerProductStage stage, int64_t n)
    : ctx_(ctx), stage_(std::move(stage)), n_(n) {
  const bool wide = ctx.input(0)->dtype() == DType::kI16;  // as reference::CheckAccumulator
  acc_max_ = (wide ? int64_t{1} << 47 : int64_t{1} << 31) - 1;
  acc_min_ = -acc_max_ - 1;
}

}  // namespace opuc::cpu
