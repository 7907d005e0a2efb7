//===- src/fusion/function_args.cc - Parameters of a merged group ---------===//
//
// FuseOps.max_function_args (our rule; TVM's later versions have a similar
// per-target limit): a fusion is refused when the merged group's function
// would take more than N parameters. A parameter is a distinct node outside
// the group whose value an op in the group reads: a graph input, a constant
// of more than one element, or another group's result. One-element
// constants are copied into the function and cost nothing; a tuple is seen
// through to its fields (a concat reads its fields, not a tuple value).
// FuseMutator creates exactly these parameters.
//
// The merged group is sink's group plus the groups of every node from src up
// to sink; the count walks their member lists.
//
//===----------------------------------------------------------------------===//
#include "partitioner.h"

namespace opuc::fusion {

int64_t GraphPartitioner::CountFunctionArgs(int32_t src, int32_t sink) {
  // Mark the roots of the merged group.
  std::vector<int32_t> roots = {groups_.FindRoot(sink)};
  marked_.Clear();
  marked_.Insert(roots[0]);
  ForEachUpToSink(src, sink, [&](int32_t id) {
    const int32_t root = groups_.FindRoot(id);
    if (marked_.Insert(root)) roots.push_back(root);
    return true;
  });

  // Count the distinct outside producers that the merged group's ops read.
  int64_t params = 0;
  visited_.Clear();  // producers counted
  std::vector<int32_t> producers;
  for (int32_t root : roots) {
    for (int32_t member = root; member >= 0; member = groups_.next_member(member)) {
      if (!graph_.IsOp(member)) continue;
      producers.assign(graph_.inputs(member).begin(), graph_.inputs(member).end());
      while (!producers.empty()) {
        const int32_t producer = producers.back();
        producers.pop_back();
        if (graph_.IsTuple(producer)) {
          producers.insert(producers.end(), graph_.inputs(producer).begin(),
                           graph_.inputs(producer).end());
          continue;
        }
        if (graph_.IsSimpleConstant(producer)) continue;
        if (marked_.Contains(groups_.FindRoot(producer))) continue;
        if (visited_.Insert(producer)) ++params;
      }
    }
  }
  return params;
}

}  // namespace opuc::fusion
