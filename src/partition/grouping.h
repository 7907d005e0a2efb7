//===- src/partition/grouping.h - The OPU walk --------------------*- C++ -*-===//
//
// The first half of PartitionForHardware: visits the nodes in topological
// order and puts each in an OPU group (joining the group whose last value
// it reads, or opening one) or alone on the CPU. Reasons name groups by their
// internal index; Finalize maps them to the ids of the execution order.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_PARTITION_GROUPING_H
#define OPUC_SRC_PARTITION_GROUPING_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/id_vector.h"
#include "opuc/partition/dfg.h"
#include "opuc/partition/hw_partition.h"

namespace opuc::partition {

struct Grouping {
  /// Per node: its internal group; CPU nodes each have one of their own.
  IdVector<NodeId, int32_t> group_of;
  IdVector<int32_t, bool> group_is_opu;        ///< Per internal group.
  IdVector<NodeId, NodePlacement> placements;  ///< `group` is internal; set again by Finalize.
};

Grouping GroupForOpu(const Graph& graph, const HwConfig& hw, const Dfg& dfg);

/// Merges the CPU nodes' groups as FuseOps' partitioner would fuse them,
/// with every OPU node held opaque (nothing fuses into or through it).
Status FuseCpuGroups(const Graph& graph, Grouping& grouping);

/// Orders the groups (producers first), numbers them, fills in each
/// group's ops, inputs, outputs, constants, MACs and reason.
Expected<HwPartition> Finalize(const Graph& graph, const HwConfig& hw, Grouping grouping);

}  // namespace opuc::partition

#endif  // OPUC_SRC_PARTITION_GROUPING_H
