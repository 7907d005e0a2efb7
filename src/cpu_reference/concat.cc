//===- src/cpu_reference/concat.cc - CONCATENATION ------------------------===//
//
// For each index of the dimensions before `axis` (the outer loop), the
// inputs' blocks along axis follow one another in input order. Any dtype;
// a fused activation other than none needs f32 and is applied afterwards.
// A quantized graph (docs/numerics.md §5): every element of input i becomes
// requant(q, f_i - f_out) in the output's format (i8, u8, i16), clamped by a
// fused activation (§3).
//
//===----------------------------------------------------------------------===//
#include <cstring>
#include <vector>

#include "integer_util.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

/// Copies the blocks of `inputs` along the node's axis into the output.
Expected<HostTensor*> Move(KernelContext& ctx, const std::vector<const HostTensor*>& inputs) {
  const DType dtype = inputs.front()->dtype();
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& os = output->shape();
  const auto rank = static_cast<int64_t>(os.size());
  const int64_t attr_axis = ConcatAttrs::Of(ctx.attrs()).axis;
  const auto axis = static_cast<size_t>(attr_axis < 0 ? attr_axis + rank : attr_axis);
  int64_t outer = 1, inner = static_cast<int64_t>(DTypeSize(dtype));
  for (size_t d = 0; d < axis; ++d) outer *= os[d];
  for (size_t d = axis + 1; d < os.size(); ++d) inner *= os[d];

  uint8_t* out = output->mutable_bytes();
  for (int64_t o = 0; o < outer; ++o) {
    for (const HostTensor* input : inputs) {
      const int64_t block = input->shape()[axis] * inner;
      if (block) std::memcpy(out, input->raw() + o * block, static_cast<size_t>(block));
      out += block;
    }
  }
  return output;
}

Status ConcatInt(KernelContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(IntRange range, OutputRange(ctx, f_out));
  std::vector<HostTensor> moved;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    OPUC_ASSIGN_OR_RETURN(HostTensor m, RequantizedInput(ctx, i, Cat("inputs[", i, "]"), range));
    moved.push_back(std::move(m));
  }
  std::vector<const HostTensor*> inputs;
  for (const HostTensor& m : moved) inputs.push_back(&m);
  return Move(ctx, inputs).status();
}

}  // namespace

Status EvalConcat(KernelContext& ctx) {
  if (IsQuantizedMove(ctx)) return ConcatInt(ctx);
  const Activation activation = ConcatAttrs::Of(ctx.attrs()).activation;
  const DType dtype = ctx.input(0)->dtype();
  if (activation != Activation::kNone && dtype != DType::kF32)
    return Unsupported(Cat("inputs have dtype ", DTypeName(dtype),
                           "; the float reference applies a fused activation to f32 only"));
  std::vector<const HostTensor*> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) inputs.push_back(ctx.input(i));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, Move(ctx, inputs));
  if (activation == Activation::kNone) return OkStatus();
  float* y = output->data<float>();
  for (int64_t e = 0; e < output->elements(); ++e) y[e] = Activate(activation, y[e]);
  return OkStatus();
}

}  // namespace opuc::reference
