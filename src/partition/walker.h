//===- src/partition/walker.h - The grouping walk (private) ----*- C++ -*-===//
//
// The state of seed 002's walk over the graph (grouping.cc describes the
// rules): groups, which node is where, and why. grouping.cc walks and
// commits; grouping_join.cc decides whether a node may join a group and
// words the reasons.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_PARTITION_WALKER_H
#define OPUC_SRC_PARTITION_WALKER_H

#include <cstdint>
#include <string>
#include <vector>

#include "grouping.h"
#include "opuc/ir/id_vector.h"
#include "support/format.h"

namespace opuc::partition {

/// A group being built (internal ids; Finalize renumbers them).
struct Group {
  bool opu = true;
  std::vector<NodeId> members;
  NodeId tail = -1;
  int32_t last_stage = -1;
  bool has_ipa = false;
  bool has_input_pad = false;
  IdVector<int32_t, bool> used_stage;  // per HDFG stage
  std::vector<int32_t> producers;      // groups it reads from
};

/// A reason's clause of `kind` about internal group `group` (-1: none).
inline ReasonPart Why(ReasonKind kind, int32_t group = -1) {
  ReasonPart part;
  part.kind = kind;
  part.group = group;
  return part;
}

/// A group a node may join: the one whose last value it streams in.
struct Candidate {
  int32_t group;
  int32_t position;  // the input that streams in
  NodeId producer;
};

class Walker {
 public:
  Walker(const Graph& graph, const HwConfig& hw, const Dfg& dfg);
  Grouping Run();

 private:
  int32_t AddGroup(bool opu);
  void NewCpu(NodeId n, ReasonPart reason);
  /// Puts `n` in `g`, recording the groups it reads from.
  void Assign(NodeId n, int32_t g);
  /// Whether group `to` depends on group `from` (a path of groups).
  bool Reaches(int32_t from, int32_t to);
  /// CollectInputs: the waiting producers `n` pulls in (readers all inside).
  std::vector<NodeId> Collect(NodeId n);
  bool AllReadersMarked(NodeId p) const;
  ReasonPart NoStage(int32_t g, const DfgNode& d) const;
  bool EntersPoolOrUpsample(NodeId m, NodeId n, HwModule n_module) const;
  /// Tries to add `n` to c.group; on refusal says why in `why`.
  bool TryJoin(NodeId n, const Candidate& c, ReasonPart& why);
  void Commit(NodeId n, int32_t g, int32_t stage, const std::vector<NodeId>& pulled);
  /// Why `n` joined none of its inputs' groups.
  Reason StartReason(NodeId n, Reason refusals) const;
  void Place(NodeId n);
  const HdfgStage& StageAt(int32_t s) const { return stages_[static_cast<size_t>(s)]; }

  const Graph& graph_;
  const HwConfig& hw_;
  const Dfg& dfg_;
  const std::vector<HdfgStage>& stages_;
  IdVector<TensorId, NodeId> producer_;
  IdVector<TensorId, std::vector<NodeId>> readers_;
  IdVector<TensorId, bool> graph_output_;
  IdVector<NodeId, int32_t> group_of_;
  IdVector<int32_t, Group> groups_;  // by internal group id
  IdVector<NodeId, NodePlacement> place_;
  IdVector<NodeId, uint32_t> mark_;
  IdVector<int32_t, uint32_t> group_seen_;
  uint32_t epoch_ = 0;        // marks of the nodes in a tentative group
  uint32_t reach_epoch_ = 0;  // marks of Reaches' search
};

}  // namespace opuc::partition

#endif  // OPUC_SRC_PARTITION_WALKER_H
