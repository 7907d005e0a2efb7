//===- src/fusion/fuse_phase_rules.cc - What each phase fuses -------------===//
//
// TVM's RunFuse, one function per rule. For each node, in topological order:
//
//   opaque                                   never fuses
//   no post-dominator (graph output, ...)    never fuses
//   phase 2                                  only FuseIntoIntermediateTuple
//   already in the post-dominator's group    nothing to do
//   post-dominator is a tuple                waits for phase 2 (refused here)
//   out_ewise_fusable                        phase 0: FuseOutEWiseFusable
//   elemwise, broadcast                      every phase: FuseElemWise
//   injective, tuple                         phase 1: FuseInjective
//   comm_reduce                              never fuses into a consumer
//
// "Pattern" is the pattern of the node's own group object, as in TVM: once
// a conv2d joins the group of its relu, that group (rooted at the relu) is
// out_ewise_fusable, so the relu then takes the next elemwise op along.
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/pattern_order.h"
#include "partitioner.h"

namespace opuc::fusion {
namespace {

/// Phase 0 from an anchor: everything up to the post-dominator at most broadcast.
bool AtMostBroadcastPath(OpPatternKind kind, bool /*is_sink*/) { return IsAtMostBroadcast(kind); }

/// From elemwise/broadcast: injective or simpler on the way; the
/// post-dominator may be anything a group can end in (up to an anchor's).
bool ElemWisePath(OpPatternKind kind, bool is_sink) {
  return is_sink ? IsAtMostOutEWiseFusable(kind) : IsAtMostInjective(kind);
}

/// Phases 1 and 2: injective or simpler all the way.
bool AtMostInjectivePath(OpPatternKind kind, bool /*is_sink*/) { return IsAtMostInjective(kind); }

FuseDecision Refusal(FuseReason reason, FusePhase phase, int32_t post_dominator,
                     OpPatternKind pattern = OpPatternKind::kOpaque) {
  FuseDecision decision;
  decision.reason = reason;
  decision.phase = phase;
  decision.post_dominator = post_dominator;
  decision.pattern = pattern;
  return decision;
}

}  // namespace

Status GraphPartitioner::FuseNode(int32_t id, FusePhase phase) {
  const OpPatternKind own = groups_.pattern(id);
  const int32_t dom = tree_.parent[static_cast<size_t>(id)];
  const bool first_phase = phase == FusePhase::kOutEWiseFusable;
  if (own == OpPatternKind::kOpaque) {
    if (first_phase) Refuse(id, Refusal(FuseReason::kOpaque, phase, -1));
    return OkStatus();
  }
  if (dom < 0) {
    if (first_phase) Refuse(id, Refusal(FuseReason::kNoPostDominator, phase, -1));
    return OkStatus();
  }
  if (phase == FusePhase::kIntermediateTuple) return FuseIntoIntermediateTuple(id, dom);
  if (groups_.FindRoot(id) == groups_.FindRoot(dom)) return OkStatus();
  if (groups_.pattern(dom) == OpPatternKind::kTuple) {
    Refuse(id, Refusal(FuseReason::kPostDominatorTuple, phase, dom));
    return OkStatus();
  }
  if (own == OpPatternKind::kOutEWiseFusable)
    return first_phase ? FuseOutEWiseFusable(id, dom) : OkStatus();
  if (IsAtMostBroadcast(own)) return FuseElemWise(id, dom, phase);
  if (own == OpPatternKind::kInjective || own == OpPatternKind::kTuple)
    return phase == FusePhase::kInjective ? FuseInjective(id, dom) : OkStatus();
  // comm_reduce: producers fuse into a reduction, a reduction into nothing.
  if (first_phase) Refuse(id, Refusal(FuseReason::kReductionSource, phase, dom));
  return OkStatus();
}

Status GraphPartitioner::FuseOutEWiseFusable(int32_t id, int32_t dom) {
  const FusePhase phase = FusePhase::kOutEWiseFusable;
  const OpPatternKind edge = tree_.pattern[static_cast<size_t>(id)];
  if (edge != OpPatternKind::kElemWise) {
    Refuse(id, Refusal(FuseReason::kEdgePattern, phase, dom, edge));
    return OkStatus();
  }
  return TryFuse(id, dom, phase, AtMostBroadcastPath);
}

Status GraphPartitioner::FuseElemWise(int32_t id, int32_t dom, FusePhase phase) {
  const OpPatternKind edge = tree_.pattern[static_cast<size_t>(id)];
  if (!IsAtMostInjective(edge) && edge != OpPatternKind::kCommReduce) {
    Refuse(id, Refusal(FuseReason::kEdgePattern, phase, dom, edge));
    return OkStatus();
  }
  return TryFuse(id, dom, phase, ElemWisePath);
}

Status GraphPartitioner::FuseInjective(int32_t id, int32_t dom) {
  return TryFuse(id, dom, FusePhase::kInjective, AtMostInjectivePath);
}

Status GraphPartitioner::FuseIntoIntermediateTuple(int32_t id, int32_t dom) {
  if (!IsAtMostInjective(groups_.pattern(id))) return OkStatus();
  const int32_t dom_root = groups_.FindRoot(dom);
  // Tuple fields do not join a group that a tuple roots (TVM).
  if (groups_.pattern(dom_root) == OpPatternKind::kTuple) return OkStatus();
  // Only a tuple that already fused into the injective ops after it.
  if (groups_.pattern(dom) != OpPatternKind::kTuple ||
      !IsAtMostInjective(groups_.pattern(dom_root)))
    return OkStatus();
  if (groups_.FindRoot(id) == dom_root) return OkStatus();  // nothing left to merge
  // CheckPath keeps two intermediate tuples apart.
  return TryFuse(id, dom, FusePhase::kIntermediateTuple, AtMostInjectivePath);
}

}  // namespace opuc::fusion
