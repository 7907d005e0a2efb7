//===- opuc/ir/macs.h - Multiply-accumulates of a node -----*- C++ -*-===//
//
// The multiply-accumulates an inner product performs, from its shapes:
//   conv2d            N·Ho·Wo·Co · Kh·Kw·Ci
//   depthwise_conv2d  N·Ho·Wo·(C·M) · Kh·Kw
//   transpose_conv2d  N·H·W·Ci · Kh·Kw·Co   (every input pixel meets the kernel once)
//   fully_connected   (elements / Ci) · Ci · Co
// Every other op counts 0. The partition reports the share of MACs that
// falls in OPU groups.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_MACS_H
#define OPUC_IR_MACS_H

#include <cstdint>

#include "opuc/ir/graph.h"

namespace opuc {

/// The node's MACs; 0 for ops that are not inner products and for shapes
/// that do not fit the formulas (an unverified graph); saturates at INT64_MAX.
int64_t NodeMacs(const Graph& graph, NodeId id);

/// conv2d, depthwise_conv2d, transpose_conv2d or fully_connected: the ops
/// whose MACs NodeMacs counts.
bool IsInnerProduct(OpKind op);

}  // namespace opuc

#endif  // OPUC_IR_MACS_H
