//===- src/cpu/reference/integer_util.cc - Shared pieces of i8 kernels ----===//
#include "integer_util.h"

#include <limits>

#include "support/format.h"

namespace opuc::reference {

Expected<int> TensorFraction(const Tensor& tensor, std::string_view role, int lo, int hi) {
  const FixedPoint& fp = tensor.fixed_point;
  const std::string where = Cat(role, " (tensor '", tensor.name, "')");
  if (fp.empty())
    return InvalidArgument(Cat(where, " is i8 without a fixed point; its scale is unknown"));
  if (fp.axis != -1 || fp.fraction_bits.size() != 1)
    return InvalidArgument(Cat(where, " has ", fp.fraction_bits.size(), " fraction lengths (axis ",
                               fp.axis, "); expected one for the whole tensor"));
  const int f = fp.fraction_bits[0];
  if (f < lo || f > hi)
    return InvalidArgument(
        Cat(where, " has fraction length ", f, "; expected one in [", lo, ", ", hi, "]"));
  return f;
}

Expected<int> ActivationFraction(const Tensor& tensor, std::string_view role) {
  return TensorFraction(tensor, role, kMinActivationFraction, kMaxActivationFraction);
}

Expected<int> InputFraction(const KernelContext& ctx, size_t i, std::string_view role) {
  return ActivationFraction(ctx.input_tensor(i), Cat("input '", role, "'"));
}

Expected<int> OutputFraction(const KernelContext& ctx, size_t i) {
  return ActivationFraction(ctx.output_tensor(i), "output");
}

Expected<std::vector<int>> WeightFractions(const Tensor& tensor, std::string_view role, int axis,
                                           int64_t channels) {
  const FixedPoint& fp = tensor.fixed_point;
  const std::string where = Cat("input '", role, "' (tensor '", tensor.name, "')");
  if (fp.empty())
    return InvalidArgument(Cat(where, " is i8 without a fixed point; its scale is unknown"));
  std::vector<int> fractions;
  if (fp.axis == -1 && fp.fraction_bits.size() == 1) {
    fractions.assign(static_cast<size_t>(channels), fp.fraction_bits[0]);
  } else if (fp.axis == axis && static_cast<int64_t>(fp.fraction_bits.size()) == channels) {
    fractions.assign(fp.fraction_bits.begin(), fp.fraction_bits.end());
  } else {
    return InvalidArgument(Cat(where, " has a fixed point along axis ", fp.axis, " with ",
                               fp.fraction_bits.size(), " fraction lengths; expected one per",
                               " tensor or ", channels, " along axis ", axis,
                               " (the output channels)"));
  }
  for (size_t c = 0; c < fractions.size(); ++c)
    if (fractions[c] < kMinWeightFraction || fractions[c] > kMaxWeightFraction)
      return InvalidArgument(Cat(where, " has fraction length ", fractions[c], " at channel ", c,
                                 "; expected one in [", kMinWeightFraction, ", ",
                                 kMaxWeightFraction, "]"));
  return fractions;
}

Expected<Int8Range> ActivationRange(Activation activation, int f_out) {
  switch (activation) {
    case Activation::kNone: return Int8Range{-128, 127};
    case Activation::kRelu: return Int8Range{0, 127};
    case Activation::kRelu6: return Int8Range{0, QuantizeToInt8(6.0, f_out)};
    case Activation::kReluN1To1:
      return Int8Range{QuantizeToInt8(-1.0, f_out), QuantizeToInt8(1.0, f_out)};
    case Activation::kTanh: break;
  }
  return Unsupported(
      "a fused tanh has no integer form; the quantizer makes it a separate "
      "lookup_table node (docs/numerics.md §3)");
}

Expected<Int8Range> FusedActivationRange(const KernelContext& ctx, int f_out) {
  return ActivationRange(FusedActivation(ctx.attrs()), f_out);
}

Status CheckAccumulator(const KernelContext& ctx, int64_t acc, int64_t channel) {
  if (acc >= std::numeric_limits<int32_t>::min() && acc <= std::numeric_limits<int32_t>::max())
    return OkStatus();
  return InvalidArgument(Cat("output channel ", channel, ": accumulator ", acc,
                             " leaves int32 (the accumulation bound of docs/numerics.md §2 does"
                             " not hold for ",
                             OpName(ctx.node().op), ")"));
}

Expected<int8_t> AverageI8(int64_t sum, int64_t count, int d) {
  if (count == 0) return int8_t{0};
  constexpr int64_t kLimit = int64_t{1} << 61;  // 2n + m and 2m stay in int64
  int64_t n = sum, m = count;
  const bool overflow = d > 0 ? __builtin_mul_overflow(sum, int64_t{1} << d, &n)
                              : __builtin_mul_overflow(count, int64_t{1} << -d, &m);
  if (overflow || n >= kLimit || n <= -kLimit || m >= kLimit)
    return InvalidArgument(Cat("average of ", count, " elements (sum ", sum,
                               ") with a fraction-length change of ", d,
                               " is too large to divide exactly"));
  return SatInt8(RhuDiv(n, m));
}

Status NeedsLookupTable(const KernelContext& ctx) {
  return Unsupported(Cat(OpName(ctx.node().op), " on i8 needs a lookup_table (run the quantizer;",
                         " docs/numerics.md §6)"));
}

Status ActivationI8(KernelContext& ctx, Activation activation) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(Int8Range range, ActivationRange(activation, f_out));
  const int shift = f_in - f_out;
  return UnaryI8(ctx, [&](int8_t q) { return range.Clamp(Requant(q, shift)); });
}

bool IsQuantizedI8(const KernelContext& ctx) {
  return ctx.input(0)->dtype() == DType::kI8 &&
         (!ctx.input_tensor(0).fixed_point.empty() || !ctx.output_tensor().fixed_point.empty());
}

Expected<HostTensor> RequantizedInput(const KernelContext& ctx, size_t i, std::string_view role) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, i, role));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  const HostTensor& input = *ctx.input(i);
  OPUC_ASSIGN_OR_RETURN(HostTensor moved, HostTensor::Zeros(DType::kI8, input.shape()));
  const int8_t* x = input.data<int8_t>();
  int8_t* y = moved.data<int8_t>();
  for (int64_t e = 0; e < input.elements(); ++e) y[e] = Requant(x[e], f_in - f_out);
  return moved;
}

Expected<const HostTensor*> MovedInput(const KernelContext& ctx, HostTensor* storage) {
  if (!IsQuantizedI8(ctx)) return ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(*storage, RequantizedInput(ctx, 0, "input"));
  return storage;
}

Status InnerProductStage::Finish(const KernelContext& ctx, int64_t acc, int64_t c,
                                 int8_t* y) const {
  const auto k = static_cast<size_t>(c);
  const int64_t total = acc + (bias ? bias[k] : 0);
  OPUC_RETURN_IF_ERROR(CheckAccumulator(ctx, total, c));
  *y = range.Clamp(OutputStage(total, 1, shift[k]));
  return OkStatus();
}

Expected<InnerProductStage> MakeInnerProductStage(const KernelContext& ctx, int weight_axis,
                                                  int64_t channels) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int> f_w,
                        WeightFractions(ctx.input_tensor(1), "weights", weight_axis, channels));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  InnerProductStage stage;
  OPUC_ASSIGN_OR_RETURN(stage.range, FusedActivationRange(ctx, f_out));
  for (int f : f_w) stage.shift.push_back(f_in + f - f_out);
  if (const HostTensor* bias = ctx.input(2)) stage.bias = bias->data<int32_t>();
  return stage;
}

}  // namespace opuc::reference
