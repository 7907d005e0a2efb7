//===- src/cpu_reference/softmax.cc - SOFTMAX -----------------------------===//
//
// Over the last axis, for each row r. f32: m = max_c x[r,c] (from the lowest
// float); e[c] = exp((x[r,c] - m) · beta) in float, with beta rounded to
// float; sum = e[0] + e[1] + ... in float; out[r,c] = e[c] / sum (TFLite's
// reference Softmax). Quantized (docs/numerics.md §8), all in integers: with the
// exp_table E (i32[256], E[0] = 32768, entries in [0, 32768]),
// m = max_c q[r,c], sum = Σ_c E[m - q[r,c]], and
// out[r,c] = sat_int8(rhu_div(E[m - q[r,c]] · 2^f_out, sum)), f_out >= 0.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <limits>

#include "integer_util.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

constexpr int32_t kExpOne = 32768;  // E[0]: exp(0) in Q15

Status CheckExpTable(const KernelContext& ctx, const int32_t* table) {
  const std::string where = Cat("input 'exp_table' (tensor '", ctx.input_tensor(1).name, "')");
  if (table[0] != kExpOne)
    return InvalidArgument(
        Cat(where, " has entry 0 = ", table[0], "; expected ", kExpOne, " (exp(0) in Q15)"));
  for (int d = 1; d < 256; ++d)
    if (table[d] < 0 || table[d] > kExpOne)
      return InvalidArgument(
          Cat(where, " has entry ", d, " = ", table[d], "; expected one in [0, ", kExpOne, "]"));
  return OkStatus();
}

Status SoftmaxInt(KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  if (input.dtype() == DType::kI16)
    return Unsupported(Cat("input (tensor '", ctx.input_tensor(0).name,
                           "') is i16; an integer softmax reads 8-bit inputs, i8 or u8",
                           " (docs/numerics.md §8)"));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  if (f_out < 0)
    return InvalidArgument(Cat("output (tensor '", ctx.output_tensor().name,
                               "') has fraction length ", f_out,
                               "; an integer softmax needs one >= 0 (docs/numerics.md §8)"));
  const int32_t* table = ctx.input(1)->data<int32_t>();
  OPUC_RETURN_IF_ERROR(CheckExpTable(ctx, table));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const IntRange range = FormatRange(output->dtype());
  const int64_t depth = input.shape().back();
  if (depth == 0) return OkStatus();
  const int64_t rows = input.elements() / depth;
  const std::vector<int32_t> values = Widened(input);
  const IntWriter y(output);
  for (int64_t r = 0; r < rows; ++r) {
    const int32_t* q = values.data() + r * depth;
    const int32_t max = *std::max_element(q, q + depth);  // max - q[c] in [0, 255]
    int64_t sum = 0;                                      // >= E[0] = 32768, <= 32768 · depth
    for (int64_t c = 0; c < depth; ++c) sum += table[max - q[c]];
    for (int64_t c = 0; c < depth; ++c)
      y.Set(r * depth + c, range.Clamp(RhuDiv(int64_t{table[max - q[c]]} << f_out, sum)));
  }
  return OkStatus();
}

}  // namespace

Status EvalSoftmax(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return SoftmaxInt(ctx);
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const auto beta = static_cast<float>(SoftmaxAttrs::Of(ctx.attrs()).beta);
  const int64_t depth = input.shape().back();
  if (depth == 0) return OkStatus();
  const int64_t rows = input.elements() / depth;
  const float* in = input.data<float>();
  float* out = output->data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * depth;
    float* y = out + r * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int64_t c = 0; c < depth; ++c) max = std::max(max, x[c]);
    float sum = 0.0f;
    for (int64_t c = 0; c < depth; ++c) {
      y[c] = std::exp((x[c] - max) * beta);
      sum += y[c];
    }
    for (int64_t c = 0; c < depth; ++c) y[c] = y[c] / sum;
  }
  return OkStatus();
}

}  // namespace opuc::reference
