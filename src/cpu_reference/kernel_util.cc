//===- src/cpu_reference/kernel_util.cc - Shared pieces of kernels --------===//
#include "kernel_util.h"

#include <algorithm>
#include <cmath>

#include "support/format.h"

namespace opuc::reference {

float Activate(Activation activation, float x) {
  switch (activation) {
    case Activation::kNone: return x;
    case Activation::kRelu: return std::max(x, 0.0f);
    case Activation::kReluN1To1: return std::min(std::max(x, -1.0f), 1.0f);
    case Activation::kRelu6: return std::min(std::max(x, 0.0f), 6.0f);
    case Activation::kTanh: return std::tanh(x);
  }
  return x;
}

Status RequireF32(const KernelContext& ctx, size_t i, std::string_view role) {
  const HostTensor* t = ctx.input(i);
  if (!t) return InternalError(Cat("input '", role, "' is absent"));
  if (t->dtype() == DType::kF32) return OkStatus();
  return ctx.UnsupportedDType(role, t->dtype());
}

}  // namespace opuc::reference
