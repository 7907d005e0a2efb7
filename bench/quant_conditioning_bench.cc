//===- bench/quant_conditioning_bench.cc - How far the float models follow their own input ===//
//
// Claim (issue 15, docs/quantization.md): some real models' outputs on the
// evaluation photographs move more under a change of half a pixel step in
// their input than the 25 dB asked of the quantized model, so no numeric
// format can bring them there: the float model itself does not hold it.
//
// For each model, on the cache's evaluation set (astronaut, grace_hopper,
// ihc), it prints per output the SQNR against the float model of:
//
//   float +-px/2  the float model with every input element moved by uniform
//                 noise of ±½ pixel step (the preprocessing's scale / 2:
//                 another rendering of the same photograph, as 8-bit
//                 pixels allow): how closely the model follows its input;
//   PReLU a8      the float model with only its PReLU slopes rounded as
//                 the quantizer stores them (int8, one length per tensor,
//                 numerics.md §5): what that format alone costs;
//   int16+w16     `opuc quantize --precision int16 --wide-weights`,
//                 calibrated on the calibration set.
//
//   build/bench/quant_conditioning_bench [model ...]   (default: all 13)
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/numerics/fixed_point.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "quant_bench_models.h"

namespace {

using namespace opuc;
using bench::Samples;

Expected<Samples> LoadSet(const std::string& dir, const TensorType& input,
                          const PreprocessOptions& preprocess) {
  OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> set,
                        LoadCalibrationSet(dir, input, preprocess));
  Samples samples;
  for (CalibrationSample& s : set) samples.push_back({std::move(s.tensor)});
  return samples;
}

/// Each sample with every element moved by uniform noise in ±`half_step`.
Samples Perturbed(const Samples& samples, double half_step) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> noise(static_cast<float>(-half_step),
                                              static_cast<float>(half_step));
  Samples out;
  for (const std::vector<HostTensor>& sample : samples) {
    out.emplace_back();
    for (const HostTensor& t : sample) {
      HostTensor copy = t;
      float* v = copy.data<float>();
      for (int64_t i = 0; i < copy.elements(); ++i) v[i] += noise(rng);
      out.back().push_back(std::move(copy));
    }
  }
  return out;
}

/// Per output: the float graph on `moved` against it on `clean`.
Expected<std::vector<OutputAccuracy>> SelfAgreement(const Graph& graph, const Samples& clean,
                                                    const Samples& moved) {
  std::vector<AccuracyMeter> meters(graph.outputs.size());
  for (size_t s = 0; s < clean.size(); ++s) {
    OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> a, RunCpu(graph, clean[s]));
    OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> b, RunCpu(graph, moved[s]));
    for (size_t o = 0; o < meters.size(); ++o) OPUC_RETURN_IF_ERROR(meters[o].Add(a[o], b[o]));
  }
  std::vector<OutputAccuracy> result;
  for (size_t o = 0; o < meters.size(); ++o)
    result.push_back(meters[o].Finish(graph.tensor(graph.outputs[o]).name));
  return result;
}

/// `graph` with each constant PReLU slope α rounded to int8 at the longest
/// length at which none clips, as the quantizer stores it.
Expected<Graph> WithInt8Slopes(const Graph& graph) {
  Graph out = graph;
  for (Node& node : out.nodes) {
    if (node.op != OpKind::kPRelu || !out.tensor(node.inputs[1]).is_constant()) continue;
    const Tensor alpha = out.tensor(node.inputs[1]);
    OPUC_ASSIGN_OR_RETURN(const HostTensor value, HostTensor::FromConstant(alpha));
    const float* v = value.data<float>();
    double largest = 0.0;
    for (int64_t i = 0; i < value.elements(); ++i)
      largest = std::max(largest, std::fabs(static_cast<double>(v[i])));
    int f = 23;
    while (f > -8 && std::floor(std::ldexp(largest, f) + 0.5) > 127.0) --f;
    std::vector<float> rounded(static_cast<size_t>(value.elements()));
    for (size_t i = 0; i < rounded.size(); ++i)
      rounded[i] = static_cast<float>(std::ldexp(QuantizeToInt8(v[i], f), -f));
    node.inputs[1] =
        out.AddConstant(alpha.name + "/int8", DType::kF32, alpha.shape,
                        ConstantData::Copy(rounded.data(), rounded.size() * sizeof(float)));
  }
  return out;
}

Status Report(const std::string& name) {
  OPUC_ASSIGN_OR_RETURN(bench::BenchModel model, bench::LoadBenchModel(name));
  const Graph& graph = model.graph;
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(const PreprocessOptions pre, DefaultPreprocess(name, input));
  const std::string images = FetchedImagesDir();
  OPUC_ASSIGN_OR_RETURN(const Samples calibration, LoadSet(images + "/calibration", input, pre));
  OPUC_ASSIGN_OR_RETURN(const Samples evaluation, LoadSet(images + "/evaluation", input, pre));
  OPUC_ASSIGN_OR_RETURN(const std::vector<OutputAccuracy> self,
                        SelfAgreement(graph, evaluation, Perturbed(evaluation, pre.scale / 2)));
  QuantizeOptions options;
  options.precision = Precision::kInt16;
  options.wide_weights = true;
  OPUC_ASSIGN_OR_RETURN(const QuantizedGraph q, Quantize(graph, calibration, options));
  OPUC_ASSIGN_OR_RETURN(const std::vector<OutputAccuracy> quantized,
                        CompareWithFloat(graph, q.graph, evaluation));
  OPUC_ASSIGN_OR_RETURN(const Graph slopes, WithInt8Slopes(graph));
  OPUC_ASSIGN_OR_RETURN(const std::vector<OutputAccuracy> prelu,
                        CompareWithFloat(graph, slopes, evaluation));
  const bool has_prelu = std::any_of(graph.nodes.begin(), graph.nodes.end(),
                                     [](const Node& n) { return n.op == OpKind::kPRelu; });
  for (size_t o = 0; o < self.size(); ++o) {
    char alpha8[16] = "-";
    if (has_prelu) std::snprintf(alpha8, sizeof(alpha8), "%.2f", prelu[o].sqnr_db);
    std::printf("%-33s %-26s %13.2f %10s %10.2f\n", o == 0 ? name.c_str() : "",
                self[o].name.substr(0, 26).c_str(), self[o].sqnr_db, alpha8, quantized[o].sqnr_db);
  }
  return OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) names.push_back(argv[i]);
  if (names.empty()) {
    for (const auto& entry : std::filesystem::directory_iterator(FetchedModelsDir()))
      if (entry.path().extension() == ".tflite") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
  }
  std::printf(
      "SQNR (dB) against the float model on the evaluation photographs, per output: the float\n"
      "model with its input moved by +-1/2 pixel step, with its PReLU slopes in int8, and\n"
      "quantized in int16 with 16-bit weights\n\n");
  std::printf("%-33s %-26s %13s %10s %10s\n", "model", "output", "float +-px/2", "PReLU a8",
              "int16+w16");
  for (const std::string& name : names) {
    const Status status = Report(name);
    if (!status.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), status.ToString().c_str());
      return 1;
    }
  }
  return 0;
}
