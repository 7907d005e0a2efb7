//===- src/fusion/post_dominator_tree.cc - Post-dominators by binary lifting ===//
//
// The same tree as TVM's walk (tvm_post_dominator_walk.cc), with each least
// common ancestor found in O(log depth) instead of O(depth).
//
// Every tree node v at depth d keeps, for each k with 2^k <= d - 1, its
// 2^k-th ancestor J(v,k) and the combined pattern P(v,k) of the 2^k tree
// nodes v, parent(v), ..., just below J(v,k) (a node's pattern is that of
// its way to its parent), packed in one word. Nodes are added in reverse topological order, so
// when v is added its ancestors are complete and
//     J(v,0) = parent(v),       J(v,k) = J(J(v,k-1), k-1),
//     P(v,0) = pattern(v),      P(v,k) = combine(P(v,k-1), P(J(v,k-1), k-1)).
// A query lifts the deeper node to the other's depth by the binary digits of
// the difference, then lifts both by decreasing powers while their
// ancestors differ; what they stepped over is exactly what TVM's walk steps
// over, so the combined pattern is the same. Jumps are stored level by level
// (one array of n words per level, allocated when a node first needs it and
// touched only where nodes deep enough are): a chain of n nodes costs about
// n log2(n) words, a shallow graph few.
//
//===----------------------------------------------------------------------===//
#include <memory>
#include <utility>

#include "opuc/fusion/pattern_order.h"
#include "opuc/fusion/post_dominator_tree.h"

namespace opuc {
namespace {

/// floor(log2(x)) + 1 for x >= 1, and 0 for x == 0: the bit width.
int BitWidth(uint32_t x) { return x == 0 ? 0 : 32 - __builtin_clz(x); }

/// A jump is one word, node << 4 | pattern, so that it costs one memory
/// access; 32-bit words hold graphs of up to 2^27 nodes, larger ones use
/// 64-bit words.
template <typename Word>
class LiftingTree {
 public:
  explicit LiftingTree(size_t n) : n_(n) {
    tree_.parent.assign(n, -1);
    tree_.depth.assign(n, 1);
    tree_.pattern.assign(n, OpPatternKind::kOpaque);
  }

  /// Sets `id`'s parent (-1: none) and pattern, and lays out its jumps.
  void Add(int32_t id, int32_t parent, OpPatternKind pattern) {
    const auto i = static_cast<size_t>(id);
    tree_.parent[i] = parent;
    tree_.depth[i] = parent >= 0 ? Depth(parent) + 1 : 1;
    tree_.pattern[i] = parent >= 0 ? pattern : OpPatternKind::kOpaque;
    const int levels = Levels(id);
    while (levels_.size() < static_cast<size_t>(levels))
      levels_.emplace_back(new Word[n_]);  // uninitialized: pages no node uses stay untouched
    if (levels == 0) return;
    Word last = Pack(parent, pattern);
    levels_[0][i] = last;
    for (int k = 1; k < levels; ++k) {
      const Word beyond = At(NodeOf(last), k - 1);
      last = Pack(NodeOf(beyond), CombinePattern(PatternOf(last), PatternOf(beyond)));
      levels_[static_cast<size_t>(k)][i] = last;
    }
  }

  /// The least common ancestor of a and b (-1: none), combining into
  /// `pattern` the patterns of the tree nodes stepped over.
  int32_t Lca(int32_t a, int32_t b, OpPatternKind* pattern) const {
    if (Depth(a) < Depth(b)) std::swap(a, b);
    auto diff = static_cast<uint32_t>(Depth(a) - Depth(b));
    for (int k = 0; diff != 0; ++k, diff >>= 1) {
      if ((diff & 1u) == 0) continue;
      const Word jump = At(a, k);
      *pattern = CombinePattern(*pattern, PatternOf(jump));
      a = NodeOf(jump);
    }
    if (a == b) return a;
    for (int k = Levels(a) - 1; k >= 0; --k) {
      if (k >= Levels(a)) continue;
      const Word ja = At(a, k), jb = At(b, k);
      if (NodeOf(ja) == NodeOf(jb)) continue;
      *pattern = CombinePattern(*pattern, CombinePattern(PatternOf(ja), PatternOf(jb)));
      a = NodeOf(ja);
      b = NodeOf(jb);
    }
    const int32_t parent = tree_.parent[static_cast<size_t>(a)];
    if (parent < 0) return -1;  // a and b are roots of different trees
    *pattern = CombinePattern(*pattern, CombinePattern(Pattern(a), Pattern(b)));
    return parent;
  }

  PostDominatorTree Release() { return std::move(tree_); }

 private:
  static Word Pack(int32_t node, OpPatternKind pattern) {
    return static_cast<Word>(static_cast<Word>(node) << 4 | static_cast<Word>(pattern));
  }
  static int32_t NodeOf(Word word) { return static_cast<int32_t>(word >> 4); }
  static OpPatternKind PatternOf(Word word) { return static_cast<OpPatternKind>(word & 0xF); }

  int32_t Depth(int32_t id) const { return tree_.depth[static_cast<size_t>(id)]; }
  OpPatternKind Pattern(int32_t id) const { return tree_.pattern[static_cast<size_t>(id)]; }
  /// How many jumps `id` has: the k with 2^k <= depth - 1.
  int Levels(int32_t id) const { return BitWidth(static_cast<uint32_t>(Depth(id) - 1)); }
  /// J(id,k) and P(id,k), packed.
  Word At(int32_t id, int k) const {
    return levels_[static_cast<size_t>(k)][static_cast<size_t>(id)];
  }

  size_t n_;
  PostDominatorTree tree_;
  /// levels_[k][v]: node v's 2^k jump, valid for k < Levels(v). Level-major:
  /// nodes are added in index order and their ancestors move along with
  /// them, so building a level reads the one below nearly in order.
  std::vector<std::unique_ptr<Word[]>> levels_;
};

static_assert(static_cast<int>(OpPatternKind::kOpaque) < 16, "a pattern kind fits in 4 bits");

template <typename Word>
PostDominatorTree Build(const IndexedForwardGraph& graph) {
  const size_t n = graph.size();
  LiftingTree<Word> tree(n);
  for (size_t i = n; i-- > 0;) {
    const auto id = static_cast<int32_t>(i);
    if (graph.node(id).extern_ref) {
      tree.Add(id, -1, OpPatternKind::kOpaque);
      continue;
    }
    OpPatternKind pattern = OpPatternKind::kElemWise;
    int32_t parent = -1;
    bool first = true;
    for (const IndexedForwardGraph::Edge& edge : graph.outputs(id)) {
      parent = first ? edge.node : tree.Lca(parent, edge.node, &pattern);
      first = false;
      if (parent < 0) break;  // no common ancestor: nothing more to combine
      pattern = CombinePattern(pattern, edge.pattern);
    }
    tree.Add(id, parent, pattern);
  }
  return tree.Release();
}

}  // namespace

PostDominatorTree BuildPostDominatorTree(const IndexedForwardGraph& graph) {
  if (graph.size() < (size_t{1} << 27)) return Build<uint32_t>(graph);  // node << 4 fits
  return Build<uint64_t>(graph);
}

}  // namespace opuc
