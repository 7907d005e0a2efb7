// A small float model (conv 3x3 + relu, conv 1x1, max pool, fully
// connected; or with its input normalized first, x·s[c] + m[c]; or with a
// second output the OPU cannot run, the pooled map upsampled bilinearly and
// squared: one CPU group of two ops) quantized
// on seeded random samples, partitioned and compiled for a preset: the
// pieces WriteProgram takes, for the program and runtime tests to write,
// break and run; and the depthwise tests' model (DepthwiseModel).
#ifndef OPUC_TESTS_PROGRAM_SMALL_MODEL_H
#define OPUC_TESTS_PROGRAM_SMALL_MODEL_H

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "opuc/codegen/codegen.h"
#include "opuc/compiler/write_program.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/program.h"
#include "opuc/quant/quantize.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::test {

inline std::vector<float> Ramp(size_t n, float step, float start) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i % 13);
  return v;
}

/// The graph `b` builds, which a test's builder must finish.
inline Graph Finished(GraphBuilder&& b) {
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE_MESSAGE(graph.ok(), graph.status().ToString());
  return std::move(graph).value();
}

/// A k x k depthwise conv of c channels over an h x w map ("same"
/// padding, the given stride), then relu6: the depthwise tests' model.
inline Graph DepthwiseModel(int64_t h, int64_t w, int64_t c, int64_t k = 3, int64_t stride = 1) {
  GraphBuilder b("depthwise");
  const TensorId x = b.Input("x", DType::kF32, {1, h, w, c});
  Attributes attrs;
  attrs.Set("padding", std::string("same"));
  attrs.Set("strides", std::vector<int64_t>{stride, stride});
  const auto n = static_cast<size_t>(c);
  const auto taps = static_cast<size_t>(k * k);
  const TensorId d = b.Op(OpKind::kDepthwiseConv2D, "dw",
                          {x, b.ConstantF32("dw/w", {1, k, k, c}, Ramp(taps * n, 0.05f, -0.3f)),
                           b.ConstantF32("dw/b", {c}, Ramp(n, 0.03f, -0.1f))},
                          attrs);
  b.Output(b.Op(OpKind::kRelu6, "relu6", {d}));
  return Finished(std::move(b));
}

inline Graph SmallFloatModel(bool normalized = false, bool cpu_tail = false) {
  GraphBuilder b("small");
  TensorId image = b.Input("image", DType::kF32, {1, 10, 10, 3});
  if (normalized) {  // the presets' datapath runs these in a pass before conv1's
    image =
        b.Op(OpKind::kMul, "scale", {image, b.ConstantF32("scale/c", {3}, {0.5f, -0.75f, 1.25f})});
    image =
        b.Op(OpKind::kAdd, "shift", {image, b.ConstantF32("shift/c", {3}, {-0.25f, 0.5f, 0.125f})});
  }
  Attributes same;
  same.Set("padding", std::string("same"));
  const TensorId c1 = b.Op(OpKind::kConv2D, "conv1",
                           {image, b.ConstantF32("conv1/w", {12, 3, 3, 3}, Ramp(324, 0.05f, -0.3f)),
                            b.ConstantF32("conv1/b", {12}, Ramp(12, 0.02f, -0.1f))},
                           same);
  const TensorId r1 = b.Op(OpKind::kRelu, "relu1", {c1});
  const TensorId c2 =
      b.Op(OpKind::kConv2D, "conv2",
           {r1, b.ConstantF32("conv2/w", {20, 1, 1, 12}, Ramp(240, 0.04f, -0.25f))}, same);
  Attributes pool;
  pool.Set("filter", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  const TensorId p = b.Op(OpKind::kMaxPool2D, "pool", {c2}, pool);
  if (cpu_tail) {
    Attributes size;
    size.Set("size", std::vector<int64_t>{8, 8});
    const TensorId up = b.Op(OpKind::kResizeBilinear, "up", {p}, size);
    b.Output(b.Op(OpKind::kMul, "square", {up, up}));
  }
  Attributes shape;
  shape.Set("new_shape", std::vector<int64_t>{1, 500});
  const TensorId flat = b.Op(OpKind::kReshape, "flatten", {p}, shape);
  b.Output(b.Op(OpKind::kFullyConnected, "fc",
                {flat, b.ConstantF32("fc/w", {6, 500}, Ramp(3000, 0.01f, -0.06f))}));
  return Finished(std::move(b));
}

inline std::vector<HostTensor> SeededInputs(const Graph& graph, uint64_t seed) {
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Tensor& t = graph.tensor(graph.inputs[i]);
    inputs.push_back(RandomTensor(t.dtype, t.shape, InputSeed(seed, i)).value());
  }
  return inputs;
}

struct SmallModel {
  HwConfig hw;
  QuantizedGraph quantized;
  HwPartition partition;
  StepPlan code;

  const Graph& graph() const { return quantized.graph; }
  /// The planned OPU steps, in order.
  std::vector<PlannedStep*> OpuSteps() {
    std::vector<PlannedStep*> opu;
    for (PlannedStep& step : code.steps)
      if (step.kind == StepKind::kOpu) opu.push_back(&step);
    return opu;
  }
  std::vector<uint8_t> Write() const {
    ProgramBuild build;
    build.compiler = "opuc test";
    build.source_name = "small";
    build.source_sha256 = std::string(64, '0');
    Expected<std::vector<uint8_t>> bytes = WriteProgram(graph(), partition, code, hw, build);
    REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
    return std::move(bytes).value();
  }
};

/// `model` (float) quantized on three seeded samples, partitioned and
/// planned for preset `hw` with `options`.
inline SmallModel CompileSmallModel(const std::string& hw, const Graph& model,
                                    const PlanOptions& options = {}) {
  SmallModel m;
  m.hw = HwConfigPreset(hw).value();
  std::vector<std::vector<HostTensor>> samples;
  for (uint64_t seed = 1; seed <= 3; ++seed) samples.push_back(SeededInputs(model, seed));
  Expected<QuantizedGraph> q = Quantize(model, samples);
  REQUIRE_MESSAGE(q.ok(), q.status().ToString());
  m.quantized = std::move(q).value();
  Expected<HwPartition> p = PartitionForHardware(m.graph(), m.hw);
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  m.partition = std::move(p).value();
  Expected<StepPlan> code = PlanSteps(m.graph(), m.partition, m.hw, options);
  REQUIRE_MESSAGE(code.ok(), code.status().ToString());
  m.code = std::move(code).value();
  return m;
}

inline SmallModel MakeSmallModel(const std::string& hw, bool normalized = false,
                                 bool cpu_tail = false, const PlanOptions& options = {}) {
  return CompileSmallModel(hw, SmallFloatModel(normalized, cpu_tail), options);
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_PROGRAM_SMALL_MODEL_H
