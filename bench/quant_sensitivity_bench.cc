//===- bench/quant_sensitivity_bench.cc - Which activations limit accuracy? -===//
//
// Claim (issue 7, docs/quantization.md): on these models some single
// activation tensors, rounded alone to int8 at the length opuc chose, already
// cost an output more than the 25 dB the issue asks for — so at those lengths
// no choice of weights or of the other tensors can meet it — and the other
// columns say whether a different length or one more bit would.
//
// For each int8 activation of opuc's quantized graph, on the held-out
// photographs, it prints the output SQNR of the float graph (after
// equalization) when only that tensor is rounded:
//
//   int8      at its fraction length f, as the quantized graph holds it;
//   best      at the best of f − 2 … f + 2 for these photographs (chosen
//             in hindsight, on the evaluation images themselves);
//   +1 bit    one bit finer at f's range (f + 1, range of f): what an
//             unsigned int8 would give a tensor that is never negative;
//
// and first opuc's quantized graph and the SQNR with every activation
// rounded (weights left float). Rows are sorted by their worst output.
//
// Then every activation rounded with a fraction length per channel: each
// channel's least squared error on the calibration photographs, never
// coarser than its tensor's (what per-channel activation lengths would
// give, issue 49), on every tensor, on those only inner products read, and
// on those only depthwise convs read (where the lengths would cost no
// instruction: the consumer's weights are per channel).
//
//   build/bench/quant_sensitivity_bench [--all] [model ...]   (--all: every tensor)
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "quant_bench_models.h"

namespace {

using namespace opuc;
using bench::Samples;

/// Copies of a float graph with some tensors rounded right after they are made.
class Rounder {
 public:
  explicit Rounder(const Graph& base) : base_(base) {}

  /// Each tensor of `lengths` → int8 at its f → back to f32; with `finer`,
  /// the residual is rounded once more at f + 1 (clamped to ±half a step,
  /// so the range stays f's); a tensor of `finer_channels` at f + d[c] in
  /// its channel c (scaled by 2^d[c], rounded at f, scaled back).
  Graph Apply(const std::map<TensorId, int>& lengths, bool finer,
              const std::map<TensorId, std::vector<int>>& finer_channels = {}) {
    finer_channels_ = &finer_channels;
    Graph out = base_;
    g_ = &out;
    nodes_.clear();
    std::vector<TensorId> remap(base_.tensors.size());
    for (size_t t = 0; t < remap.size(); ++t) remap[t] = static_cast<TensorId>(t);
    auto round = [&](TensorId t) {
      auto it = lengths.find(t);
      if (it == lengths.end()) return;
      auto c = finer_channels_->find(t);
      remap[static_cast<size_t>(t)] = c != finer_channels_->end()
                                          ? RoundPerChannel(t, it->second, c->second)
                                          : Round(t, it->second, finer);
    };
    for (TensorId t : base_.inputs) round(t);
    for (Node node : base_.nodes) {
      for (TensorId& in : node.inputs)
        if (in != kNoTensor) in = remap[static_cast<size_t>(in)];
      const std::vector<TensorId> outputs = node.outputs;
      nodes_.push_back(std::move(node));
      for (TensorId t : outputs) round(t);
    }
    for (TensorId& t : out.outputs) t = remap[static_cast<size_t>(t)];
    out.nodes.clear();
    for (Node& n : nodes_) out.AddNode(std::move(n));
    return out;
  }

 private:
  TensorId Add(DType dtype, const Shape& shape, int f) {
    Tensor t;
    t.name = UniqueTensorName(*g_, "sensitivity");
    t.dtype = dtype;
    t.shape = shape;
    if (dtype == DType::kI8) t.fixed_point = FixedPoint{{f}, -1};
    return g_->AddTensor(std::move(t));
  }
  TensorId Step(OpKind op, std::vector<TensorId> in, DType dtype, const Shape& shape, int f = 0) {
    Node n;
    n.op = op;
    n.inputs = std::move(in);
    n.outputs = {Add(dtype, shape, f)};
    nodes_.push_back(n);
    return n.outputs[0];
  }
  TensorId Scalar(double v) {
    const auto f = static_cast<float>(v);
    return g_->AddConstant(UniqueTensorName(*g_, "c"), DType::kF32, {1}, ConstantData::Copy(&f, 4));
  }
  TensorId Round(TensorId x, int f, bool finer) {
    const Shape shape = g_->tensor(x).shape;
    const TensorId q = Step(OpKind::kQuantize, {x}, DType::kI8, shape, f);
    const TensorId coarse = Step(OpKind::kDequantize, {q}, DType::kF32, shape);
    if (!finer) return coarse;
    // residual in half steps, clamped to ±1, rounded at f + 1, added back.
    TensorId r = Step(OpKind::kSub, {x, coarse}, DType::kF32, shape);
    r = Step(OpKind::kMul, {r, Scalar(std::ldexp(1.0, f + 1))}, DType::kF32, shape);
    r = Step(OpKind::kReluN1To1, {r}, DType::kF32, shape);
    r = Step(OpKind::kMul, {r, Scalar(std::ldexp(1.0, -(f + 1)))}, DType::kF32, shape);
    const TensorId fine =
        Step(OpKind::kDequantize, {Step(OpKind::kQuantize, {r}, DType::kI8, shape, f + 1)},
             DType::kF32, shape);
    return Step(OpKind::kAdd, {coarse, fine}, DType::kF32, shape);
  }

