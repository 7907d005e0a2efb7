//===- src/fusion/partitioner.h - GraphPartitioner internals -----*- C++ -*-===//
//
// The partitioner's state and its steps, split over three files:
//   graph_partitioner.cc  the driver, CheckPath, CommitFuse, the depth count;
//   fuse_phase_rules.cc   the rule of each phase, one function per rule;
//   function_args.cc      the parameter count behind max_function_args.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_FUSION_PARTITIONER_H
#define OPUC_SRC_FUSION_PARTITIONER_H

#include <cstdint>
#include <vector>

#include "fuse_groups.h"
#include "opuc/fusion/graph_partitioner.h"

namespace opuc::fusion {

/// A set of node ids cleared in O(1): an entry is in the set when its stamp
/// is the current one.
class StampSet {
 public:
  explicit StampSet(size_t n) : stamps_(n, 0) {}
  void Clear();
  /// Adds `id`; false if it was there already.
  bool Insert(int32_t id) {
    uint32_t& stamp = stamps_[static_cast<size_t>(id)];
    if (stamp == current_) return false;
    stamp = current_;
    return true;
  }
  bool Contains(int32_t id) const { return stamps_[static_cast<size_t>(id)] == current_; }

 private:
  std::vector<uint32_t> stamps_;
  uint32_t current_ = 1;
};

/// Whether a node on a path (with its group's pattern) lets a fusion through;
/// `is_sink` for the post-dominator the path ends at.
using PathCondition = bool (*)(OpPatternKind kind, bool is_sink);

class GraphPartitioner {
 public:
  GraphPartitioner(const IndexedForwardGraph& graph, const PostDominatorTree& tree,
                   const FuseOptions& options);

  /// InitGroups, then the three phases (none at opt level 0).
  Expected<Partition> Run();

 private:
  // fuse_phase_rules.cc
  Status FuseNode(int32_t id, FusePhase phase);
  Status FuseOutEWiseFusable(int32_t id, int32_t dom);
  Status FuseElemWise(int32_t id, int32_t dom, FusePhase phase);
  Status FuseInjective(int32_t id, int32_t dom);
  Status FuseIntoIntermediateTuple(int32_t id, int32_t dom);

  // graph_partitioner.cc
  /// The limits, then CheckPath, then CommitFuse; records a refusal.
  Status TryFuse(int32_t src, int32_t sink, FusePhase phase, PathCondition condition);
  /// -1 when every node on every path from src (not checked) to sink
  /// satisfies `condition` (by its group's pattern), else one that fails.
  int32_t CheckPath(int32_t src, int32_t sink, PathCondition condition);
  /// Merges the group of every node from src up to (not including) sink
  /// into sink's group.
  Status CommitFuse(int32_t src, int32_t sink, FusePhase phase);
  /// Ops in sink's group once src's fusion into it is committed; stops
  /// counting past max_fuse_depth.
  int64_t CountFusedOpsWithNewChild(int32_t src, int32_t sink);
  /// Calls visit(node) for src and every node after it, up to (not
  /// including) sink, each once; stops early when visit returns false.
  template <typename Visit>
  void ForEachUpToSink(int32_t src, int32_t sink, Visit visit);

  // function_args.cc
  /// Parameters of sink's group once src's fusion into it is committed.
  int64_t CountFunctionArgs(int32_t src, int32_t sink);

  /// Records why a group root did not fuse further (members keep theirs).
  void Refuse(int32_t id, const FuseDecision& decision);
  Partition Finish();

  const IndexedForwardGraph& graph_;
  const PostDominatorTree& tree_;
  FuseOptions options_;
  FuseGroups groups_;
  std::vector<FuseDecision> decisions_;
  std::vector<bool> too_deep_;        // a refused depth stays refused: groups only grow
  std::vector<uint32_t> region_ops_;  // region_bound.h; empty when no region can be too large
  StampSet visited_;
  StampSet marked_;
  std::vector<int32_t> stack_;
};

template <typename Visit>
void GraphPartitioner::ForEachUpToSink(int32_t src, int32_t sink, Visit visit) {
  visited_.Clear();
  stack_.clear();
  visited_.Insert(src);
  stack_.push_back(src);
  while (!stack_.empty()) {
    const int32_t id = stack_.back();
    stack_.pop_back();
    if (!visit(id)) return;
    for (const IndexedForwardGraph::Edge& edge : graph_.outputs(id))
      if (edge.node != sink && visited_.Insert(edge.node)) stack_.push_back(edge.node);
  }
}

}  // namespace opuc::fusion

#endif  // OPUC_SRC_FUSION_PARTITIONER_H
