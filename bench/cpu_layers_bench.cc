//===- bench/cpu_layers_bench.cc - Each conv layer against XNNPACK --------===//
//
// Claim (issue 18): the CPU executor's float convolutions are within 2× of
// XNNPACK's time for the same layer. For each conv2d and depthwise_conv2d of
// a real model (default face_detection_short_range) after the default pass
// pipeline: the layer on the CPU executor, prepared once and run many times
// (PreparedCpuNode; random input, the model's weights), and the same shape,
// weights, padding and activation as an XNNPACK operator (Debian's
// libxnnpack, 2022) created and set up once, both on one thread, best of
// several runs each, the ratio per layer and over the model. The `call`
// column is the layer through EvaluateNodeOnCpu, which infers the output
// types and allocates the output on every call.
//
//   build/bench/cpu_layers_bench [MODEL [LAYER...]]   (LAYER: only those)
//
//===----------------------------------------------------------------------===//
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/conv_geometry.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "opuc/tensor_io/random_input.h"
#include "support/fetched_data.h"

namespace {

using namespace opuc;
using Clock = std::chrono::steady_clock;

[[noreturn]] void Fail(const std::string& what, const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), why.c_str());
  std::exit(1);
}

/// Seconds per call of fn, best of runs filling about 0.2 s (at least 3).
template <typename Fn>
double Best(Fn fn) {
  double best = std::numeric_limits<double>::max(), spent = 0;
  for (int run = 0; run < 3 || (spent < 0.2 && run < 200); ++run) {
    const auto t0 = Clock::now();
    fn();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    best = std::min(best, s);
    spent += s;
  }
  return best;
}

struct Layer {
  double opuc = 0, call = 0, xnnpack = 0;
  int64_t macs = 0;
};

