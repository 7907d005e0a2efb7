//===- src/fusion/fuse_groups.cc - Union-find groups of the partitioner ---===//
#include "fuse_groups.h"

#include "opuc/fusion/pattern_order.h"
#include "support/format.h"

namespace opuc::fusion {

FuseGroups::FuseGroups(const IndexedForwardGraph& graph, bool track_members)
    : parent_(graph.size(), -1),
      pattern_(graph.size()),
      track_members_(track_members),
      anchor_(graph.size(), -1),
      num_ops_(graph.size(), 0) {
  for (size_t i = 0; i < graph.size(); ++i) {
    const auto id = static_cast<int32_t>(i);
    pattern_[i] = graph.node(id).pattern;
    if (pattern_[i] == OpPatternKind::kOutEWiseFusable) anchor_[i] = id;
    num_ops_[i] = graph.IsOp(id) ? 1 : 0;
  }
  if (!track_members_) return;
  next_member_.assign(graph.size(), -1);
  last_member_.resize(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) last_member_[i] = static_cast<int32_t>(i);
}

int32_t FuseGroups::FindRoot(int32_t group) {
  int32_t root = group;
  while (parent_[Index(root)] >= 0) root = parent_[Index(root)];
  while (group != root) {  // path compression
    const int32_t next = parent_[Index(group)];
    parent_[Index(group)] = root;
    group = next;
  }
  return root;
}

Status FuseGroups::MergeFromTo(int32_t child, int32_t parent) {
  child = FindRoot(child);
  parent = FindRoot(parent);
  if (child == parent) return OkStatus();
  const size_t c = Index(child), p = Index(parent);
  num_ops_[p] += num_ops_[c];
  parent_[c] = parent;
  if (track_members_) {
    next_member_[Index(last_member_[p])] = child;
    last_member_[p] = last_member_[c];
  }
  if (anchor_[c] < 0) return OkStatus();
  if (anchor_[p] >= 0)
    return InternalError(Cat("fusion would put two anchors, #", anchor_[c], " and #", anchor_[p],
                             ", into one group"));
  anchor_[p] = anchor_[c];
  pattern_[p] = CombinePattern(pattern_[c], pattern_[p]);
  return OkStatus();
}

}  // namespace opuc::fusion
