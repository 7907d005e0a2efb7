//===- tests/consumer/main.cc - A program built against installed opuc ----===//
//
// Builds a small graph with the public API, writes it as .opug, reads it back
// and checks that the two print the same; through JSON too when this opuc
// has FlatBuffers' parser. With a path argument it also compiles the graph
// for the tiny preset and writes the program there, for the runtime-only
// consumer (runtime/) to run. Exit 0 when everything holds.
//
//===----------------------------------------------------------------------===//
#include <opuc/compiler/compile.h>
#include <opuc/file_io/file_io.h>
#include <opuc/ir/graph_builder.h>
#include <opuc/ir/printer.h>
#include <opuc/opug/opug.h>
#include <opuc/tensor_io/random_input.h>
#include <opuc/version.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

opuc::Expected<opuc::Graph> MakeGraph() {
  using opuc::OpKind;
  opuc::GraphBuilder b("consumer");
  const opuc::TensorId image = b.Input("image", opuc::DType::kF32, {1, 8, 8, 3});
  std::vector<float> w(4 * 3 * 3 * 3);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
  const opuc::TensorId weights = b.ConstantF32("conv/w", {4, 3, 3, 3}, w);
  opuc::Attributes conv;
  conv.Set("padding", std::string("same"));
  const opuc::TensorId x = b.Op(OpKind::kConv2D, "conv", {image, weights}, conv);
  const opuc::TensorId y = b.Op(OpKind::kRelu, "relu", {x});
  opuc::Attributes pool;
  pool.Set("filter", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  b.Output(b.Op(OpKind::kMaxPool2D, "pool", {y}, pool));
  return std::move(b).Finish();
}

int Fail(const char* what, const opuc::Status& status) {
  std::fprintf(stderr, "consumer: %s: %s\n", what, status.ToString().c_str());
  return 1;
}

}  // namespace

// Compiles `graph` for the tiny preset, calibrated on three seeded random
// samples, and writes the program to `path`.
int WriteProgramFile(const opuc::Graph& graph, const char* path) {
  std::vector<std::vector<opuc::HostTensor>> calibration;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    opuc::Expected<std::vector<opuc::HostTensor>> sample = opuc::RandomInputs(graph, seed);
    if (!sample.ok()) return Fail("making calibration samples", sample.status());
    calibration.push_back(std::move(sample).value());
  }
  opuc::Expected<opuc::HwConfig> hw = opuc::HwConfigPreset("tiny");
  if (!hw.ok()) return Fail("the tiny preset", hw.status());
  opuc::CompileOptions options;
  options.source_name = "consumer";
  opuc::Expected<opuc::CompiledModel> compiled =
      opuc::CompileModel(graph, calibration, *hw, std::move(options));
  if (!compiled.ok()) return Fail("compiling", compiled.status());
  const opuc::Status written =
      opuc::WriteFileBytes(path, compiled->program.data(), compiled->program.size());
  if (!written.ok()) return Fail("writing the program", written);
  std::printf("consumer: %s: %lld OPU and %lld CPU steps, %zu bytes\n", path,
              static_cast<long long>(compiled->report.opu_steps),
              static_cast<long long>(compiled->report.cpu_steps), compiled->program.size());
  return 0;
}

int main(int argc, char** argv) {
  opuc::Expected<opuc::Graph> graph = MakeGraph();
  if (!graph.ok()) return Fail("building the graph", graph.status());
  opuc::Expected<std::vector<uint8_t>> bytes = opuc::WriteOpug(*graph);
  if (!bytes.ok()) return Fail("writing .opug", bytes.status());
  opuc::Expected<opuc::Graph> back = opuc::ReadOpug(*bytes, "consumer.opug");
  if (!back.ok()) return Fail("reading .opug", back.status());
  const std::string text = opuc::PrintGraph(*graph);
  if (opuc::PrintGraph(*back) != text) {
    std::fprintf(stderr, "consumer: the graph read back differs:\n%s\nvs\n%s\n", text.c_str(),
                 opuc::PrintGraph(*back).c_str());
    return 1;
  }
  if (opuc::OpugJsonReaderAvailable()) {
    opuc::Expected<std::string> json = opuc::OpugToJson(*graph);
    if (!json.ok()) return Fail("writing JSON", json.status());
    opuc::Expected<opuc::Graph> from_json = opuc::ReadOpugJson(*json, "consumer.opug.json");
    if (!from_json.ok()) return Fail("reading JSON", from_json.status());
    if (opuc::PrintGraph(*from_json) != text) {
      std::fprintf(stderr, "consumer: the graph read from JSON differs\n");
      return 1;
    }
  }
  std::printf("opuc %s: %zu nodes, %zu bytes of .opug, read back the same%s\n", OPUC_VERSION,
              graph->nodes.size(), bytes->size(),
              opuc::OpugJsonReaderAvailable() ? " (also through JSON)" : "");
  return argc > 1 ? WriteProgramFile(*graph, argv[1]) : 0;
}
