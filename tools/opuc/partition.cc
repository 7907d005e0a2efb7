//===- tools/opuc/partition.cc - `opuc partition` -------------------------===//
#include "opuc/partition.h"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opuc/exit_codes.h"
#include "opuc/file_io/file_io.h"  // WriteFileBytes
#include "opuc/frontend/load_model.h"
#include "opuc/opu/hw_config.h"
#include "opuc/output.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string NodeName(const Graph& graph, NodeId id) {
  const Node& node = graph.node(id);
  return node.name.empty() ? "#" + std::to_string(id) : node.name;
}

std::string StageName(const HwConfig& hw, const NodePlacement& place) {
  if (place.stage < 0) return place.placement == Placement::kCollected ? "collected" : "cpu";
  return hw.hdfg.stages[static_cast<size_t>(place.stage)].name;
}

double Share(const HwPartition& p) {
  return p.total_macs > 0 ? static_cast<double>(p.opu_macs) / static_cast<double>(p.total_macs)
                          : 1.0;
}

Json Names(const Graph& graph, const std::vector<TensorId>& ids) {
  Json list = Json::array();
  for (TensorId t : ids) list.push_back(graph.tensor(t).name);
  return list;
}

void PrintJson(const Graph& graph, const HwConfig& hw, const HwPartition& p, std::ostream& out) {
  Json groups = Json::array();
  for (const HwGroup& g : p.groups) {
    Json ops = Json::array(), stages = Json::array(), reasons = Json::array();
    for (NodeId n : g.ops) {
      const NodePlacement& place = p.nodes[static_cast<size_t>(n)];
      ops.push_back(NodeName(graph, n));
      stages.push_back(StageName(hw, place));
      reasons.push_back(ReasonText(graph, p, place.reason));
    }
    groups.push_back({{"id", g.id},
                      {"kind", GroupKindName(g.kind)},
                      {"ops", ops},
                      {"stages", stages},
                      {"inputs", Names(graph, g.inputs)},
                      {"outputs", Names(graph, g.outputs)},
                      {"macs", g.macs},
                      {"reason", ReasonText(graph, p, g.reason)},
                      {"op_reasons", reasons}});
  }
  Json json;
  json["hw"] = hw.name;
  json["groups"] = groups;
  json["opu_ops"] = p.opu_ops;
  json["cpu_ops"] = p.cpu_ops;
  json["macs"] = {{"total", p.total_macs}, {"opu", p.opu_macs}, {"opu_share", Share(p)}};
  out << JsonText(json) << '\n';
}

std::string JoinNames(const Graph& graph, const std::vector<TensorId>& ids) {
  std::string text;
  for (TensorId t : ids) text += (text.empty() ? "" : ", ") + graph.tensor(t).name;
  return text.empty() ? "-" : text;
}

void PrintText(const std::string& path, const Graph& graph, const HwConfig& hw,
               const HwPartition& p, std::ostream& out) {
  int64_t opu_groups = 0;
  for (const HwGroup& g : p.groups) opu_groups += g.kind == GroupKind::kOpu;
  char share[32];
  std::snprintf(share, sizeof(share), "%.2f%%", 100.0 * Share(p));
  out << path << ": hw " << hw.name << "; " << graph.nodes.size() << " ops in " << p.groups.size()
      << " groups (" << opu_groups << " opu, " << p.groups.size() - static_cast<size_t>(opu_groups)
      << " cpu); opu ops " << p.opu_ops << ", cpu ops " << p.cpu_ops << "\n";
  out << "MACs in OPU groups: " << p.opu_macs << " of " << p.total_macs << " (" << share << ")\n";
  for (const HwGroup& g : p.groups) {
    out << "\ngroup " << g.id << "  " << GroupKindName(g.kind) << " ";
    for (NodeId n : g.ops) {
      out << ' ' << NodeName(graph, n);
      if (g.kind == GroupKind::kOpu) out << ':' << StageName(hw, p.nodes[static_cast<size_t>(n)]);
    }
    out << "\n  inputs: " << JoinNames(graph, g.inputs)
        << "\n  outputs: " << JoinNames(graph, g.outputs) << "\n  "
        << (g.kind == GroupKind::kOpu ? "starts: " : "why: ") << ReasonText(graph, p, g.reason)
        << '\n';
  }
}

