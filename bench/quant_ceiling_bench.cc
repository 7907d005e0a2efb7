//===- bench/quant_ceiling_bench.cc - How good can int8 get? --------------===//
//
// Claim (issue 7, docs/quantization.md): on these models the SQNR that opuc's
// quantizer reaches is near what int8 allows at all. For each model and
// output this prints, measured in one run on the same held-out photographs:
//
//   opuc      opuc's quantized graph on the integer executor (power-of-two
//             scales, zero point 0: the OPU's format);
//   w8        float activations, int8 weights per output channel with a free
//             (non-power-of-two) scale, each rounded to nearest: the error
//             of conventionally rounded weights alone;
//   w8p2      the same with a power-of-two scale per channel, the one of
//             least squared error as opuc chooses it (the coarsest that
//             clips nothing and the three finer);
//   w8m       with the free scale of least squared error (max|w|/127 times
//             2^(-k/16), k = 0..48: the same range as w8p2's, finely): what
//             per-channel multipliers M[c] (numerics.md §3) allow, so w8m
//             against w8p2 is what they would buy the weights;
//   w8a8      w8 plus every activation quantized TFLite-style (asymmetric,
//             free scale from the calibration min/max), emulated in float
//             with quantize/dequantize at f = 0.
//
//   build/bench/quant_ceiling_bench [model ...]   (models: scripts/fetch-models,
//                                                   photographs: scripts/fetch-images)
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "quant_bench_models.h"

namespace {

using namespace opuc;
using bench::Samples;

bool IsInnerProduct(OpKind op) {
  return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D ||
         op == OpKind::kTransposeConv2D || op == OpKind::kFullyConnected;
}

/// The squared error of `values` rounded to nearest (ties up, saturated to
/// int8) at scale `s`, and the values it gives when `out` is given.
double RoundAtScale(const std::vector<float>& values, double s, std::vector<float>* out) {
  double error = 0.0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double q = std::min(127.0, std::max(-128.0, std::floor(values[i] / s + 0.5)));
    error += (values[i] - q * s) * (values[i] - q * s);
    if (out) (*out)[i] = static_cast<float>(q * s);
  }
  return error;
}

enum class WeightScale { kMaxAbs, kPowerOfTwo, kFree };

/// Weights rounded to int8 per output channel: with scale max|w| / 127, or
/// the candidate of least squared error (WeightScale and the header say which).
void FakeQuantizeWeights(Graph& g, WeightScale mode) {
  for (Node& node : g.nodes) {
    if (!IsInnerProduct(node.op)) continue;
    const Tensor& w = g.tensor(node.inputs[1]);
    HostTensor h = HostTensor::FromConstant(w).value();
    std::vector<float> v(h.data<float>(), h.data<float>() + h.elements());
    const bool last = node.op == OpKind::kDepthwiseConv2D;
    const size_t channels = static_cast<size_t>(last ? w.shape.back() : w.shape[0]);
    const size_t inner = v.size() / channels;
    for (size_t c = 0; c < channels; ++c) {
      std::vector<float> row(inner);
      for (size_t k = 0; k < inner; ++k) row[k] = v[last ? k * channels + c : c * inner + k];
      double max_abs = 0.0;
      for (float x : row) max_abs = std::max(max_abs, static_cast<double>(std::fabs(x)));
      if (max_abs == 0.0) continue;
      std::vector<double> candidates = {max_abs / 127.0};
      if (mode == WeightScale::kPowerOfTwo) {
        const double coarsest =
            std::ldexp(1.0, static_cast<int>(std::ceil(std::log2(max_abs / 127.0))));
        candidates = {coarsest, coarsest / 2, coarsest / 4, coarsest / 8};
      } else if (mode == WeightScale::kFree) {
        for (int k = 1; k <= 48; ++k) candidates.push_back(max_abs / 127.0 * std::exp2(-k / 16.0));
      }
      double s = candidates[0], best = RoundAtScale(row, s, nullptr);
      for (const double candidate : candidates) {
        const double error = RoundAtScale(row, candidate, nullptr);
        if (error < best) {
          best = error;
          s = candidate;
        }
      }
      RoundAtScale(row, s, &row);
      for (size_t k = 0; k < inner; ++k) v[last ? k * channels + c : c * inner + k] = row[k];
    }
    node.inputs[1] = g.AddConstant(UniqueTensorName(g, w.name + "/w8"), DType::kF32, w.shape,
                                   ConstantData::Copy(v.data(), v.size() * sizeof(float)));
  }
}

