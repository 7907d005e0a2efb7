//===- src/cpu_reference/kernel.cc - What a reference kernel sees ---------===//
#include "kernel.h"

#include "support/format.h"

namespace opuc::reference {

Expected<HostTensor*> KernelContext::AllocateOutput(size_t i) {
  if (i >= output_types_.size())
    return InternalError(Cat("kernel allocates output ", i, " of ", output_types_.size()));
  OPUC_ASSIGN_OR_RETURN(HostTensor tensor, allocator_ ? (*allocator_)(i, output_types_[i])
                                                      : HostTensor::Zeros(output_types_[i].dtype,
                                                                          output_types_[i].shape));
  (*outputs_)[i] = std::move(tensor);
  return &(*outputs_)[i];
}

Status KernelContext::SetOutput(size_t i, HostTensor value) {
  if (i >= output_types_.size() || !(value.type() == output_types_[i]))
    return InternalError(Cat("kernel sets output ", i, " to ", DescribeType(value)));
  (*outputs_)[i] = std::move(value);
  return OkStatus();
}

Status KernelContext::UnsupportedDType(std::string_view role, DType dtype,
                                       std::string_view implemented) const {
  return Unsupported(Cat("input '", role, "' has dtype ", DTypeName(dtype),
                         "; the float reference implements ", OpName(node().op), " on ",
                         implemented, " only"));
}

}  // namespace opuc::reference
