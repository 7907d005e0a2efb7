//===- src/fusion/graph_partitioner.cc - Groups, paths, commits -----------===//
//
// The driver of TVM's GraphPartitioner and the walks it makes between a
// node and its post-dominator. The walks are iterative (deep graphs) and
// share one stamped visited set, cleared in O(1).
//
// The depth count differs from TVM's on purpose: TVM adds, for every node on
// the paths, the node count of that node's own group object, which is stale
// for a node already merged and counts a group once per member reached; it
// also counts tuples and inlined scalar constants. Here each group is
// counted once, by its root, and only ops count, which is what
// FuseOps.max_depth promises ("most ops in one fused group"). The count stops
// as soon as it passes the limit, so it never walks more than about
// max_fuse_depth nodes; and where a lower bound on the node's region,
// computed once from the tree (region_bound.h), already passes it, there is
// no walk at all. Either way the same fusions are refused.
//
//===----------------------------------------------------------------------===//
#include "partitioner.h"

#include <algorithm>

#include "region_bound.h"
#include "support/format.h"

namespace opuc::fusion {

void StampSet::Clear() {
  if (++current_ != 0) return;
  std::fill(stamps_.begin(), stamps_.end(), 0);  // wrapped around: start over
  current_ = 1;
}

GraphPartitioner::GraphPartitioner(const IndexedForwardGraph& graph, const PostDominatorTree& tree,
                                   const FuseOptions& options)
    : graph_(graph),
      tree_(tree),
      options_(options),
      groups_(graph, /*track_members=*/options.max_function_args > 0),
      decisions_(graph.size()),
      too_deep_(graph.size(), false),
      visited_(graph.size()),
      marked_(graph.size()) {
  // Below the op count, some regions may be too large: find them once.
  if (options_.opt_level > 0 && options_.max_fuse_depth < static_cast<int64_t>(graph.size()))
    region_ops_ = RegionOps(graph, tree, static_cast<uint32_t>(options_.max_fuse_depth));
}

Expected<Partition> GraphPartitioner::Run() {
  if (options_.opt_level <= 0) {
    for (FuseDecision& decision : decisions_) decision.reason = FuseReason::kOptLevelZero;
    return Finish();
  }
  for (FusePhase phase : kFusePhases)
    for (size_t i = 0; i < graph_.size(); ++i)
      OPUC_RETURN_IF_ERROR(FuseNode(static_cast<int32_t>(i), phase));
  return Finish();
}

Status GraphPartitioner::TryFuse(int32_t src, int32_t sink, FusePhase phase,
                                 PathCondition condition) {
  FuseDecision refusal;
  refusal.phase = phase;
  refusal.post_dominator = sink;
  if (too_deep_[static_cast<size_t>(src)]) return OkStatus();
  // The merged group holds at least src's region and the sink.
  const int64_t at_least =
      region_ops_.empty() ? 0 : int64_t{region_ops_[static_cast<size_t>(src)]} + graph_.IsOp(sink);
  const int64_t ops =
      at_least > options_.max_fuse_depth ? at_least : CountFusedOpsWithNewChild(src, sink);
  if (ops > options_.max_fuse_depth) {
    too_deep_[static_cast<size_t>(src)] = true;
    refusal.reason = FuseReason::kMaxFuseDepth;
    refusal.count = static_cast<int32_t>(ops);  // limit < ops < node count
    refusal.limit = static_cast<int32_t>(options_.max_fuse_depth);
    Refuse(src, refusal);
    return OkStatus();
  }
  const int32_t failed = CheckPath(src, sink, condition);
  if (failed >= 0) {
    refusal.reason = FuseReason::kPathPattern;
    refusal.blocker = failed;
    refusal.pattern = groups_.pattern(groups_.FindRoot(failed));
    Refuse(src, refusal);
    return OkStatus();
  }
  if (options_.max_function_args > 0) {
    const int64_t args = CountFunctionArgs(src, sink);
    if (args > options_.max_function_args) {
      refusal.reason = FuseReason::kMaxFunctionArgs;
      refusal.count = static_cast<int32_t>(args);
      refusal.limit = static_cast<int32_t>(options_.max_function_args);
      Refuse(src, refusal);
      return OkStatus();
    }
  }
  return CommitFuse(src, sink, phase);
}

int32_t GraphPartitioner::CheckPath(int32_t src, int32_t sink, PathCondition condition) {
  visited_.Clear();
  stack_.clear();
  for (const IndexedForwardGraph::Edge& edge : graph_.outputs(src))
    if (visited_.Insert(edge.node)) stack_.push_back(edge.node);
  while (!stack_.empty()) {
    const int32_t id = stack_.back();
    stack_.pop_back();
    const bool is_sink = id == sink;
    if (!condition(groups_.pattern(groups_.FindRoot(id)), is_sink)) return id;
    if (is_sink) continue;
    for (const IndexedForwardGraph::Edge& edge : graph_.outputs(id))
      if (visited_.Insert(edge.node)) stack_.push_back(edge.node);
  }
  return -1;
}

Status GraphPartitioner::CommitFuse(int32_t src, int32_t sink, FusePhase phase) {
  Status status;
  ForEachUpToSink(src, sink, [&](int32_t id) {
    if (groups_.FindRoot(id) == id) {  // a root joins: say how; members keep theirs
      FuseDecision& decision = decisions_[static_cast<size_t>(id)];
      decision = FuseDecision();
      decision.reason = id == src ? FuseReason::kFused : FuseReason::kFusedOnPath;
      decision.phase = phase;
      decision.post_dominator = sink;
      decision.source = id == src ? -1 : src;
    }
    status = groups_.MergeFromTo(id, sink);
    return status.ok();
  });
  return status;
}

int64_t GraphPartitioner::CountFusedOpsWithNewChild(int32_t src, int32_t sink) {
  const int32_t target = groups_.FindRoot(sink);
  int64_t ops = groups_.num_ops(target);
  marked_.Clear();  // roots counted
  ForEachUpToSink(src, sink, [&](int32_t id) {
    const int32_t root = groups_.FindRoot(id);
    if (root != target && marked_.Insert(root)) ops += groups_.num_ops(root);
    return ops <= options_.max_fuse_depth;
  });
  return ops;
}

void GraphPartitioner::Refuse(int32_t id, const FuseDecision& decision) {
  if (groups_.FindRoot(id) != id) return;  // a member: it says how it joined
  FuseDecision& recorded = decisions_[static_cast<size_t>(id)];
  // Elemwise ops are retried in every phase: keep the phase of the first refusal.
  if (recorded.reason == decision.reason && recorded.post_dominator == decision.post_dominator)
    return;
  recorded = decision;
}

Partition GraphPartitioner::Finish() {
  Partition partition;
  const size_t n = graph_.size();
  partition.group.resize(n);
  partition.ops_in_group.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<int32_t>(i);
    const int32_t root = groups_.FindRoot(id);
    partition.group[i] = root;
    if (root != id) continue;
    const auto ops = static_cast<int32_t>(groups_.num_ops(root));
    partition.ops_in_group[i] = ops;
    if (ops >= 1) ++partition.op_groups;
    if (ops >= 2) ++partition.fused_groups;
  }
  partition.decisions = std::move(decisions_);
  return partition;
}

}  // namespace opuc::fusion

