//===- src/partition/hw_partition.cc - PartitionForHardware ---------------===//
//
// The whole partition: validate, map (DFG), walk (OPU groups), fuse the CPU
// nodes (FuseOps), order and describe the groups, and check the result
// against the graph before handing it out.
//
//===----------------------------------------------------------------------===//
#include "opuc/partition/hw_partition.h"

#include "grouping.h"
#include "opuc/ir/verifier.h"
#include "opuc/partition/dfg.h"

namespace opuc {

const char* GroupKindName(GroupKind kind) { return kind == GroupKind::kOpu ? "opu" : "cpu"; }

std::string ReasonText(const Graph& graph, const HwPartition& partition, const Reason& reason) {
  return FormatReason(graph, partition.stages, reason);
}

Expected<HwPartition> PartitionForHardware(const Graph& graph, const HwConfig& hw) {
  OPUC_RETURN_IF_ERROR(
      ValidateHwConfig(hw).WithContext(hw.name.empty() ? "hardware config" : hw.name));
  OPUC_RETURN_IF_ERROR(Verify(graph));
  const Dfg dfg = BuildDfg(graph, hw);
  partition::Grouping grouping = partition::GroupForOpu(graph, hw, dfg);
  OPUC_RETURN_IF_ERROR(partition::FuseCpuGroups(graph, grouping));
  OPUC_ASSIGN_OR_RETURN(HwPartition result, partition::Finalize(graph, hw, std::move(grouping)));
  Status checked = CheckHwPartition(graph, result);
  if (!checked.ok()) return InternalError("partition check failed: " + checked.message());
  return result;
}

}  // namespace opuc
