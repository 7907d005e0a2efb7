//===- src/opu/codegen/emit.h - The instruction stream of a group -*- C++ -*-===//
#ifndef OPUC_SRC_OPU_CODEGEN_EMIT_H
#define OPUC_SRC_OPU_CODEGEN_EMIT_H

#include <vector>

#include "constants.h"
#include "opuc/opu/codegen.h"

namespace opuc::codegen {

/// The stream of an inner-product group: its units in order (tile, output
/// block, weight chunk), double-buffered, with the tokens that make the
/// overlap safe (docs/codegen.md), and the estimated cycles. `residual` is
/// the residual add's operand, when the group has one.
Expected<OpuGroupCode> EmitInnerProduct(const InnerProductGroup& g, const Tiling& t,
                                        const HwConfig& hw, const ConstantPlacement& constants,
                                        const ActivationLayout& in, const ActivationLayout& out,
                                        const ActivationLayout* residual);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_OPU_CODEGEN_EMIT_H
