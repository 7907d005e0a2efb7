//===- src/cpu/inner_product.h - GEMM-shaped ops --------*- C++ -*-===//
//
// conv2d and fully_connected as out = patches · weightsᵀ over blocks of
// output rows, each block's epilogue (bias, fused activation; on integers the
// output stage of docs/numerics.md §2–§3) applied while the block is in
// cache. An op supplies only its patches: `gather(T{}, first_row, rows,
// plane, buffer)` returns the rows of A for elements of type T, either
// written into `buffer` or viewed in place. Integers are summed exactly
// (gemm.h); an i16 input is two planes, the signed high byte counted 256
// times and the unsigned low byte once, as the OPU's two passes.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_INNER_PRODUCT_H
#define OPUC_SRC_CPU_INNER_PRODUCT_H

#include <algorithm>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "epilogue.h"
#include "gemm.h"
#include "integer_chain.h"
#include "integer_util.h"
#include "kept_buffer.h"

namespace opuc::cpu {

/// Which part of an integer element a pass reads.
enum class Plane { kWhole, kHigh, kLow };

template <typename T>
float PlaneValue(T v, Plane plane) {
  if constexpr (std::is_same_v<T, int16_t>) {
    const Int16Bytes bytes = SplitInt16(v);
    if (plane == Plane::kHigh) return static_cast<float>(bytes.high);
    if (plane == Plane::kLow) return static_cast<float>(bytes.low);
  }
  return static_cast<float>(v);
}

/// One pass of an integer inner product: the plane it reads, the largest
/// magnitude there, and its weight in the sum.
struct Pass {
  Plane plane;
  int64_t max_abs;
  int64_t scale;
};
template <typename T>
std::vector<Pass> PassesOf() {
  if constexpr (std::is_same_v<T, int16_t>)
    return {{Plane::kHigh, 128, 256}, {Plane::kLow, 255, 1}};
  if constexpr (std::is_same_v<T, uint8_t>) return {{Plane::kWhole, 255, 1}};
  return {{Plane::kWhole, 128, 1}};
}

/// Output rows per block: the block's patches stay within a few hundred KB.
inline int64_t BlockRows(int64_t k) {
  return std::max<int64_t>(16, (int64_t{1} << 17) / std::max<int64_t>(k, 1));
}

struct PatchesBuffer;
struct WeightsBuffer;
struct SumsBuffer;
struct ExactSumsBuffer;

/// `rows` output rows of `n` channels (n = weights.shape[0]), reduction
/// length k = weights.elements() / n.
/// `tail` follows the epilogue on each block.
template <typename Gather>
Status GemmInnerProduct(reference::KernelContext& ctx, int64_t rows, Gather gather, Tail tail) {
  const HostTensor& weights = *ctx.input(1);
  const int64_t n = weights.shape()[0];
  const int64_t k = n ? weights.elements() / n : 0;
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const int64_t block = BlockRows(k);
  std::vector<float>& buffer = KeptBuffer<float, PatchesBuffer>();

  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 1, "weights"));
    const FloatEpilogue epilogue(ctx);
    float* out = output->data<float>();
    for (int64_t r = 0; r < rows; r += block) {
      const int64_t count = std::min(block, rows - r);
      GemmABt(gather(float{}, r, count, Plane::kWhole, buffer), {weights.data<float>(), n, k, k},
              out + r * n);
      epilogue.Apply(out + r * n, count, n);
      if (tail.floats) tail.floats->Apply(out + r * n, r * n, count, n);
    }
    return OkStatus();
  }

  OPUC_ASSIGN_OR_RETURN(IntegerEpilogue epilogue, IntegerEpilogue::Make(ctx, 0, n));
  const int8_t* w = weights.data<int8_t>();
  std::vector<float>& wf = KeptBuffer<float, WeightsBuffer>();
  wf.resize(static_cast<size_t>(n * k));
  int64_t max_w = 0;
  for (size_t i = 0; i < wf.size(); ++i) {
    wf[i] = w[i];
    max_w = std::max<int64_t>(max_w, std::abs(int64_t{w[i]}));
  }
  std::vector<int64_t>& acc = KeptBuffer<int64_t, ExactSumsBuffer>();
  std::vector<float>& scratch = KeptBuffer<float, SumsBuffer>();
  return reference::VisitFormat(ctx.input(0)->dtype(), [&](auto in) -> Status {
    const std::vector<Pass> passes = PassesOf<decltype(in)>();
    // One pass whose whole reduction is exact in float: the epilogue reads
    // the GEMM's floats, with no int64 sums in between.
    const bool direct = passes.size() == 1 && k <= ExactChunk(passes[0].max_abs, max_w);
    for (int64_t r = 0; r < rows; r += block) {
      const int64_t count = std::min(block, rows - r);
      if (direct) {
        scratch.resize(static_cast<size_t>(count * n));
        GemmABt(gather(in, r, count, Plane::kWhole, buffer), {wf.data(), n, k, k}, scratch.data());
        OPUC_RETURN_IF_ERROR(epilogue.Apply(scratch.data(), count, output, r * n));
        if (tail.integers) tail.integers->Apply(*output, r * n, count * n);
        continue;
      }
      acc.assign(static_cast<size_t>(count * n), 0);
      for (const Pass& pass : passes)
        AccumulateExact(gather(in, r, count, pass.plane, buffer), {wf.data(), n, k, k},
                        pass.max_abs, max_w, pass.scale, acc.data(), scratch);
      OPUC_RETURN_IF_ERROR(epilogue.Apply(acc.data(), count, output, r * n));
      if (tail.integers) tail.integers->Apply(*output, r * n, count * n);
    }
    return OkStatus();
  });
}

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_INNER_PRODUCT_H
