//===- opuc/fusion/graph_partitioner.h - TVM's fusion groups ------*- C++ -*-===//
//
// GraphPartitioner groups the nodes of a forward graph into fusable groups,
// as TVM's FuseOps does: every node starts in a group of its own (a
// union-find forest), and three phases, each a walk over the nodes in
// topological order, merge a node's group into the group of its immediate
// post-dominator when the node's pattern, the combined pattern on the way
// there, and the pattern of every node on every path in between allow it:
//
//   phase 0  out_ewise_fusable (conv2d) into an elemwise post-dominator,
//            every path at most broadcast;
//   0 and 1  elemwise/broadcast into a post-dominator reached through at
//            most injective ops, ending at anything up to out_ewise_fusable;
//   phase 1  injective and tuple, every path at most injective;
//   phase 2  injective into an intermediate tuple already fused onward.
//
// A fusion is refused when the merged group would hold more than
// max_fuse_depth ops or need more than max_function_args parameters.
// Every node's decision is recorded with its reason. docs/fusion.md
// explains the algorithm with a diagram.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FUSION_GRAPH_PARTITIONER_H
#define OPUC_FUSION_GRAPH_PARTITIONER_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/fusion/indexed_forward_graph.h"
#include "opuc/fusion/post_dominator_tree.h"
#include "opuc/status.h"

namespace opuc {

/// Which post-dominator tree builder the partitioner uses (the results are
/// the same; the TVM walk is there to compare against).
enum class PostDominatorAlgorithm : uint8_t { kBinaryLifting, kTvmWalk };

struct FuseOptions {
  /// 0 fuses nothing (TVM: FuseOps at opt level 0 keeps every op alone).
  int opt_level = 2;
  /// Most ops in one group (TVM's relay.FuseOps.max_depth).
  int64_t max_fuse_depth = 256;
  /// Most parameters of one group's function; 0 = no limit. A fusion whose
  /// merged group would read more distinct outside tensors (one-element
  /// constants are inlined and do not count) is refused.
  int64_t max_function_args = 0;
  PostDominatorAlgorithm post_dominators = PostDominatorAlgorithm::kBinaryLifting;
};

/// The three walks of RunFuse (TVM's `int phase`).
enum class FusePhase : uint8_t {
  kOutEWiseFusable = 0,    ///< Conv-like anchors take their elemwise epilogues.
  kInjective = 1,          ///< Injective ops and tuples join their consumers.
  kIntermediateTuple = 2,  ///< Injective fields join a tuple that fused onward.
};
inline constexpr FusePhase kFusePhases[] = {FusePhase::kOutEWiseFusable, FusePhase::kInjective,
                                            FusePhase::kIntermediateTuple};

/// Why a node is where it is. Members other than a group's root joined it
/// (kFused, kFusedOnPath); a root says why its group went no further.
enum class FuseReason : uint8_t {
  kNotConsidered,       ///< Not examined yet (no node keeps this once partitioned).
  kFused,               ///< Merged into its post-dominator's group.
  kFusedOnPath,         ///< Merged as a node between another node and its post-dominator.
  kOptLevelZero,        ///< opt level 0 fuses nothing.
  kOpaque,              ///< The node is opaque (graph input, large constant, softmax, ...).
  kNoPostDominator,     ///< A graph output, or its consumers never meet again.
  kPostDominatorTuple,  ///< The post-dominator is a tuple (only phase 2 fuses into one).
  kEdgePattern,         ///< The combined pattern on the way to the post-dominator.
  kPathPattern,         ///< A node on a path to the post-dominator has a refused pattern.
  kReductionSource,     ///< A reduction takes producers but never fuses into a consumer.
  kMaxFuseDepth,        ///< The merged group would exceed max_fuse_depth ops.
  kMaxFunctionArgs,     ///< The merged group would exceed max_function_args parameters.
};

struct FuseDecision {
  FuseReason reason = FuseReason::kNotConsidered;
  FusePhase phase = FusePhase::kOutEWiseFusable;
  /// The post-dominator the node fused into, or that a fusion was refused
  /// into; -1 when there was none.
  int32_t post_dominator = -1;
  /// kPathPattern: the node on the path whose group pattern was refused.
  int32_t blocker = -1;
  /// kFusedOnPath: the node whose fusion carried this one along.
  int32_t source = -1;
  /// kEdgePattern, kPathPattern: the refused pattern.
  OpPatternKind pattern = OpPatternKind::kOpaque;
  /// kMaxFuseDepth: ops the group would hold (counting stops past the
  /// limit); kMaxFunctionArgs: parameters it would need. Both are below the
  /// node count, and so is a limit that was reached.
  int32_t count = 0;
  /// kMaxFuseDepth, kMaxFunctionArgs: the limit in force.
  int32_t limit = 0;
};

struct Partition {
  /// Per forward node: its group, named by the group's root node (the
  /// group's last node in topological order, whose value leaves it).
  std::vector<int32_t> group;
  /// Per forward node: why it is where it is.
  std::vector<FuseDecision> decisions;
  /// Per forward node that roots a group: how many ops the group holds.
  std::vector<int32_t> ops_in_group;
  /// Groups holding at least one op, and those holding two or more.
  int64_t op_groups = 0;
  int64_t fused_groups = 0;
};

/// Partitions `graph` (TVM's GraphPartitioner::Partition). Errors: options
/// out of range (negative limits), or an internal invariant that failed.
Expected<Partition> PartitionGraph(const IndexedForwardGraph& graph, const FuseOptions& options);

/// As above with a tree the caller built (benchmarks time the two apart).
Expected<Partition> PartitionGraph(const IndexedForwardGraph& graph, const PostDominatorTree& tree,
                                   const FuseOptions& options);

/// One line: "fused into node 8 'add' (phase 0)", "not fused: ...".
std::string DescribeDecision(const IndexedForwardGraph& forward, const Graph* graph,
                             const FuseDecision& decision);

/// Every forward node, one per line, with its pattern, group and decision:
/// the partition as a person reads it (tests print it when they fail).
std::string DumpPartition(const IndexedForwardGraph& forward, const Graph* graph,
                          const Partition& partition);

}  // namespace opuc

#endif  // OPUC_FUSION_GRAPH_PARTITIONER_H
