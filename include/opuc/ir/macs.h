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

/// The widest depthwise kernel whose i16 input the OPU's array reads whole:
/// its window keeps the low bytes this many taps after the high ones.
inline constexpr int64_t kI16WindowTaps = 4;

/// The array passes inner product `id` takes over an i16 input on an array
/// that reads an i16 whole (`reads_whole`: a feature-map buffer of two
/// banks): 1, or 2 for a depthwise kernel wider than kI16WindowTaps; 2 on
/// an array that does not. The quantizer's prices and the physical limit
/// count them alike.
int64_t I16Passes(const Graph& graph, NodeId id, bool reads_whole);

}  // namespace opuc

#endif  // OPUC_IR_MACS_H
