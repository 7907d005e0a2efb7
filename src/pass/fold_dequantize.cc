//===- src/pass/fold_dequantize.cc - float16 constants to float32 ---------===//
//
// Every weight of the MediaPipe models is a float16 constant feeding a
// DEQUANTIZE. This folds exactly those nodes (at opt level 0: the rest of
// opuc expects f32 weights), whatever FoldConstant's level.
//
//===----------------------------------------------------------------------===//
#include <limits>

#include "fold_util.h"
#include "passes.h"

namespace opuc {
namespace {

Expected<bool> FoldDequantize(Graph& graph, PassContext&, PassCounters& counters) {
  OPUC_ASSIGN_OR_RETURN(int64_t folded,
                        FoldConstantNodes(
                            graph, [](const Node& node) { return node.op == OpKind::kDequantize; },
                            std::numeric_limits<int64_t>::max()));
  if (folded) counters.Add("dequantized constants", folded);
  return folded > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateFoldDequantizePass() {
  return MakeFunctionPass({"FoldDequantize", 0, {}}, FoldDequantize);
}

}  // namespace opuc
