//===- bench/cpu_executor_bench.cc - The CPU executor against the reference -===//
//
// Claim (issue 18): the CPU executor (opuc/cpu/executor.h) runs real models
// much faster than the reference executor, with the reference's results. For
// each real model (or those named), after the default pass pipeline: the
// float graph and its int8 quantization (calibrated on two reproducible
// random inputs: the bench measures speed, not accuracy), each run on both
// executors; the best of several runs, the ratio, and where the CPU
// executor's time goes by op (timed between the walk's observer calls);
// then the CPU executor on the graph after FuseOps (functions of an inner
// product and its elementwise tail run as one kernel), and its gain.
// Where the build found Arm NN (oracle/, as the oracle tests), the float model
// also runs on Arm NN 20.08's CpuRef backend: the original .tflite with its
// float16 weights folded, on the same inputs.
//
//   build/bench/cpu_executor_bench [--ops] [MODEL...]
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/frontend/load_model.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "opuc/quant/quantize.h"
#include "opuc/tensor_io/random_input.h"
#include "support/fetched_data.h"
#ifdef OPUC_BENCH_ARMNN
#include <fstream>
#include <iterator>

#include "oracle/armnn_runner.h"
#include "oracle/fold_dequantize.h"
#endif

namespace {

using namespace opuc;
using Clock = std::chrono::steady_clock;

#ifdef OPUC_BENCH_ARMNN
constexpr bool kHaveArmnn = true;
#else
constexpr bool kHaveArmnn = false;
#endif

[[noreturn]] void Fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), s.ToString().c_str());
  std::exit(1);
}

std::vector<HostTensor> Inputs(const Graph& graph, uint64_t seed) {
  std::vector<HostTensor> inputs;
  for (TensorId t : graph.inputs) {
    const Tensor& tensor = graph.tensor(t);
    Expected<HostTensor> v = RandomTensor(tensor.dtype, tensor.shape, seed++);
    if (!v.ok()) Fail(tensor.name, v.status());
    inputs.push_back(std::move(v).value());
  }
  return inputs;
}

/// Seconds per run (best of `reps`) and, for the CPU executor, per op.
struct Timing {
  double seconds = 0;
  std::map<std::string, double> per_op;
};

Timing Time(const Graph& graph, const std::vector<HostTensor>& inputs, bool cpu, int reps) {
  std::vector<std::string> producer(graph.tensors.size());
  for (const Node& node : graph.nodes)
    for (TensorId t : node.outputs) producer[static_cast<size_t>(t)] = std::string(OpName(node.op));
  Timing best;
  for (int rep = 0; rep < reps; ++rep) {
    Timing t;
    auto last = Clock::now();
    const TensorObserver observe = [&](TensorId id, const HostTensor&) {
      const auto now = Clock::now();
      const std::string& op = producer[static_cast<size_t>(id)];
      if (!op.empty()) t.per_op[op] += std::chrono::duration<double>(now - last).count();
      last = now;
      return OkStatus();
    };
    const auto t0 = Clock::now();
    Expected<std::vector<HostTensor>> out =
        cpu ? RunCpu(graph, inputs, observe) : RunReference(graph, inputs, observe);
    t.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!out.ok()) Fail(graph.name, out.status());
    if (rep == 0 || t.seconds < best.seconds) best = t;
  }
  return best;
}

/// Seconds per run of the model on Arm NN's CpuRef (best of 2), or 0 when
/// the build has no Arm NN.
double TimeArmnn([[maybe_unused]] const std::string& name,
                 [[maybe_unused]] const std::vector<HostTensor>& inputs) {
#ifdef OPUC_BENCH_ARMNN
  const std::string file = FetchedModelsDir() + "/" + name + ".tflite";
  std::ifstream in(file, std::ios::binary);
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  Expected<oracle::FoldedModel> folded = oracle::FoldDequantize(bytes, file);
  if (!folded.ok()) Fail(name, folded.status());
  Expected<std::unique_ptr<oracle::ArmnnModel>> armnn =
      oracle::ArmnnModel::Load(folded->bytes, file);
  if (!armnn.ok()) return 0;  // an operator Arm NN 20.08 cannot parse: no figure
  double best = 0;
  for (int rep = 0; rep < 2; ++rep) {
    const auto t0 = Clock::now();
    Expected<std::vector<oracle::ArmnnOutput>> out = (*armnn)->Run(inputs);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!out.ok()) Fail(name, out.status());
    if (rep == 0 || s < best) best = s;
  }
  return best;
