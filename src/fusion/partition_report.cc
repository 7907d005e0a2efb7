//===- src/fusion/partition_report.cc - Why each node is where it is ------===//
//
// The partitioner records a FuseDecision per node (habit 7: matchers explain
// themselves); this file turns them into sentences, and the whole partition
// into a listing:
//
//   #4 node 2 'conv' (conv2d) out_ewise_fusable  group #9: fused into node 3 'add' (phase 0)
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/graph_partitioner.h"
#include "support/format.h"

namespace opuc {
namespace {

std::string_view PhaseName(FusePhase phase) {
  switch (phase) {
    case FusePhase::kOutEWiseFusable: return "phase 0";
    case FusePhase::kInjective: return "phase 1";
    case FusePhase::kIntermediateTuple: return "phase 2";
  }
  return "<bad phase>";
}

}  // namespace

std::string DescribeDecision(const IndexedForwardGraph& forward, const Graph* graph,
                             const FuseDecision& decision) {
  auto name = [&](int32_t id) { return DescribeForwardNode(forward, graph, id); };
  const std::string phase(PhaseName(decision.phase));
  switch (decision.reason) {
    case FuseReason::kNotConsidered: return "not examined";
    case FuseReason::kFused:
      return Cat("fused into its post-dominator ", name(decision.post_dominator), " (", phase, ")");
    case FuseReason::kFusedOnPath:
      return Cat("fused on the way from ", name(decision.source), " to its post-dominator ",
                 name(decision.post_dominator), " (", phase, ")");
    case FuseReason::kOptLevelZero: return "not fused: opt level 0 fuses nothing";
    case FuseReason::kOpaque: return "not fused: the node is opaque";
    case FuseReason::kNoPostDominator:
      return "not fused: no post-dominator (a graph output, or its consumers never meet again)";
    case FuseReason::kPostDominatorTuple:
      return Cat("not fused: the post-dominator ", name(decision.post_dominator),
                 " is a tuple, which only takes fields once fused onward (", phase, ")");
    case FuseReason::kEdgePattern:
      return Cat("not fused: the way to the post-dominator ", name(decision.post_dominator), " is ",
                 OpPatternKindName(decision.pattern), " (", phase, ")");
    case FuseReason::kPathPattern:
      return Cat("not fused: the path to the post-dominator ", name(decision.post_dominator),
                 " goes through ", name(decision.blocker), ", whose group is ",
                 OpPatternKindName(decision.pattern), " (", phase, ")");
    case FuseReason::kReductionSource:
      return "not fused: a reduction takes its producers but does not fuse into a consumer";
    case FuseReason::kMaxFuseDepth:
      return Cat("not fused: max_fuse_depth ", decision.limit, " reached (the group of ",
                 name(decision.post_dominator), " would hold ", decision.count, " or more ops) (",
                 phase, ")");
    case FuseReason::kMaxFunctionArgs:
      return Cat("not fused: max_function_args ", decision.limit, " exceeded (the group of ",
                 name(decision.post_dominator), " would take ", decision.count, " parameters) (",
                 phase, ")");
  }
  return "<bad reason>";
}

std::string DumpPartition(const IndexedForwardGraph& forward, const Graph* graph,
                          const Partition& partition) {
  std::string text;
  for (size_t i = 0; i < forward.size(); ++i) {
    const auto id = static_cast<int32_t>(i);
    text += Cat("#", id, " ", DescribeForwardNode(forward, graph, id), " ",
                OpPatternKindName(forward.node(id).pattern));
    if (i < partition.group.size()) text += Cat("  group #", partition.group[i]);
    if (i < partition.decisions.size())
      text += ": " + DescribeDecision(forward, graph, partition.decisions[i]);
    text += "\n";
  }
  return text;
}

}  // namespace opuc