/// After every f32 activation: x → (x/s − z) → int8 at f = 0 → back, with s
/// and z from the calibration range [lo, hi] (asymmetric, 256 levels).
void FakeQuantizeActivations(Graph& g, const Samples& calibration) {
  std::vector<double> lo(g.tensors.size(), 0.0), hi(g.tensors.size(), 0.0);
  for (const auto& sample : calibration)
    (void)RunReference(g, sample, [&](TensorId t, const HostTensor& v) {
      if (v.dtype() != DType::kF32) return OkStatus();
      const auto id = static_cast<size_t>(t);
      for (int64_t i = 0; i < v.elements(); ++i) {
        lo[id] = std::min(lo[id], static_cast<double>(v.data<float>()[i]));
        hi[id] = std::max(hi[id], static_cast<double>(v.data<float>()[i]));
      }
      return OkStatus();
    });
  std::vector<Node> nodes;
  std::vector<TensorId> remap(g.tensors.size());
  for (size_t t = 0; t < remap.size(); ++t) remap[t] = static_cast<TensorId>(t);
  auto scalar = [&](float v) {
    return g.AddConstant(UniqueTensorName(g, "c"), DType::kF32, {1}, ConstantData::Copy(&v, 4));
  };
  auto tensor = [&](const Shape& shape, DType dtype) {
    Tensor t;
    t.name = UniqueTensorName(g, "fq");
    t.dtype = dtype;
    t.shape = shape;
    if (dtype == DType::kI8) t.fixed_point = FixedPoint{{0}, -1};
    return g.AddTensor(std::move(t));
  };
  auto step = [&](OpKind op, std::vector<TensorId> in, TensorId out) {
    Node n;
    n.op = op;
    n.inputs = std::move(in);
    n.outputs = {out};
    nodes.push_back(std::move(n));
  };
  auto fake = [&](TensorId t) {
    if (hi[static_cast<size_t>(t)] <= lo[static_cast<size_t>(t)]) return;
    const double s = (hi[static_cast<size_t>(t)] - lo[static_cast<size_t>(t)]) / 255.0;
    const auto z = static_cast<float>(lo[static_cast<size_t>(t)] / s + 128.0);
    const Shape shape = g.tensor(t).shape;
    TensorId x = t;
    using Steps = std::initializer_list<std::pair<OpKind, float>>;
    for (auto [op, c] : Steps{{OpKind::kMul, static_cast<float>(1.0 / s)}, {OpKind::kSub, z}}) {
      const TensorId y = tensor(shape, DType::kF32);
      step(op, {x, scalar(c)}, y);
      x = y;
    }
    const TensorId q = tensor(shape, DType::kI8), back = tensor(shape, DType::kF32);
    step(OpKind::kQuantize, {x}, q);
    step(OpKind::kDequantize, {q}, back);
    x = back;
    for (auto [op, c] : Steps{{OpKind::kAdd, z}, {OpKind::kMul, static_cast<float>(s)}}) {
      const TensorId y = tensor(shape, DType::kF32);
      step(op, {x, scalar(c)}, y);
      x = y;
    }
    remap[static_cast<size_t>(t)] = x;  // t is an original tensor
  };
  for (TensorId t : g.inputs) fake(t);
  const std::vector<Node> original = std::move(g.nodes);
  for (Node n : original) {
    for (TensorId& in : n.inputs)
      if (in != kNoTensor) in = remap[static_cast<size_t>(in)];
    const std::vector<TensorId> outs = n.outputs;
    nodes.push_back(std::move(n));
    for (TensorId t : outs)
      if (g.tensor(t).dtype == DType::kF32) fake(t);
  }
  for (TensorId& out : g.outputs) out = remap[static_cast<size_t>(out)];
  g.nodes.clear();
  for (Node& n : nodes) g.AddNode(std::move(n));
}

void Print(const char* label, const Expected<std::vector<OutputAccuracy>>& acc) {
  std::printf("  %-6s", label);
  if (!acc.ok()) {
    std::printf(" error: %s\n", acc.status().message().c_str());
    return;
  }
  for (const OutputAccuracy& a : *acc)
    std::printf("  %s %6.1f", a.name.substr(0, 16).c_str(), a.sqnr_db);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models(argv + 1, argv + argc);
  if (models.empty())
    models = {"face_detection_short_range", "hand_landmark_lite", "selfie_segmentation"};
  std::printf("SQNR (dB) per output; %s\n", bench::kBenchSplit);
  for (const std::string& name : models) {
    Expected<bench::BenchModel> model = bench::LoadBenchModel(name);
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", model.status().ToString().c_str());
      return 2;
    }
    const Graph& graph = model->graph;
    const Samples& calibration = model->calibration;
    const Samples& evaluation = model->evaluation;
    std::printf("%s\n", name.c_str());
    Expected<QuantizedGraph> q = Quantize(graph, calibration);
    Print("opuc", q.ok() ? CompareWithFloat(graph, q->graph, evaluation)
                         : Expected<std::vector<OutputAccuracy>>(q.status()));
    Graph w8 = graph;
    FakeQuantizeWeights(w8, WeightScale::kMaxAbs);
    Print("w8", CompareWithFloat(graph, w8, evaluation));
    Graph w8p2 = graph;
    FakeQuantizeWeights(w8p2, WeightScale::kPowerOfTwo);
    Print("w8p2", CompareWithFloat(graph, w8p2, evaluation));
    Graph w8m = graph;
    FakeQuantizeWeights(w8m, WeightScale::kFree);
    Print("w8m", CompareWithFloat(graph, w8m, evaluation));
    Graph w8a8 = w8;
    FakeQuantizeActivations(w8a8, calibration);
    Print("w8a8", CompareWithFloat(graph, w8a8, evaluation));
  }
  return 0;
}
