//===- src/cpu_reference/pad.cc - PAD, PADV2 ------------------------------===//
//
// out[i] = input[i - before] where every index lies inside the input, and
// `value` elsewhere; pads = [before0, after0, before1, after1, ...]. Any
// dtype: `value` is rounded to float for f32, must be an integer in range
// for i8/i16/i32, and must be 0 for f16. In a quantized graph: `value` is
// an integer at the output's fraction length (the quantizer stores
// quantize(value, f)), and each moved element becomes requant(q, f_in - f_out)
// (docs/numerics.md §7).
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "integer_util.h"
#include "pad.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

template <typename T>
Status FillInteger(double value, DType dtype, HostTensor& out) {
  if (value != std::floor(value) || value < std::numeric_limits<T>::min() ||
      value > std::numeric_limits<T>::max())
    return InvalidArgument(Cat("attribute 'value' is ", value, "; expected an integer in the ",
                               DTypeName(dtype), " range"));
  T* y = out.data<T>();
  for (int64_t i = 0; i < out.elements(); ++i) y[i] = static_cast<T>(value);
  return OkStatus();
}

Status Fill(const KernelContext& ctx, double value, HostTensor& out) {
  switch (out.dtype()) {
    case DType::kF32: {
      float* y = out.data<float>();
      for (int64_t i = 0; i < out.elements(); ++i) y[i] = static_cast<float>(value);
      return OkStatus();
    }
    case DType::kF16:
      if (value == 0.0 && !std::signbit(value)) return OkStatus();  // +0 is all zero bits
      return Unsupported(Cat("attribute 'value' is ", value, "; f16 pad supports only 0"));
    case DType::kI8: return FillInteger<int8_t>(value, out.dtype(), out);
    case DType::kU8: return FillInteger<uint8_t>(value, out.dtype(), out);
    case DType::kI16: return FillInteger<int16_t>(value, out.dtype(), out);
    case DType::kI32: return FillInteger<int32_t>(value, out.dtype(), out);
  }
  return ctx.UnsupportedDType("input", out.dtype());
}

}  // namespace

Status EvalPad(KernelContext& ctx) {
  HostTensor storage;
  OPUC_ASSIGN_OR_RETURN(const HostTensor* moved, MovedInput(ctx, &storage));
  return PadMoved(ctx, *moved);
}

Status PadMoved(KernelContext& ctx, const HostTensor& input) {
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const auto a = PadAttrs::Of(ctx.attrs());
  OPUC_RETURN_IF_ERROR(Fill(ctx, a.value, *output));
  const Ints& pads = a.pads;
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const size_t rank = is.size();
  // Output element strides, and the offset of input element 0 in the output.
  std::vector<int64_t> stride(rank, 1);
  int64_t origin = 0;
  for (size_t d = rank; d-- > 0;) {
    if (d + 1 < rank) stride[d] = stride[d + 1] * os[d + 1];
    origin += pads[2 * d] * stride[d];
  }
  if (input.elements() == 0) return OkStatus();
  // Rows of the innermost axis are contiguous in both: one copy each.
  const size_t outer = rank ? rank - 1 : 0;  // the axes that step from row to row
  const int64_t row = rank ? is[rank - 1] : 1;
  const auto size = static_cast<int64_t>(DTypeSize(input.dtype()));
  const uint8_t* in = input.raw();
  uint8_t* out = output->mutable_bytes();
  std::vector<int64_t> index(rank, 0);
  int64_t offset = origin;
  for (int64_t i = 0; i < input.elements(); i += row) {
    std::memcpy(out + offset * size, in + i * size, static_cast<size_t>(row * size));
    for (size_t d = outer; d-- > 0;) {
      offset += stride[d];
      if (++index[d] < is[d]) break;
      offset -= stride[d] * is[d];
      index[d] = 0;
    }
  }
  return OkStatus();
}

}  // namespace opuc::reference