Layer Measure(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  const bool depthwise = node.op == OpKind::kDepthwiseConv2D;
  const Tensor& in = graph.tensor(node.inputs[0]);
  const Tensor& w = graph.tensor(node.inputs[1]);
  const Tensor& out = graph.tensor(node.outputs[0]);
  const bool has_bias = node.inputs.size() > 2 && node.inputs[2] != kNoTensor;
  HostTensor x = RandomTensor(DType::kF32, in.shape, 1).value();
  HostTensor weights = HostTensor::FromConstant(w).value();
  HostTensor bias =
      has_bias ? HostTensor::FromConstant(graph.tensor(node.inputs[2])).value() : HostTensor();
  std::vector<const HostTensor*> args = {&x, &weights};
  if (has_bias) args.push_back(&bias);
  std::vector<HostTensor> results;
  Layer layer;
  layer.call = Best([&] {
    if (Status s = EvaluateNodeOnCpu(graph, id, args, &results); !s.ok())
      Fail(node.name, s.ToString());
  });
  Expected<PreparedCpuNode> prepared = PreparedCpuNode::Prepare(graph, id);
  if (!prepared.ok()) Fail(node.name, prepared.status().ToString());
  layer.opuc = Best([&] {
    if (Status s = prepared->Run(args, &results); !s.ok()) Fail(node.name, s.ToString());
  });

  const WindowSteps steps = WindowStepsOf(node.op, node.attrs);
  const Shape& is = in.shape;
  const Shape& os = out.shape;
  const Shape& ws = w.shape;
  const WindowGeometry g = WindowOf(steps.strides, steps.dilations, is, os, ws[1], ws[2]);
  const auto after = [](const WindowAxis& a, int64_t input, int64_t output) {
    const int64_t needed = (output - 1) * a.stride + (a.kernel - 1) * a.dilation + 1;
    return std::max<int64_t>(needed - input - a.pad_before, 0);
  };
  const auto u32 = [](int64_t v) { return static_cast<uint32_t>(v); };
  float lo = -std::numeric_limits<float>::infinity(), hi = -lo;
  switch (FusedActivation(node.attrs)) {
    case Activation::kRelu: lo = 0; break;
    case Activation::kRelu6: lo = 0, hi = 6; break;
    case Activation::kReluN1To1: lo = -1, hi = 1; break;
    default: break;
  }
  const int64_t ci = is[3], co = os[3];
  const int64_t groups = depthwise ? ci : 1;
  xnn_operator_t op = nullptr;
  if (xnn_create_convolution2d_nhwc_f32(
          u32(g.h.pad_before), u32(after(g.w, is[2], os[2])), u32(after(g.h, is[1], os[1])),
          u32(g.w.pad_before), u32(ws[1]), u32(ws[2]), u32(g.h.stride), u32(g.w.stride),
          u32(g.h.dilation), u32(g.w.dilation), u32(groups), static_cast<size_t>(ci / groups),
          static_cast<size_t>(co / groups), static_cast<size_t>(ci), static_cast<size_t>(co),
          weights.data<float>(), has_bias ? bias.data<float>() : nullptr, lo, hi,
          depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0, &op) != xnn_status_success)
    Fail(node.name, "XNNPACK refused the layer");
  std::vector<float> y(static_cast<size_t>(results.front().elements()));
  if (xnn_setup_convolution2d_nhwc_f32(op, static_cast<size_t>(is[0]), static_cast<size_t>(is[1]),
                                       static_cast<size_t>(is[2]), x.data<float>(), y.data(),
                                       nullptr) != xnn_status_success)
    Fail(node.name, "XNNPACK setup failed");
  layer.xnnpack = Best([&] { xnn_run_operator(op, nullptr); });
  // The two must compute the same layer: a wrong translation shows here.
  double worst = 0, range = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double ours = results.front().data<float>()[i];
    worst = std::max(worst, std::abs(ours - y[i]));
    range = std::max(range, std::abs(ours));
  }
  if (worst > 1e-4 * std::max(range, 1.0)) Fail(node.name, "XNNPACK computes another layer");
  xnn_delete_operator(op);
  layer.macs = os[0] * os[1] * os[2] * co * ws[1] * ws[2] * (depthwise ? 1 : ci);
  return layer;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "face_detection_short_range";
  const std::vector<std::string> only(argv + std::min(argc, 2), argv + argc);
  if (xnn_initialize(nullptr) != xnn_status_success) Fail("xnnpack", "cannot initialize");
  Expected<LoadedModel> model = LoadModel(FetchedModelsDir() + "/" + name + ".tflite");
  if (!model.ok()) Fail(name + " (run scripts/fetch-models)", model.status().ToString());
  Graph graph = std::move(model->graph);
  PassContext ctx;
  PassCounters counters;
  if (Status s = CreatePipeline(DefaultPipelineNames()).value()->Run(graph, ctx, counters).status();
      !s.ok())
    Fail(name, s.ToString());

  std::printf("%s, one thread, f32; us per layer (best of runs), opuc (prepared) / XNNPACK\n",
              name.c_str());
  std::printf("%-44s %-18s %10s %10s %10s %10s %7s\n", "layer", "output", "MMACs", "call", "opuc",
              "xnnpack", "ratio");
  double total_opuc = 0, total_xnn = 0, worst = 0;
  std::string worst_name;
  for (NodeId id = 0; id < static_cast<NodeId>(graph.nodes.size()); ++id) {
    const Node& node = graph.node(id);
    if (node.op != OpKind::kConv2D && node.op != OpKind::kDepthwiseConv2D) continue;
    if (!graph.tensor(node.inputs[1]).constant) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), node.name) == only.end()) continue;
    const Layer l = Measure(graph, id);
    total_opuc += l.opuc;
    total_xnn += l.xnnpack;
    const double ratio = l.opuc / l.xnnpack;
    if (ratio > worst) worst = ratio, worst_name = node.name;
    std::printf("%-44.44s %-18s %10.2f %10.1f %10.1f %10.1f %6.2fx\n",
                (std::string(node.op == OpKind::kConv2D ? "conv " : "dw   ") + node.name).c_str(),
                ShapeToString(graph.tensor(node.outputs[0]).shape).c_str(),
                static_cast<double>(l.macs) / 1e6, l.call * 1e6, l.opuc * 1e6, l.xnnpack * 1e6,
                ratio);
  }
  std::printf("all layers: opuc %.2f ms, XNNPACK %.2f ms, %.2fx; worst %.2fx (%s)\n",
              total_opuc * 1e3, total_xnn * 1e3, total_opuc / total_xnn, worst, worst_name.c_str());
  return 0;
}
