//===- opuc/partition/hw_partition.h - Groups for the OPU and the CPU -*- C++ -*-===//
//
// PartitionForHardware splits a graph into groups, each one trip through the
// OPU datapath (an `opu` group) or a fused CPU function (a `cpu` group), in
// an order they can run in. The OPU walk is seed 002's, with its bugs fixed:
//
//   - nodes are visited in topological order;
//   - a node joins a group only by reading that group's last value (the
//     datapath streams it), so every group is connected;
//   - FindMatch from the group's last stage must find a stage for it, else
//     it opens a new group matched from the HDFG root (one pad and one ipa
//     per group; the compare/pool/res_add cycle);
//   - a value left inside a group that others read is stored only from a
//     module the config can tap, and no group stores more than
//     store.max_outputs values;
//   - a join that would make the groups depend on each other in a circle is
//     refused, so every group is convex;
//   - what the datapath cannot run goes to the CPU, and the CPU nodes are
//     then grouped by FuseOps' partitioner with the OPU nodes held opaque.
//
// Every node records why it is where it is. docs/hdfg.md has the details.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PARTITION_HW_PARTITION_H
#define OPUC_PARTITION_HW_PARTITION_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/fusion/fuse_mutator.h"
#include "opuc/ir/graph.h"
#include "opuc/opu/hw_config.h"
#include "opuc/partition/reason.h"
#include "opuc/status.h"

namespace opuc {

enum class GroupKind : uint8_t { kOpu, kCpu };

/// "opu", "cpu".
const char* GroupKindName(GroupKind kind);

/// How a node came to be in its group.
enum class Placement : uint8_t {
  kJoined,     ///< Took the next stage of the group whose value it reads.
  kStarted,    ///< Opened a new OPU group (the reason says why it joined none).
  kCollected,  ///< Pulled into its reader's group (constants only; residual channel pad).
  kCpu,        ///< On the CPU (the reason says why the datapath cannot run it).
};

struct NodePlacement {
  int32_t group = -1;  ///< Index into HwPartition::groups.
  int32_t stage = -1;  ///< The HDFG stage it runs on; -1 off the datapath.
  Placement placement = Placement::kCpu;
  Reason reason;
};

struct HwGroup {
  int32_t id = 0;  ///< Its position in HwPartition::groups (execution order).
  GroupKind kind = GroupKind::kOpu;
  std::vector<NodeId> ops;          ///< In topological order.
  std::vector<TensorId> inputs;     ///< Graph inputs and other groups' values, by first use.
  std::vector<TensorId> constants;  ///< Constants its ops read, by first use.
  std::vector<TensorId> outputs;    ///< Values read outside it, or graph outputs.
  Reason reason;  ///< OPU: why it starts where it does; CPU: why its ops are there.
  int64_t macs = 0;
};

struct HwPartition {
  std::string hw_name;
  std::vector<std::string> stages;   ///< The HDFG's stage names, as NodePlacement::stage counts.
  std::vector<HwGroup> groups;       ///< Execution order: producers first.
  std::vector<NodePlacement> nodes;  ///< One per IR node.
  int64_t opu_ops = 0;
  int64_t cpu_ops = 0;
  int64_t opu_macs = 0;
  int64_t total_macs = 0;
};

/// A placement's or a group's reason as one line of text (FormatReason with
/// the partition's stage names).
std::string ReasonText(const Graph& graph, const HwPartition& partition, const Reason& reason);

/// Partitions `graph` for `hw`. Errors: an invalid config (naming the
/// field), a graph that does not verify (naming the node), or an internal
/// failure of the checks below.
Expected<HwPartition> PartitionForHardware(const Graph& graph, const HwConfig& hw);

/// Checks a partition against the graph, independently of how it was made:
/// every node in exactly one group, each group connected, groups listed so
/// that every value is produced in an earlier group or its own (which makes
/// each group convex), inputs and outputs as the edges say. The message
/// names the group and node at fault.
Status CheckHwPartition(const Graph& graph, const HwPartition& partition);

/// The graph a program carries: its CPU groups as FuseOps made them, each
/// of two or more ops now one `fused` node (its function the group's ops),
/// and where each node and tensor of `graph` went.
struct CpuFunctions {
  Graph graph;
  FuseRenumbering renumbering;
  int64_t fused_nodes = 0;
};

/// Applies the CPU groups of `partition` (made from `graph`) to a copy of
/// `graph`; OPU groups' nodes stay as they are. The groups are FuseOps'
/// over the CPU nodes with the OPU nodes held opaque, computed again as
/// PartitionForHardware computed them.
Expected<CpuFunctions> FuseCpuFunctions(const Graph& graph, const HwPartition& partition);

}  // namespace opuc

#endif  // OPUC_PARTITION_HW_PARTITION_H
