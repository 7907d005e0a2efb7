//===- opuc/ir/verifier.h - Graph invariants --------------------*- C++ -*-===//
#ifndef OPUC_IR_VERIFIER_H
#define OPUC_IR_VERIFIER_H

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

/// Checks every invariant of graph.h and returns the first violation, naming
/// the tensor or node at fault:
///  - tensors: unique non-empty names, non-negative extents whose element
///    count fits int64, constant bytes that match shape × dtype, fixed-point
///    lists that match their axis;
///  - SSA and order: every tensor is exactly one of graph input, constant, or
///    the output of one node; a node uses only tensors defined before it;
///  - nodes: attributes as the registry declares them (names, types, ranges,
///    every declared attribute present, defaults included),
///    the declared number of inputs and outputs, and output types equal to
///    what shape inference computes from the inputs;
///  - graph inputs and outputs: ids in range, no duplicates;
///  - quantized graphs: fraction lengths in range, and a fixed point on every
///    i8 tensor but lookup tables (docs/ir.md, "Quantized graphs").
Status Verify(const Graph& graph);

}  // namespace opuc

#endif  // OPUC_IR_VERIFIER_H
