//===- src/cpu_reference/mean.cc - MEAN -----------------------------------===//
//
// Sums: the sums start at 0 and the input is visited in C order, each element
// added to the sum its reduced index maps to; then each sum is divided by the
// number of elements reduced into it. f32: sums in float, divided by the
// count converted to float, as TFLite's reference Mean; reducing over an
// empty axis leaves 0. Quantized (docs/numerics.md §5): exact int64 sums, then
// sat_int8(rhu_div(sum · 2^max(d,0), count · 2^max(-d,0))), d = f_out - f_in.
//
//===----------------------------------------------------------------------===//
#include <vector>

#include "integer_util.h"

namespace opuc::reference {
namespace {

/// `finish(sum, count, out, index)` writes output element `index`.
template <typename T, typename Acc, typename Finish>
Status Mean(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& shape = input.shape();
  const size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t axis : MeanAttrs::Of(ctx.attrs()).axes)
    reduced[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)] = true;

  // The output offset moves by out_stride[d] along input dimension d (0 if reduced).
  std::vector<int64_t> out_stride(rank, 0);
  int64_t step = 1, count = 1;
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) {
      count *= shape[d];
      continue;
    }
    out_stride[d] = step;
    step *= shape[d];
  }

  const T* in = input.data<T>();
  std::vector<Acc> sums(static_cast<size_t>(output->elements()), Acc{0});
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < input.elements(); ++i) {
    sums[static_cast<size_t>(offset)] += static_cast<Acc>(in[i]);
    for (size_t d = rank; d-- > 0;) {
      offset += out_stride[d];
      if (++index[d] < shape[d]) break;
      offset -= out_stride[d] * shape[d];
      index[d] = 0;
    }
  }
  for (int64_t o = 0; o < output->elements(); ++o)
    OPUC_RETURN_IF_ERROR(finish(sums[static_cast<size_t>(o)], count, output, o));
  return OkStatus();
}

}  // namespace

Status EvalMean(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) {
    OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
    const IntRange range = FormatRange(ctx.output_tensor().dtype);
    const auto finish = [&](int64_t sum, int64_t count, HostTensor* out, int64_t index) -> Status {
      OPUC_ASSIGN_OR_RETURN(int64_t average, Average(sum, count, f_out - f_in, range));
      IntWriter(out).Set(index, average);
      return OkStatus();
    };
    return VisitFormat(ctx.input(0)->dtype(),
                       [&](auto element) { return Mean<decltype(element), int64_t>(ctx, finish); });
  }
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  return Mean<float, float>(ctx, [](float sum, int64_t count, HostTensor* out, int64_t index) {
    out->data<float>()[index] = count == 0 ? sum : sum / static_cast<float>(count);
    return OkStatus();
  });
}

}  // namespace opuc::reference
