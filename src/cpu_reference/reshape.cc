//===- src/cpu_reference/reshape.cc - RESHAPE -----------------------------===//
//
// The same elements in the same (C) order under the new shape; any dtype.
// in a quantized graph: each element requant(q, f_in - f_out) (§7).
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "integer_util.h"

namespace opuc::reference {

Status EvalReshape(KernelContext& ctx) {
  HostTensor storage;
  OPUC_ASSIGN_OR_RETURN(const HostTensor* input, MovedInput(ctx, &storage));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  if (input->bytes()) std::memcpy(output->mutable_bytes(), input->raw(), input->bytes());
  return OkStatus();
}

}  // namespace opuc::reference
