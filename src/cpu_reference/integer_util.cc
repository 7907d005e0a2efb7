//===- src/cpu_reference/integer_util.cc - Shared pieces of integer kernels ===//
#include "integer_util.h"

#include <limits>

#include "support/format.h"

namespace opuc::reference {

int MaxActivationFraction(DType format) {
  return format == DType::kI16 ? kMaxWideActivationFraction : kMaxActivationFraction;
}

IntRange FormatRange(DType format) {
  const IntegerBounds bounds = QuantizedBounds(format);
  return {bounds.lo, bounds.hi};
}

bool IsQuantizedInput(const KernelContext& ctx, size_t i) {
  const HostTensor* input = ctx.input(i);
  return input && IsQuantizedFormat(input->dtype());
}

Expected<int> TensorFraction(const Tensor& tensor, std::string_view role, int lo, int hi) {
  const FixedPoint& fp = tensor.fixed_point;
  const std::string where = Cat(role, " (tensor '", tensor.name, "')");
  if (fp.empty())
    return InvalidArgument(Cat(where, " is ", DTypeName(tensor.dtype),
                               " without a fixed point; its scale is unknown"));
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
  if (!IsQuantizedFormat(tensor.dtype))
    return InvalidArgument(Cat(role, " (tensor '", tensor.name, "') is ", DTypeName(tensor.dtype),
                               "; expected a quantized format (i8, u8 or i16)"));
  return TensorFraction(tensor, role, kMinActivationFraction, MaxActivationFraction(tensor.dtype));
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
  if (tensor.dtype != DType::kI8)
    return InvalidArgument(Cat(where, " is ", DTypeName(tensor.dtype), "; weights are i8"));
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

Expected<IntRange> ActivationRange(Activation activation, int f_out, DType format) {
  const IntRange all = FormatRange(format);
  const auto quantize = [&](double v) { return QuantizeTo(v, f_out, all.lo, all.hi); };
  switch (activation) {
    case Activation::kNone: return all;
    case Activation::kRelu: return IntRange{all.Clamp(0), all.hi};
    case Activation::kRelu6: return IntRange{all.Clamp(0), quantize(6.0)};
    case Activation::kReluN1To1: return IntRange{quantize(-1.0), quantize(1.0)};
    case Activation::kTanh: break;
  }
  return Unsupported(
      "a fused tanh has no integer form; the quantizer makes it a separate "
      "lookup_table node (docs/numerics.md §3)");
}

Expected<IntRange> OutputRange(const KernelContext& ctx, int f_out) {
  const DType format = ctx.output_tensor().dtype;
  if (!HasFusedActivation(ctx.node().op)) return FormatRange(format);
  return ActivationRange(FusedActivation(ctx.attrs()), f_out, format);
}

std::vector<int32_t> Widened(const HostTensor& tensor) {
  std::vector<int32_t> values(static_cast<size_t>(tensor.elements()));
  const auto copy = [&](const auto* q) {
    for (size_t i = 0; i < values.size(); ++i) values[i] = q[i];
  };
  switch (tensor.dtype()) {
    case DType::kU8: copy(tensor.data<uint8_t>()); break;
    case DType::kI16: copy(tensor.data<int16_t>()); break;
    case DType::kI32: copy(tensor.data<int32_t>()); break;
    default: copy(tensor.data<int8_t>()); break;
  }
  return values;
}

void IntWriter::Set(int64_t i, int64_t v) const {
  switch (dtype_) {
    case DType::kU8: out_->data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case DType::kI16: out_->data<int16_t>()[i] = static_cast<int16_t>(v); break;
    default: out_->data<int8_t>()[i] = static_cast<int8_t>(v); break;
  }
}

Status CheckAccumulator(const KernelContext& ctx, int64_t acc, int64_t channel) {
  const bool wide = ctx.input(0)->dtype() == DType::kI16;
  const int64_t limit = wide ? int64_t{1} << 47 : int64_t{1} << 31;
  if (acc >= -limit && acc < limit) return OkStatus();
  return InvalidArgument(Cat("output channel ", channel, ": accumulator ", acc, " leaves int",
                             wide ? 48 : 32,
                             " (the accumulation bound of docs/numerics.md §2 does not hold for ",
                             OpName(ctx.node().op), ")"));
}

Expected<int64_t> Average(int64_t sum, int64_t count, int d, IntRange range) {
  if (count == 0) return range.Clamp(0);
  constexpr int64_t kLimit = int64_t{1} << 61;  // 2n + m and 2m stay in int64
  int64_t n = sum, m = count;
  const bool overflow = d > 0 ? __builtin_mul_overflow(sum, int64_t{1} << d, &n)
                              : __builtin_mul_overflow(count, int64_t{1} << -d, &m);
  if (overflow || n >= kLimit || n <= -kLimit || m >= kLimit)
    return InvalidArgument(Cat("average of ", count, " elements (sum ", sum,
                               ") with a fraction-length change of ", d,
                               " is too large to divide exactly"));
  return range.Clamp(RhuDiv(n, m));
}

Status NeedsLookupTable(const KernelContext& ctx) {
  return Unsupported(Cat(OpName(ctx.node().op), " on ", DTypeName(ctx.input(0)->dtype()),
                         " needs a lookup_table (run the quantizer; docs/numerics.md §6)"));
}

Status ActivationInt(KernelContext& ctx, Activation activation) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(IntRange range,
                        ActivationRange(activation, f_out, ctx.output_tensor().dtype));
  const int shift = f_in - f_out;
  return UnaryInt(ctx, [&](int32_t q) { return RequantTo(q, shift, range.lo, range.hi); });
}

bool IsQuantizedMove(const KernelContext& ctx) {
  return IsQuantizedInput(ctx) &&
         (!ctx.input_tensor(0).fixed_point.empty() || !ctx.output_tensor().fixed_point.empty());
}

Expected<HostTensor> RequantizedInput(const KernelContext& ctx, size_t i, std::string_view role,
                                      IntRange range) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, i, role));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  const HostTensor& input = *ctx.input(i);
  OPUC_ASSIGN_OR_RETURN(HostTensor moved,
                        HostTensor::Zeros(ctx.output_tensor().dtype, input.shape()));
  const std::vector<int32_t> x = Widened(input);
  const IntWriter y(&moved);
  for (int64_t e = 0; e < input.elements(); ++e)
    y.Set(e, RequantTo(x[static_cast<size_t>(e)], f_in - f_out, range.lo, range.hi));
  return moved;
}

