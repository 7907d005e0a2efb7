//===- src/cpu/mean.cc - MEAN over a run of axes -----------------===//
//
// The reference's rule (mean.cc, numerics.md §5) when the reduced axes are
// one run [a, b) of the input's dimensions, as a global average pool's
// {1, 2} of NHWC is: the input is then outer × count × inner, and each
// output element (o, i) sums the count elements r of in[o][r][i]. Summing
// row r into a vector of `inner` sums, r ascending, adds each element to its
// sum in the order the reference visits the input (C order), so float sums
// have its bits; integer sums are exact int64, averaged as the reference
// averages. Other axes run on the reference's kernel.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <vector>

#include "integer_util.h"
#include "kept_buffer.h"
#include "kernels.h"
#include "mean_extents.h"

namespace opuc::cpu {
namespace {

/// sums[i] += row[i]. Not inlined: inlined, GCC 12 drops restrict.
template <typename T, typename Acc>
[[gnu::noinline]] void AddRow(const T* __restrict row, Acc* __restrict sums, int64_t n) {
  for (int64_t i = 0; i < n; ++i) sums[i] += static_cast<Acc>(row[i]);
}

struct MeanSums;  // KeptBuffer tags
struct ExactMeanSums;

}  // namespace

MeanExtents MeanExtentsOf(const Shape& shape, const std::vector<int64_t>& axes) {
  const auto rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank) return {1, -1, 1};  // (the mean's checks name it)
    reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  const auto first = std::find(reduced.begin(), reduced.end(), true);
  const auto end = std::find(first, reduced.end(), false);
  if (std::find(end, reduced.end(), true) != reduced.end()) return {1, -1, 1};
  MeanExtents e;
  const auto before = static_cast<int64_t>(first - reduced.begin());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t& part = reduced[static_cast<size_t>(d)] ? e.count : d < before ? e.outer : e.inner;
    part *= shape[static_cast<size_t>(d)];
  }
  return e;
}

Status Mean(reference::KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  const MeanExtents e = MeanExtentsOf(input.shape(), MeanAttrs::Of(ctx.attrs()).axes);
  if (e.count < 0) return reference::EvalMean(ctx);
  const auto rows = [&](auto tag, auto& sums, int64_t o) {
    const auto* in = input.data<decltype(tag)>() + o * e.count * e.inner;
    std::fill(sums.begin(), sums.end(), 0);
    for (int64_t r = 0; r < e.count; ++r) AddRow(in + r * e.inner, sums.data(), e.inner);
  };
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
    std::vector<float>& sums = KeptBuffer<float, MeanSums>();
    sums.resize(static_cast<size_t>(e.inner));
    for (int64_t o = 0; o < e.outer; ++o) {
      rows(float{}, sums, o);
      float* y = output->data<float>() + o * e.inner;
      for (int64_t i = 0; i < e.inner; ++i)
        y[i] = e.count == 0 ? sums[static_cast<size_t>(i)]
                            : sums[static_cast<size_t>(i)] / static_cast<float>(e.count);
    }
    return OkStatus();
  }
  OPUC_ASSIGN_OR_RETURN(const int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(const int f_out, reference::OutputFraction(ctx));
  const reference::IntRange range = reference::FormatRange(ctx.output_tensor().dtype);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  std::vector<int64_t>& sums = KeptBuffer<int64_t, ExactMeanSums>();
  sums.resize(static_cast<size_t>(e.inner));
  const reference::IntWriter y(output);
  for (int64_t o = 0; o < e.outer; ++o) {
    OPUC_RETURN_IF_ERROR(reference::VisitFormat(input.dtype(), [&](auto tag) -> Status {
      rows(tag, sums, o);
      return OkStatus();
    }));
    for (int64_t i = 0; i < e.inner; ++i) {
      OPUC_ASSIGN_OR_RETURN(
          const int64_t average,
          reference::Average(sums[static_cast<size_t>(i)], e.count, f_out - f_in, range));
      y.Set(o * e.inner + i, average);
    }
  }
  return OkStatus();
}

}  // namespace opuc::cpu
