//===- tools/opuc/inspect.cc - `opuc inspect` -----------------------------===//
#include "opuc/inspect.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>

#include "opuc/exit_codes.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/op_kind.h"
#include "opuc/output.h"

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

void PrintJson(const ModelOverview& overview, std::ostream& out) {
  const LoadedModel& model = overview.model;
  const Graph& graph = model.graph;
  Json json;
  json["format"] = ModelFormatName(model.format);
  json["operators"] = model.source_operators;
  json["unsupported"] = overview.unsupported_operators;
  if (!overview.imported) {
    json["imported"] = false;
    json["import_error"] = overview.import_error;
    out << JsonText(json) << '\n';
    return;
  }
  json["inputs"] = TensorList(graph, graph.inputs);
  json["outputs"] = TensorList(graph, graph.outputs);
  json["tensors"] = graph.tensors.size();
  json["constant_bytes"] = graph.ConstantBytes();
  out << JsonText(json) << '\n';
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

bool Contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

void PrintOperators(const ModelOverview& overview, std::ostream& out) {
  out << "operators:\n";
  for (const auto& [name, count] : overview.model.source_operators) {
    out << "  " << std::left << std::setw(24) << name << ' ' << count;
    if (Contains(overview.unsupported_operators, name)) out << "  (opuc cannot import it)";
    out << '\n';
  }
}

void PrintText(const std::string& path, const ModelOverview& overview, std::ostream& out) {
  const LoadedModel& model = overview.model;
  const Graph& graph = model.graph;
  out << path << " (" << ModelFormatName(model.format) << ")\n";
  if (!overview.imported) {
    out << "not imported: " << overview.import_error << '\n';
    PrintOperators(overview, out);
    return;
  }
  out << "graph '" << graph.name << "': " << graph.nodes.size() << " nodes, "
      << graph.tensors.size() << " tensors, " << CountConstants(graph) << " constants ("
      << graph.ConstantBytes() << " bytes)\n";
  PrintTensors(graph, "inputs", graph.inputs, out);
  PrintTensors(graph, "outputs", graph.outputs, out);
  PrintOperators(overview, out);
  for (const auto& [key, value] : graph.metadata) {
    if (&key == &graph.metadata.front().first) out << "metadata:\n";
    out << "  " << key << ": " << value << '\n';
  }
}

}  // namespace

int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  Expected<ModelOverview> overview = InspectModel(options.model);
  if (!overview.ok()) return ReportError(overview.status(), err);
  if (options.json)
    PrintJson(*overview, out);
  else
    PrintText(options.model, *overview, out);
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
