//===- tools/opuc/inspect.cc - `opuc inspect` -----------------------------===//
#include "opuc/inspect.h"

#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>

#include "opuc/exit_codes.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/op_kind.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

Json TensorList(const Graph& graph, const std::vector<TensorId>& ids) {
  Json list = Json::array();
  for (TensorId id : ids) {
    const Tensor& t = graph.tensor(id);
    list.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", DTypeName(t.dtype)}});
  }
  return list;
}

size_t CountConstants(const Graph& graph) {
  size_t count = 0;
  for (const Tensor& t : graph.tensors) count += t.is_constant();
  return count;
}

void PrintJson(const LoadedModel& model, std::ostream& out) {
  const Graph& graph = model.graph;
  Json json;
  json["format"] = ModelFormatName(model.format);
  json["operators"] = model.source_operators;
  json["inputs"] = TensorList(graph, graph.inputs);
  json["outputs"] = TensorList(graph, graph.outputs);
  json["tensors"] = graph.tensors.size();
  json["constant_bytes"] = graph.ConstantBytes();
  out << json.dump(2) << '\n';
}

void PrintTensors(const Graph& graph, const char* title, const std::vector<TensorId>& ids,
                  std::ostream& out) {
  out << title << ":\n";
  for (TensorId id : ids) {
    const Tensor& t = graph.tensor(id);
    out << "  " << std::left << std::setw(24) << t.name << ' ' << DTypeName(t.dtype)
        << ShapeToString(t.shape) << '\n';
  }
}

void PrintText(const std::string& path, const LoadedModel& model, std::ostream& out) {
  const Graph& graph = model.graph;
  out << path << " (" << ModelFormatName(model.format) << ")\n";
  out << "graph '" << graph.name << "': " << graph.nodes.size() << " nodes, "
      << graph.tensors.size() << " tensors, " << CountConstants(graph) << " constants ("
      << graph.ConstantBytes() << " bytes)\n";
  PrintTensors(graph, "inputs", graph.inputs, out);
  PrintTensors(graph, "outputs", graph.outputs, out);
  out << "operators:\n";
  for (const auto& [name, count] : model.source_operators)
    out << "  " << std::left << std::setw(24) << name << ' ' << count << '\n';
  for (const auto& [key, value] : graph.metadata) {
    if (&key == &graph.metadata.front().first) out << "metadata:\n";
    out << "  " << key << ": " << value << '\n';
  }
}

}  // namespace

int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  Expected<LoadedModel> model = LoadModel(options.model);
  if (!model.ok()) return ReportError(model.status(), err);
  if (options.json)
    PrintJson(*model, out);
  else
    PrintText(options.model, *model, out);
  return kExitOk;
}

Command AddInspectCommand(CLI::App& app) {
  return AddCommand(
      app, "inspect", "Print a model's format, operators, inputs, outputs and constant size",
      [](CLI::App& cli, InspectOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
      },
      RunInspect);
}

}  // namespace opuc::cli