Expected<const HostTensor*> MovedInput(const KernelContext& ctx, HostTensor* storage) {
  if (!IsQuantizedMove(ctx)) return ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(*storage,
                        RequantizedInput(ctx, 0, "input", FormatRange(ctx.output_tensor().dtype)));
  return storage;
}

Expected<int64_t> InnerProductStage::Finish(const KernelContext& ctx, int64_t acc,
                                            int64_t c) const {
  const auto k = static_cast<size_t>(c);
  const int64_t total = acc + (bias ? bias[k] : 0);
  OPUC_RETURN_IF_ERROR(CheckAccumulator(ctx, total, c));
  return RequantTo(total, shift[k], range.lo, range.hi);  // M = 1: |total| < 2^47 needs no product
}

Expected<InnerProductStage> MakeInnerProductStage(const KernelContext& ctx, int weight_axis,
                                                  int64_t channels) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int> f_w,
                        WeightFractions(ctx.input_tensor(1), "weights", weight_axis, channels));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  InnerProductStage stage;
  OPUC_ASSIGN_OR_RETURN(stage.range, OutputRange(ctx, f_out));
  for (int f : f_w) stage.shift.push_back(f_in + f - f_out);
  if (const HostTensor* bias = ctx.input(2)) stage.bias = bias->data<int32_t>();
  return stage;
}

}  // namespace opuc::reference
