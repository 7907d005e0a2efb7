//===- src/ir/verify_fixed_point.h - Fixed-point rules (private) -*- C++ -*-===//
#ifndef OPUC_SRC_IR_VERIFY_FIXED_POINT_H
#define OPUC_SRC_IR_VERIFY_FIXED_POINT_H

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

/// The fixed-point rules of a quantized graph (docs/ir.md, docs/numerics.md
/// §1), checked after the structural ones (so every node input is valid):
///  - a graph is quantized when any of its tensors has a fixed point;
///  - weights (input 1 of conv2d, depthwise_conv2d, transpose_conv2d,
///    fully_connected; the alpha of prelu) and any tensor whose fixed point
///    has an axis have fraction lengths in [-8, 23]; every other fixed point
///    is per tensor with f in [-8, 15];
///  - in a quantized graph every i8 graph input and node output has a fixed
///    point, except the table of a lookup_table (its entries are at the
///    output's f) and the output of densify (a constant in disguise). i8
///    constants may lack one; a kernel that needs their scale says so.
Status VerifyFixedPoints(const Graph& graph);

}  // namespace opuc

#endif  // OPUC_SRC_IR_VERIFY_FIXED_POINT_H