namespace opuc {

namespace {

Status CheckOptions(const FuseOptions& options) {
  if (options.max_fuse_depth < 0)
    return InvalidArgument(
        Cat("FuseOps.max_depth is ", options.max_fuse_depth, "; expected at least 0"));
  if (options.max_function_args < 0)
    return InvalidArgument(Cat("FuseOps.max_function_args is ", options.max_function_args,
                               "; expected at least 0 (0: no limit)"));
  return OkStatus();
}

}  // namespace

Expected<Partition> PartitionGraph(const IndexedForwardGraph& graph, const PostDominatorTree& tree,
                                   const FuseOptions& options) {
  OPUC_RETURN_IF_ERROR(CheckOptions(options));
  if (tree.parent.size() != graph.size())
    return InvalidArgument(Cat("the post-dominator tree has ", tree.parent.size(),
                               " nodes; the graph has ", graph.size()));
  return fusion::GraphPartitioner(graph, tree, options).Run();
}

Expected<Partition> PartitionGraph(const IndexedForwardGraph& graph, const FuseOptions& options) {
  OPUC_RETURN_IF_ERROR(CheckOptions(options));
  PostDominatorTree tree;  // opt level 0 needs none (TVM does not build it either)
  if (options.opt_level <= 0) {
    tree.parent.assign(graph.size(), -1);
  } else if (options.post_dominators == PostDominatorAlgorithm::kTvmWalk) {
    tree = BuildPostDominatorTreeTvmWalk(graph);
  } else {
    tree = BuildPostDominatorTree(graph);
  }
  return PartitionGraph(graph, tree, options);
}

}  // namespace opuc
