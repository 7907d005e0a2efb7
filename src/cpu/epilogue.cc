//===- src/cpu/epilogue.cc - After the sum ------------------------===//
#include "epilogue.h"

#include <algorithm>
#include <limits>

#include "kernels.h"

namespace opuc::cpu {

FloatEpilogue::FloatEpilogue(const reference::KernelContext& ctx)
    : activation_(FusedActivation(ctx.attrs())) {
  if (const HostTensor* bias = ctx.input(2)) bias_ = bias->data<float>();
}

namespace {

/// x = activation(x) over `count` elements: the clamps as TFLite's
/// min(max(x, lo), hi), which is also what the standalone relu ops give for
/// every input (NaN and -0 included).
void Activate(Activation activation, float* __restrict x, int64_t count) {
  float lo = 0, hi = std::numeric_limits<float>::infinity();
  switch (activation) {
    case Activation::kNone: return;
    case Activation::kTanh:
      for (int64_t i = 0; i < count; ++i) x[i] = reference::Activate(activation, x[i]);
      return;
    case Activation::kRelu: break;
    case Activation::kRelu6: hi = 6; break;
    case Activation::kReluN1To1: lo = -1, hi = 1; break;
  }
  for (int64_t i = 0; i < count; ++i) x[i] = std::min(std::max(x[i], lo), hi);
}

}  // namespace

void FloatEpilogue::Apply(float* data, int64_t rows, int64_t n) const {
  if (bias_)
    for (int64_t r = 0; r < rows; ++r) {
      float* __restrict row = data + r * n;
      for (int64_t c = 0; c < n; ++c) row[c] += bias_[c];
    }
  Activate(activation_, data, rows * n);
}

namespace {

struct AddOp {
  float operator()(float a, float b) const { return a + b; }
};
struct SubOp {
  float operator()(float a, float b) const { return a - b; }
};
struct MulOp {
  float operator()(float a, float b) const { return a * b; }
};
struct PReluOp {  // the reference's expression (prelu.cc), so NaN and -0 go as there
  float operator()(float x, float alpha) const { return x >= 0.0f ? x : x * alpha; }
};

/// x = op(x, other) (or op(other, x)) over rows × n elements, `other` read by
/// its shape. Each form is a loop of its own, without a branch inside, so
/// that each vectorizes (not inlined: GCC 12 drops restrict when it inlines).
template <typename Op, bool kValueFirst>
[[gnu::noinline]] void Binary(float* __restrict x, const float* __restrict other,
                              ChainStep::Operand operand, int64_t rows, int64_t n) {
  const Op op;
  const auto f = [&](float value, float o) { return kValueFirst ? op(value, o) : op(o, value); };
  switch (operand) {
    case ChainStep::Operand::kWhole:
      for (int64_t i = 0; i < rows * n; ++i) x[i] = f(x[i], other[i]);
      return;
    case ChainStep::Operand::kChannel:
      for (int64_t r = 0; r < rows; ++r) {
        float* __restrict row = x + r * n;
        for (int64_t c = 0; c < n; ++c) row[c] = f(row[c], other[c]);
      }
      return;
    default: {
      const float s = other[0];
      for (int64_t i = 0; i < rows * n; ++i) x[i] = f(x[i], s);
    }
  }
}

template <typename Op>
void Binary(const ChainStep& step, float* x, const float* other, int64_t rows, int64_t n) {
  if (step.value_first)
    Binary<Op, true>(x, other, step.operand, rows, n);
  else
    Binary<Op, false>(x, other, step.operand, rows, n);
}

}  // namespace

void FloatChain::Apply(float* data, int64_t offset, int64_t rows, int64_t n) const {
  for (const ChainStep& step : steps_) {
    switch (step.op) {
      case OpKind::kRelu: Activate(Activation::kRelu, data, rows * n); continue;
      case OpKind::kRelu6: Activate(Activation::kRelu6, data, rows * n); continue;
      case OpKind::kReluN1To1: Activate(Activation::kReluN1To1, data, rows * n); continue;
      default:
        if (FloatUnaryInPlace(step.op, data, rows * n)) continue;
    }
    // The whole-shape operand's elements for this block start at `offset`.
    const float* other =
        step.operand == ChainStep::Operand::kWhole ? step.other + offset : step.other;
    if (step.op == OpKind::kAdd)
      Binary<AddOp>(step, data, other, rows, n);
    else if (step.op == OpKind::kSub)
      Binary<SubOp>(step, data, other, rows, n);
    else if (step.op == OpKind::kPRelu)
      Binary<PReluOp>(step, data, other, rows, n);
    else
      Binary<MulOp>(step, data, other, rows, n);
    Activate(step.activation, data, rows * n);
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
  int32_stage_ = !wide && std::all_of(stage_.shift.begin(), stage_.shift.end(), Requant32::Covers);
  if (!int32_stage_) return;
  for (int64_t c = 0; c < n; ++c) {
    const int32_t b = stage_.bias ? stage_.bias[c] : 0;
    bias_min_ = std::min<int64_t>(bias_min_, b);
    bias_max_ = std::max<int64_t>(bias_max_, b);
    const Requant32 r = Requant32::For(stage_.shift[static_cast<size_t>(c)]);
    bias_.push_back(b);
    bound_.push_back(r.bound);
    shift_.push_back(r.shift);
    mask_.push_back(r.mask);
    half_.push_back(r.half);
    factor_.push_back(r.factor);
  }
  // Enough copies for a flat loop of at least 64 elements (a vector of int8).
  repeat_ = n > 0 ? (64 + n - 1) / n : 1;
  for (std::vector<int32_t>* v : {&bias_, &bound_, &shift_, &mask_, &half_, &factor_}) {
    const std::vector<int32_t> one = *v;
    for (int64_t copy = 1; copy < repeat_; ++copy) v->insert(v->end(), one.begin(), one.end());
  }
}

}  // namespace opuc::cpu
