//===- src/cpu/memory_plan.h - A graph's values in one arena -*- C++ -*-===//
//
// The values a run makes (every node output but the graph's outputs, which
// the caller keeps) live from the node that makes them to the last node
// that reads them, as the graph walk keeps them; PlanArena places them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_MEMORY_PLAN_H
#define OPUC_SRC_CPU_MEMORY_PLAN_H

#include <vector>

#include "arena_plan.h"
#include "opuc/ir/graph.h"

namespace opuc::cpu {

struct TensorLayout {
  ArenaPlan arena;
  std::vector<int64_t> offset;  ///< Per tensor id: its arena offset, or -1 when outside.
  int64_t values = 0;           ///< How many tensors the arena holds.
};

TensorLayout LayOutTensors(const Graph& graph);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_MEMORY_PLAN_H
