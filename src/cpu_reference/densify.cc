//===- src/cpu_reference/densify.cc - DENSIFY -----------------------------===//
//
// The dense value of the input's sparse constant, decoded by DensifyConstant
// (opuc/ir/sparsity.h), which owns the format and its checks. A dense input
// passes through unchanged.
//
//===----------------------------------------------------------------------===//
#include "kernel_util.h"
#include "opuc/ir/sparsity.h"

namespace opuc::reference {

Status EvalDensify(KernelContext& ctx) {
  const Tensor& source = ctx.input_tensor(0);
  if (!source.sparsity) return ctx.SetOutput(0, *ctx.input(0));
  OPUC_ASSIGN_OR_RETURN(ConstantData dense, DensifyConstant(source));
  Tensor value;
  value.name = source.name;
  value.dtype = source.dtype;
  value.shape = source.shape;
  value.constant = std::move(dense);
  OPUC_ASSIGN_OR_RETURN(HostTensor out, HostTensor::FromConstant(value));
  return ctx.SetOutput(0, std::move(out));
}

}  // namespace opuc::reference
