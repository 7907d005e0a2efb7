// Shared helpers for the pass tests: run a pass by name with the verifier on.
#ifndef OPUC_TESTS_PASS_PASS_TEST_UTIL_H
#define OPUC_TESTS_PASS_PASS_TEST_UTIL_H

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/ir/printer.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"

namespace opuc::testing {

struct PassRun {
  Status status;
  bool changed = false;
  std::vector<CounterInstrument::Entry> runs;  // every pass that ran, in order
};

/// Runs the named passes as one pipeline with IR verification after each.
inline PassRun RunPasses(Graph& graph, const std::vector<std::string>& names, int opt_level = 3) {
  PassRun result;
  PassContext ctx;
  ctx.opt_level = opt_level;
  auto counters = std::make_shared<CounterInstrument>();
  ctx.instruments = {std::make_shared<VerifyInstrument>(), counters};
  Expected<std::unique_ptr<Sequential>> pipeline = CreatePipeline(names);
  if (!pipeline.ok()) {
    result.status = pipeline.status();
    return result;
  }
  PassCounters unused;
  Expected<bool> changed = (*pipeline)->Run(graph, ctx, unused);
  result.status = changed.status();
  if (!result.status.ok()) MESSAGE(result.status.ToString());
  result.changed = changed.ok() && *changed;
  result.runs = counters->entries();
  return result;
}

/// Finishes a builder, failing the test on error.
/// The tensor called `name` (a test failure if there is none).
inline const Tensor& Named(const Graph& g, const std::string& name) {
  for (const Tensor& t : g.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return g.tensors[0];
}

inline Graph Build(GraphBuilder&& builder) {
  Expected<Graph> graph = std::move(builder).Finish();
  REQUIRE_MESSAGE(graph.ok(), graph.status().ToString());
  return std::move(graph).value();
}

inline Attributes Attrs(std::initializer_list<std::pair<const char*, AttrValue>> list) {
  Attributes attrs;
  for (const auto& [name, value] : list) attrs.Set(name, value);
  return attrs;
}

inline AttrValue Ints(std::vector<int64_t> v) { return AttrValue(std::move(v)); }

/// A float32 host tensor holding `values` (copied).
inline HostTensor F32Tensor(Shape shape, const std::vector<float>& values) {
  return HostTensor::Copy(DType::kF32, std::move(shape), values.data(),
                          values.size() * sizeof(float))
      .value();
}
inline AttrValue Str(const char* s) { return AttrValue(std::string(s)); }

}  // namespace opuc::testing

namespace opuc::testing {

/// The f32 values of the constant called `name` (empty if there is none).
inline std::vector<float> ConstantF32(const Graph& graph, const std::string& name) {
  for (const Tensor& t : graph.tensors) {
    if (t.name != name || !t.constant) continue;
    std::vector<float> values(t.constant->size() / sizeof(float));
    std::memcpy(values.data(), t.constant->data(), t.constant->size());
    return values;
  }
  return {};
}

/// "conv2d(x,w,b)->y" for each node: ops and tensor names, in order.
inline std::vector<std::string> NodeSignatures(const Graph& graph) {
  std::vector<std::string> lines;
  auto name = [&](TensorId id) {
    return id == kNoTensor ? std::string("_") : graph.tensor(id).name;
  };
  for (const Node& node : graph.nodes) {
    std::string line = std::string(OpName(node.op)) + "(";
    for (size_t i = 0; i < node.inputs.size(); ++i) line += (i ? "," : "") + name(node.inputs[i]);
    line += ")->";
    for (size_t i = 0; i < node.outputs.size(); ++i) line += (i ? "," : "") + name(node.outputs[i]);
    lines.push_back(line);
  }
  return lines;
}

using Lines = std::vector<std::string>;

/// The model file at `path` through the default pipeline at `opt_level`
/// (what the quantizer and partitioner start from); fails the test on error.
inline Graph OptimizedModel(const std::string& path, int opt_level = 3) {
  Expected<LoadedModel> model = LoadModel(path);
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  Graph graph = std::move(model->graph);
  const PassRun run = RunPasses(graph, DefaultPipelineNames(), opt_level);
  REQUIRE_MESSAGE(run.status.ok(), run.status.ToString());
  return graph;
}

/// The reference executor's outputs; fails the test on error.
inline std::vector<HostTensor> ReferenceOutputs(const Graph& graph,
                                                const std::vector<HostTensor>& inputs) {
  Expected<std::vector<HostTensor>> out = RunReference(graph, inputs);
  REQUIRE_MESSAGE(out.ok(), out.status().ToString());
  return std::move(out).value();
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_PASS_PASS_TEST_UTIL_H