std::string DotQuote(const std::string& text) {
  std::string q = "\"";
  for (char c : text) {
    if (c == '\n') {
      q += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {  // shown, not sent: "\x07"
      static const char kHex[] = "0123456789abcdef";
      q += "\\\\x";
      q += kHex[(c >> 4) & 0xf];
      q += kHex[c & 0xf];
      continue;
    }
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + '"';
}

Status WriteDot(const std::string& file, const Graph& graph, const HwConfig& hw,
                const HwPartition& p) {
  static const char* kColors[] = {"#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#ffff99",
                                  "#fb9a99", "#8dd3c7", "#bebada", "#80b1d3", "#fdb462"};
  std::ostringstream dot;
  dot << "digraph " << DotQuote(graph.name) << " {\n  rankdir=TB;\n"
      << "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10];\n";
  for (const HwGroup& g : p.groups) {
    const bool opu = g.kind == GroupKind::kOpu;
    dot << "  subgraph cluster_" << g.id << " {\n    label="
        << DotQuote(std::string(GroupKindName(g.kind)) + " " + std::to_string(g.id))
        << "; style=" << (opu ? "filled" : "dashed")
        << "; fillcolor=" << DotQuote(opu ? kColors[g.id % 10] : "#eeeeee") << ";\n";
    for (NodeId n : g.ops)
      dot << "    n" << n << " [label="
          << DotQuote(NodeName(graph, n) + "\n" + std::string(OpName(graph.node(n).op)) +
                      (opu ? " @ " + StageName(hw, p.nodes[static_cast<size_t>(n)]) : ""))
          << ", fillcolor=" << DotQuote(opu ? "white" : "#cccccc") << "];\n";
    dot << "  }\n";
  }
  const std::vector<NodeId> producer = graph.Producers();
  for (TensorId t : graph.inputs)
    dot << "  t" << t
        << " [shape=ellipse, fillcolor=white, label=" << DotQuote(graph.tensor(t).name) << "];\n";
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (TensorId t : graph.nodes[n].inputs) {
      if (t == kNoTensor || graph.tensor(t).is_constant()) continue;
      const NodeId q = producer[static_cast<size_t>(t)];
      dot << "  " << (q < 0 ? "t" + std::to_string(t) : "n" + std::to_string(q)) << " -> n" << n
          << ";\n";
    }
  dot << "}\n";
  const std::string text = dot.str();
  return WriteFileBytes(file, text.data(), text.size());
}

}  // namespace

int RunPartition(const PartitionOptions& options, std::ostream& out, std::ostream& err) {
  Expected<HwConfig> hw = LoadHwConfig(options.hw);
  if (!hw.ok()) return ReportError(hw.status(), err);
  Expected<LoadedModel> model = LoadModel(options.model);
  if (!model.ok()) return ReportError(model.status(), err);
  Expected<std::unique_ptr<Sequential>> pipeline = CreatePipeline(DefaultPipelineNames());
  if (!pipeline.ok()) return ReportError(pipeline.status(), err);
  PassContext ctx;
  ctx.opt_level = options.opt_level;
  Graph& graph = model->graph;
  PassCounters unused;
  Expected<bool> changed = (*pipeline)->Run(graph, ctx, unused);
  if (!changed.ok()) return ReportError(changed.status().WithContext(options.model), err);
  Expected<HwPartition> partition = PartitionForHardware(graph, *hw);
  if (!partition.ok()) return ReportError(partition.status().WithContext(options.model), err);
  if (!options.dot.empty()) {
    Status written = WriteDot(options.dot, graph, *hw, *partition);
    if (!written.ok()) return ReportError(written, err);
  }
  if (options.json)
    PrintJson(graph, *hw, *partition, out);
  else
    PrintText(options.model, graph, *hw, *partition, out);
  return kExitOk;
}

Command AddPartitionCommand(CLI::App& app) {
  return AddCommand(
      app, "partition", "Split a model into OPU groups and CPU groups, and say why (docs/hdfg.md)",
      [](CLI::App& cli, PartitionOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("--hw", o.hw, "Hardware: a preset (opu1024, tiny) or a JSON file")
            ->capture_default_str();
        cli.add_option("--opt-level", o.opt_level,
                       "Optimization level of the default pipeline run first (0-3)")
            ->check(CLI::Range(0, 3))
            ->capture_default_str();
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
        cli.add_option("--dot", o.dot, "Write the graph, coloured by group, as Graphviz");
      },
      RunPartition);
}

}  // namespace opuc::cli
