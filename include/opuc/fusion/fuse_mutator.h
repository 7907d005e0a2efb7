//===- opuc/fusion/fuse_mutator.h - Groups become fused functions -*- C++ -*-===//
//
// TVM's FuseMutator: every group of two or more ops becomes one `fused`
// node whose body is the group as a graph of its own (a primitive
// function). Its parameters are the distinct outside tensors the group's
// ops read, in order of first use (graph inputs, constants of more than one
// element, other groups' results); the node's inputs are the matching
// arguments. One-element constants are copied into the body instead. The
// fused node writes the tensor the group's root wrote, so the rest of the
// graph reads it unchanged. A group of one op stays a plain node (TVM wraps
// it too; opuc keeps such graphs unchanged, see docs/fusion.md).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FUSION_FUSE_MUTATOR_H
#define OPUC_FUSION_FUSE_MUTATOR_H

#include <cstdint>

#include "opuc/fusion/graph_partitioner.h"
#include "opuc/fusion/indexed_forward_graph.h"
#include "opuc/ir/graph.h"

namespace opuc {

struct FuseCounts {
  int64_t fused_nodes = 0;  ///< `fused` nodes created.
  int64_t ops_fused = 0;    ///< Ops moved into their bodies.
};

/// Where the nodes and tensors of a graph went when it was fused.
struct FuseRenumbering {
  /// Per old node: the node that computes it now (a member's fused node).
  std::vector<NodeId> node;
  /// Per old tensor: its new id, or kNoTensor when it lives only in a body.
  std::vector<TensorId> tensor;
};

/// Rewrites `graph`, from which `forward` and `partition` were computed, in
/// place: fused nodes replace their groups, and the tensors that now live
/// only inside functions (the groups' inner values, one-element constants
/// only members read) leave the graph; the others keep their order. Errors
/// (the graph is then unchanged): inputs that do not belong together, a
/// group that is not convex with one root (internal), nodes out of order.
/// `renumbering`, when given, receives where each node and tensor went.
Expected<FuseCounts> ApplyPartition(Graph& graph, const IndexedForwardGraph& forward,
                                    const Partition& partition,
                                    FuseRenumbering* renumbering = nullptr);

/// Builds the forward graph, partitions it and applies the partition: the
/// whole of FuseOps. `partition` and `forward`, when given, receive what
/// was computed (for reports; `forward` describes the graph as it was).
Expected<FuseCounts> FuseOps(Graph& graph, const FuseOptions& options,
                             Partition* partition = nullptr,
                             IndexedForwardGraph* forward = nullptr);

}  // namespace opuc

#endif  // OPUC_FUSION_FUSE_MUTATOR_H
