//===- src/opug/opug_writable.h - What .opug can hold (private) -*- C++ -*-===//
//
// Both writers (binary and JSON) refuse the same graphs: one that does not
// verify, sparse constants and fused functions (not in the format yet).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPUG_OPUG_WRITABLE_H
#define OPUC_SRC_OPUG_OPUG_WRITABLE_H

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

/// Ok when `graph` verifies and .opug can represent it; otherwise an error
/// naming the tensor or node it cannot.
Status CheckOpugWritable(const Graph& graph);

}  // namespace opuc

#endif  // OPUC_SRC_OPUG_OPUG_WRITABLE_H