  TensorId Powers(const std::vector<int>& d, int sign) {
    std::vector<float> v(d.size());
    for (size_t c = 0; c < d.size(); ++c) v[c] = static_cast<float>(std::ldexp(1.0, sign * d[c]));
    return g_->AddConstant(UniqueTensorName(*g_, "c"), DType::kF32,
                           {static_cast<int64_t>(d.size())},
                           ConstantData::Copy(v.data(), v.size() * sizeof(float)));
  }
  TensorId RoundPerChannel(TensorId x, int f, const std::vector<int>& d) {
    const Shape shape = g_->tensor(x).shape;
    const TensorId up = Step(OpKind::kMul, {x, Powers(d, 1)}, DType::kF32, shape);
    const TensorId q = Step(OpKind::kQuantize, {up}, DType::kI8, shape, f);
    const TensorId back = Step(OpKind::kDequantize, {q}, DType::kF32, shape);
    return Step(OpKind::kMul, {back, Powers(d, -1)}, DType::kF32, shape);
  }

  const Graph& base_;
  const std::map<TensorId, std::vector<int>>* finer_channels_ = nullptr;
  Graph* g_ = nullptr;  ///< The copy Apply is building.
  std::vector<Node> nodes_;
};

/// The int8 activations of `q.graph` by their tensor in `q.reference`.
std::map<TensorId, int> ActivationLengths(const QuantizedGraph& q) {
  std::map<std::string, TensorId> by_name;
  for (size_t t = 0; t < q.reference.tensors.size(); ++t)
    if (!q.reference.tensors[t].is_constant())
      by_name[q.reference.tensors[t].name] = static_cast<TensorId>(t);
  std::map<TensorId, int> lengths;
  for (const Tensor& t : q.graph.tensors) {
    auto it = by_name.find(t.name);
    if (it != by_name.end() && !t.is_constant() && t.dtype == DType::kI8 &&
        t.fixed_point.fraction_bits.size() == 1)
      lengths[it->second] = t.fixed_point.fraction_bits[0];
  }
  return lengths;
}

/// Per tensor of `lengths`, per channel (the last axis): how many bits
/// finer than the tensor's f (0 to kMostFiner) round its values over
/// `samples` with the least squared error, int8 saturation included.
std::map<TensorId, std::vector<int>> FinerChannels(const Graph& g,
                                                   const std::map<TensorId, int>& lengths,
                                                   const Samples& samples) {
  constexpr int kMostFiner = 8;
  std::map<TensorId, std::vector<std::vector<double>>> error;  // [channel][d]
  for (const auto& [t, f] : lengths)
    if (!g.tensor(t).shape.empty())
      error[t].assign(static_cast<size_t>(g.tensor(t).shape.back()),
                      std::vector<double>(kMostFiner + 1, 0.0));
  for (const std::vector<HostTensor>& sample : samples) {
    const auto run = RunCpu(g, sample, [&](TensorId t, const HostTensor& v) {
      auto it = error.find(t);
      if (it == error.end() || v.dtype() != DType::kF32) return OkStatus();
      const size_t channels = it->second.size();
      const float* x = v.data<float>();
      for (int64_t i = 0; i < v.elements(); ++i)
        for (int d = 0; d <= kMostFiner; ++d) {
          const double scale = std::ldexp(1.0, lengths.at(t) + d);
          const double q = std::clamp(std::floor(x[i] * scale + 0.5), -128.0, 127.0);
          const double e = x[i] - q / scale;
          it->second[static_cast<size_t>(i) % channels][static_cast<size_t>(d)] += e * e;
        }
      return OkStatus();
    });
    if (!run.ok()) {
      std::fprintf(stderr, "%s\n", run.status().ToString().c_str());
      std::exit(3);
    }
  }
  std::map<TensorId, std::vector<int>> finer;
  for (const auto& [t, channels] : error)
    for (const std::vector<double>& e : channels)
      finer[t].push_back(static_cast<int>(std::min_element(e.begin(), e.end()) - e.begin()));
  return finer;
}

/// The tensors of `all` that only readers of kind `keep` read.
std::map<TensorId, std::vector<int>> ReadOnlyBy(const Graph& g,
                                                const std::map<TensorId, std::vector<int>>& all,
                                                bool (*keep)(OpKind)) {
  std::map<TensorId, std::vector<int>> kept;
  for (const auto& [t, d] : all) {
    bool only = !IsGraphOutput(g, t);
    int readers = 0;
    for (const Node& n : g.nodes)
      for (TensorId in : n.inputs)
        if (in == t) only = only && keep(n.op), ++readers;
    if (only && readers > 0) kept[t] = d;
  }
  return kept;
}

std::vector<double> Sqnr(const Graph& reference, const Graph& g, const Samples& samples) {
  const Expected<std::vector<OutputAccuracy>> accuracy = CompareWithFloat(reference, g, samples);
  if (!accuracy.ok()) {
    std::fprintf(stderr, "%s\n", accuracy.status().ToString().c_str());
    std::exit(3);
  }
  std::vector<double> db;
  for (const OutputAccuracy& a : *accuracy) db.push_back(a.sqnr_db);
  return db;
}

double Worst(const std::vector<double>& db) { return *std::min_element(db.begin(), db.end()); }

/// Per output: one column per variant.
void PrintRow(const std::string& label, const std::vector<std::vector<double>>& variants) {
  std::printf("  %-36s", label.substr(0, 36).c_str());
  for (size_t o = 0; o < variants[0].size(); ++o) {
    std::printf("  ");
    for (const std::vector<double>& v : variants) std::printf(" %6.1f", v[o]);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models;
  bool all = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--all")
      all = true;
    else
      models.push_back(argv[i]);
  }
  if (models.empty())
    models = {"face_detection_short_range", "hand_landmark_lite", "selfie_segmentation"};
  std::printf("output SQNR (dB) with one activation rounded; %s\n", bench::kBenchSplit);
  for (const std::string& name : models) {
    Expected<bench::BenchModel> model = bench::LoadBenchModel(name);
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", model.status().ToString().c_str());
      return 2;
    }
    Expected<QuantizedGraph> q = Quantize(model->graph, model->calibration);
    if (!q.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), q.status().ToString().c_str());
      return 3;
    }
    const std::map<TensorId, int> lengths = ActivationLengths(*q);
    Rounder rounder(q->reference);
    const Samples& eval = model->evaluation;
    std::printf("%s: %zu int8 activations; per output: int8, best length, +1 bit\n", name.c_str(),
                lengths.size());
    PrintRow("opuc (quantized graph)", {Sqnr(q->reference, q->graph, eval)});
    PrintRow("every activation (weights float)",
             {Sqnr(q->reference, rounder.Apply(lengths, false), eval),
              Sqnr(q->reference, rounder.Apply(lengths, true), eval)});
    const auto finer = FinerChannels(q->reference, lengths, model->calibration);
    PrintRow("per channel: every activation",
             {Sqnr(q->reference, rounder.Apply(lengths, false, finer), eval)});
    PrintRow("  only inner products read",
             {Sqnr(q->reference,
                   rounder.Apply(lengths, false,
                                 ReadOnlyBy(q->reference, finer,
                                            [](OpKind op) {
                                              return op == OpKind::kConv2D ||
                                                     op == OpKind::kDepthwiseConv2D ||
                                                     op == OpKind::kFullyConnected;
                                            })),
                   eval)});
    PrintRow(
        "  only depthwise convs read",
        {Sqnr(q->reference,
              rounder.Apply(lengths, false,
                            ReadOnlyBy(q->reference, finer,
                                       [](OpKind op) { return op == OpKind::kDepthwiseConv2D; })),
              eval)});
    struct Row {
      std::string label;
      std::vector<std::vector<double>> variants;  // int8, best, +1 bit
    };
    std::vector<Row> rows;
    for (const auto& [t, f] : lengths) {
      Row row{q->reference.tensor(t).name + " f=" + std::to_string(f), {}};
      row.variants.push_back(Sqnr(q->reference, rounder.Apply({{t, f}}, false), eval));
      std::vector<double> best = row.variants[0];
      int best_f = f;
      for (int other : {f - 2, f - 1, f + 1, f + 2}) {
        std::vector<double> db = Sqnr(q->reference, rounder.Apply({{t, other}}, false), eval);
        if (Worst(db) > Worst(best)) best = db, best_f = other;
      }
      row.label += " (best " + std::to_string(best_f) + ")";
      row.variants.push_back(best);
      row.variants.push_back(Sqnr(q->reference, rounder.Apply({{t, f}}, true), eval));
      rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      return Worst(a.variants[0]) < Worst(b.variants[0]);
    });
    for (size_t i = 0; i < rows.size() && (all || i < 12); ++i)
      PrintRow(rows[i].label, rows[i].variants);
  }
  return 0;
}