#else
  return 0;
#endif
}

void Report(const std::string& label, const Graph& graph, bool ops, const std::string& armnn = "") {
  const std::vector<HostTensor> inputs = Inputs(graph, 7);
  const Timing ref = Time(graph, inputs, false, 2);
  const Timing cpu = Time(graph, inputs, true, 5);
  Graph fused_graph = graph;
  if (Status s = FuseOps(fused_graph, FuseOptions{}).status(); !s.ok()) Fail(label, s);
  const Timing fused = Time(fused_graph, inputs, true, 5);
  std::printf("%-40s %10.2f %10.2f %8.1fx %10.2f %8.2fx", label.c_str(), ref.seconds * 1e3,
              cpu.seconds * 1e3, ref.seconds / cpu.seconds, fused.seconds * 1e3,
              cpu.seconds / fused.seconds);
  if (const double other = armnn.empty() ? 0 : TimeArmnn(armnn, inputs); other > 0)
    std::printf(" %10.2f %8.1fx", other * 1e3, other / cpu.seconds);
  else if (!armnn.empty() && kHaveArmnn)
    std::printf(" %10s %9s", "-", "-");  // Arm NN cannot load the model
  std::printf("\n");
  if (!ops) return;
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [op, s] : cpu.per_op) order.push_back({s, op});
  std::sort(order.rbegin(), order.rend());
  for (const auto& [s, op] : order) {
    const double r = ref.per_op.count(op) ? ref.per_op.at(op) : 0.0;
    std::printf("    %-36s %10.2f %10.2f %8.1fx\n", op.c_str(), r * 1e3, s * 1e3,
                s > 0 ? r / s : 0.0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool ops = false;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ops") == 0) {
      ops = true;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: cpu_executor_bench [--ops] [MODEL...]\n");
      return 2;
    } else {
      names.push_back(argv[i]);
    }
  }
  if (names.empty()) names = FetchedModelNames();
  std::printf(
      "one thread; ms per run (reference, Arm NN: best of 2; cpu: best of 5); fused: the cpu"
      " executor on the graph after FuseOps\n");
  std::printf("%-40s %10s %10s %9s %10s %9s", "model", "reference", "cpu", "ref/cpu", "fused",
              "cpu/fused");
#ifdef OPUC_BENCH_ARMNN
  std::printf(" %10s %9s", "armnn", "armnn/cpu");
#endif
  std::printf("\n");
  for (const std::string& name : names) {
    Expected<LoadedModel> model = LoadModel(FetchedModelsDir() + "/" + name + ".tflite");
    if (!model.ok()) Fail(name + " (run scripts/fetch-models)", model.status());
    Graph graph = std::move(model->graph);
    PassContext ctx;
    PassCounters counters;
    Expected<std::unique_ptr<Sequential>> pipeline = CreatePipeline(DefaultPipelineNames());
    if (!pipeline.ok()) Fail("pipeline", pipeline.status());
    if (Status s = (*pipeline)->Run(graph, ctx, counters).status(); !s.ok()) Fail(name, s);
    Report(name + " f32", graph, ops, name);
    const std::vector<std::vector<HostTensor>> calibration = {Inputs(graph, 1), Inputs(graph, 2)};
    Expected<QuantizedGraph> q = Quantize(graph, calibration);
    if (!q.ok()) Fail(name, q.status());
    Report(name + " int8", q->graph, ops);
  }
  return 0;
}
