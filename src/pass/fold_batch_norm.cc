//===- src/pass/fold_batch_norm.cc - Per-channel shifts into the bias -----===//
//
// An inference batch norm is a per-channel scale then shift. FoldScaleAxis
// (required first) takes the scale; this pass takes the shift:
//
//   add(conv2d(x, w, b), c)  =>  conv2d(x, w, b + c)
//   sub(conv2d(x, w, b), c)  =>  conv2d(x, w, b - c)
//
// A missing bias becomes c (or -c). Exact up to float rounding.
//
//===----------------------------------------------------------------------===//
#include "channel_affine.h"
#include "opuc/ir/graph_edit.h"
#include "passes.h"

namespace opuc {
namespace {

void ShiftBias(Graph& graph, const ChannelAffine& match, std::vector<bool>& erase) {
  const Node ip = graph.node(match.inner_product);  // copy: inputs change below
  const bool subtract = graph.node(match.consumer).op == OpKind::kSub;
  const bool has_bias = ip.inputs.size() > 2 && ip.inputs[2] != kNoTensor;
  std::vector<float> bias = has_bias ? ConstantValues(graph.tensor(ip.inputs[2]))
                                     : std::vector<float>(match.values.size(), 0.0f);
  for (size_t c = 0; c < bias.size(); ++c) bias[c] += subtract ? -match.values[c] : match.values[c];
  const std::string name =
      has_bias ? graph.tensor(ip.inputs[2]).name + "/shifted" : ip.name + "/bias";
  ReplaceWithConstant(graph, match.inner_product, 2, name, {static_cast<int64_t>(bias.size())},
                      bias);
  BypassConsumer(graph, match, erase);
}

Expected<bool> FoldBatchNorm(Graph& graph, PassContext&, PassCounters& counters) {
  const int64_t folded = FoldAllChannelAffine(
      graph, [](OpKind op) { return op == OpKind::kAdd || op == OpKind::kSub; }, ShiftBias);
  if (folded) counters.Add("shifts folded into biases", folded);
  return folded > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateFoldBatchNormPass() {
  return MakeFunctionPass({"FoldBatchNorm", 3, {"FoldScaleAxis"}}, FoldBatchNorm);
}

}  // namespace opuc
