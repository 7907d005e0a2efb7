//===- src/pass/fold_scale_axis.cc - Per-channel scales into weights ------===//
//
//   mul(conv2d(x, w, b), s)  =>  conv2d(x, w * s, b * s)
//
// where s varies at most along the output channel (see channel_affine.h),
// for conv2d, depthwise_conv2d, transpose_conv2d and fully_connected. Exact
// up to float rounding: the product moves from after the sum into its terms.
//
//===----------------------------------------------------------------------===//
#include "channel_affine.h"
#include "opuc/ir/graph_edit.h"
#include "passes.h"

namespace opuc {
namespace {

/// Multiplies each weight by the scale of its output channel. Depthwise
/// weights [1,Kh,Kw,C*M] keep the channel last; the others put it first.
std::vector<float> ScaleWeights(const Tensor& weights, OpKind op, const std::vector<float>& s) {
  std::vector<float> w = ConstantValues(weights);
  const size_t channels = s.size();
  if (op == OpKind::kDepthwiseConv2D) {
    for (size_t i = 0; i < w.size(); ++i) w[i] *= s[i % channels];
    return w;
  }
  const size_t per_channel = w.size() / channels;
  for (size_t i = 0; i < w.size(); ++i) w[i] *= s[i / per_channel];
  return w;
}

void ScaleInnerProduct(Graph& graph, const ChannelAffine& match, std::vector<bool>& erase) {
  const Node ip = graph.node(match.inner_product);  // copy: inputs change below
  const Tensor& weights = graph.tensor(ip.inputs[1]);
  ReplaceWithConstant(graph, match.inner_product, 1, weights.name + "/scaled", weights.shape,
                      ScaleWeights(weights, ip.op, match.values));
  if (ip.inputs.size() > 2 && ip.inputs[2] != kNoTensor) {
    const Tensor& bias = graph.tensor(ip.inputs[2]);
    std::vector<float> b = ConstantValues(bias);
    for (size_t c = 0; c < b.size(); ++c) b[c] *= match.values[c];
    ReplaceWithConstant(graph, match.inner_product, 2, bias.name + "/scaled", bias.shape, b);
  }
  BypassConsumer(graph, match, erase);
}

Expected<bool> FoldScaleAxis(Graph& graph, PassContext&, PassCounters& counters) {
  const int64_t folded = FoldAllChannelAffine(
      graph, [](OpKind op) { return op == OpKind::kMul; }, ScaleInnerProduct);
  if (folded) counters.Add("scales folded into weights", folded);
  return folded > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateFoldScaleAxisPass() {
  return MakeFunctionPass({"FoldScaleAxis", 3, {}}, FoldScaleAxis);
}

}  // namespace opuc
