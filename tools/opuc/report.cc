//===- tools/opuc/report.cc - `opuc report` -------------------------------===//
//
// opuc report PROG.opup [--profile FILE] [--summary] [--json] [--csv FILE]
//             [--html FILE]
//
// Per step: kind, the ops it covers, MACs, estimated cycles, the cycles a
// run measured (from --profile, written by `opuc run --device rtl
// --profile FILE`), MAC efficiency, DRAM bytes read and written, and how
// full each on-chip buffer gets; then the totals. The figures come from
// opuc/program/program_report.h.
//
//===----------------------------------------------------------------------===//
#include "opuc/report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opuc/exit_codes.h"
#include "opuc/file_io/file_io.h"
#include "opuc/output.h"
#include "opuc/profile.h"
#include "opuc/text_format.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string Percent(double fraction) { return Fixed(100.0 * fraction, 1) + "%"; }

double Share(int64_t part, int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

/// "12.34 MB" style: bytes in decimal units.
std::string Bytes(int64_t bytes) {
  if (bytes < 10'000) return std::to_string(bytes) + " B";
  if (bytes < 1'000'000) return Fixed(static_cast<double>(bytes) / 1e3, 1) + " kB";
  return Fixed(static_cast<double>(bytes) / 1e6, 2) + " MB";
}

/// "13.57x": `cycles` against `bound`.
std::string Times(int64_t cycles, int64_t bound) {
  return Fixed(ProgramReport::Ratio(cycles, bound), 2) + "x";
}

constexpr LayerClass kClasses[] = {LayerClass::kFirst, LayerClass::kDense, LayerClass::kDepthwise,
                                   LayerClass::kOther};

const char* ClassLabel(LayerClass layer_class) {
  switch (layer_class) {
    case LayerClass::kFirst: return "first layer";
    case LayerClass::kDense: return "dense";
    case LayerClass::kDepthwise: return "depthwise";
    case LayerClass::kOther: break;
  }
  return "other";
}

/// The OPU steps by kind against both bounds: where the cycles go and how
/// far each kind is from what the hardware could do.
void PrintClasses(const ProgramReport& r, std::ostream& text) {
  const int64_t cycles = r.TotalCycles();
  text << std::left << std::setw(14) << "  kind" << std::right << std::setw(6) << "groups"
       << std::setw(11) << "cycles" << std::setw(7) << "share" << std::setw(10) << "physical"
       << std::setw(9) << "x" << std::setw(9) << "MAC eff" << std::setw(10) << "mapping"
       << std::setw(7) << "x" << '\n';
  for (LayerClass c : kClasses) {
    const ClassTotals t = r.Totals(c);
    if (t.steps == 0) continue;
    text << "  " << std::left << std::setw(12) << ClassLabel(c) << std::right << std::setw(6)
         << t.steps << std::setw(11) << t.cycles << std::setw(7) << Percent(Share(t.cycles, cycles))
         << std::setw(10) << t.physical.cycles << std::setw(9) << Times(t.cycles, t.physical.cycles)
         << std::setw(9) << Percent(r.Efficiency(t.macs, t.cycles)) << std::setw(10)
         << t.mapping_bound_cycles << std::setw(7) << Times(t.cycles, t.mapping_bound_cycles)
         << '\n';
  }
}

std::string SummaryText(const ReportView& v) {
  const ProgramReport& r = v.report;
  const int64_t cycles = r.TotalCycles();
  const int64_t macs = r.opu_macs + r.cpu_macs;
  std::ostringstream text;
  text << "cycles: " << cycles << " ("
       << (r.measured_cycles ? "measured on " + v.cycles_from : std::string("estimated")) << "), "
       << Fixed(r.Milliseconds(cycles), 3) << " ms at " << Fixed(r.clock_mhz, 0) << " MHz";
  if (r.measured_cycles)
    text << "; estimate " << r.estimated_cycles << " ("
         << Fixed(static_cast<double>(r.estimated_cycles) / static_cast<double>(cycles), 3) << "x)";
  text << "\nphysical limit: " << r.physical.cycles << " cycles; the run takes "
       << Times(cycles, r.physical.cycles) << " it (per layer the more of MACs / "
       << r.array_macs_per_cycle << ", " << r.physical.compute_cycles
       << " in all, and its fewest DRAM bytes, " << Bytes(r.physical.dram_bytes) << ")"
       << "\nMAC efficiency: " << Percent(r.Efficiency(r.opu_macs, cycles)) << " of "
       << r.array_macs_per_cycle << " MACs a cycle over the OPU steps\n";
  PrintClasses(r, text);
  text << "opuc's mapping: its limit " << r.mapping_bound_cycles << " cycles; the run takes "
       << Times(cycles, r.mapping_bound_cycles)
       << " it (channels in blocks of the lanes, depthwise as the HwConfig's array maps it: a tap "
          "or a window a Gemm, two output pixels a cycle in pairs; the post side and the store "
          "an entry a cycle, two in a dual pass or chain, a twin read or a DRAM pair; bytes as "
          "laid out, stores in whole beats)\n"
       << "DRAM traffic: " << Bytes(r.bytes_loaded) << " read, " << Bytes(r.bytes_stored)
       << " written; " << Times(r.bytes_loaded + r.bytes_stored, r.physical.dram_bytes)
       << " the fewest bytes\n"
       << "OPU: " << r.opu_steps << " steps, " << Percent(Share(r.opu_macs, macs)) << " of " << macs
       << " MACs; CPU: " << r.cpu_steps << " steps, " << Percent(Share(r.cpu_macs, macs)) << "\n";
  return text.str();
}

/// A step's class in a narrow column.
const char* ShortClass(LayerClass layer_class) {
  switch (layer_class) {
    case LayerClass::kFirst: return "first";
    case LayerClass::kDense: return "dense";
    case LayerClass::kDepthwise: return "dw";
    case LayerClass::kOther: break;
  }
  return "other";
}

void PrintTable(const ReportView& v, std::ostream& out) {
  const ProgramReport& r = v.report;
  const bool measured = !v.cycles_from.empty();
  out << v.program << ": " << v.source << " for " << v.hw << " (" << r.array_macs_per_cycle
      << " MACs a cycle at " << Fixed(r.clock_mhz, 0) << " MHz)"
      << (measured ? "; measured cycles from " + v.cycles_from : std::string()) << "\n"
      << "physical: the hardware's limit (docs/codegen.md), x: cycles over it; mapping: the limit "
         "of opuc's mapping\n\n";
  out << std::right << std::setw(5) << "step"
      << "  " << std::left << std::setw(5) << "kind" << std::setw(6) << "class" << std::right
      << std::setw(10) << "MACs" << std::setw(10) << "est cyc";
  if (measured)
    out << std::setw(10) << (v.cycles_from + " cyc") << std::setw(8) << "est/" + v.cycles_from;
  out << std::setw(10) << "physical" << std::setw(8) << "x" << std::setw(7) << "eff"
      << std::setw(10) << "mapping" << std::setw(6) << "x" << std::setw(11) << "DRAM read"
      << std::setw(10) << "written" << std::setw(10) << "fewest" << std::setw(6) << "fm"
      << std::setw(5) << "wgt" << std::setw(5) << "acc"
      << "  ops\n";
  for (const StepReport& s : r.steps) {
    out << std::right << std::setw(5) << s.step << "  " << std::left << std::setw(5)
        << (s.kind == StepKind::kOpu ? "OPU" : "CPU") << std::setw(6)
        << (s.kind == StepKind::kOpu ? ShortClass(s.layer_class) : "") << std::right
        << std::setw(10) << s.macs;
    if (s.kind == StepKind::kCpu) {
      out << "  " << s.reason << '\n';  // the reason names each op
      continue;
    }
    out << std::setw(10) << s.estimated_cycles;
    if (measured) {
      if (s.measured_cycles)
        out << std::setw(10) << *s.measured_cycles << std::setw(8)
            << Fixed(static_cast<double>(s.estimated_cycles) /
                         static_cast<double>(*s.measured_cycles),
                     3);
      else
        out << std::setw(10) << "-" << std::setw(8) << "-";
    }
    const StepUsage& u = s.usage;
    out << std::setw(10) << s.physical.cycles << std::setw(8)
        << Fixed(ProgramReport::Ratio(r.Cycles(s), s.physical.cycles), 2) << std::setw(7)
        << Percent(r.Efficiency(s.macs, r.Cycles(s))) << std::setw(10) << s.mapping.cycles()
        << std::setw(6) << Fixed(ProgramReport::Ratio(r.Cycles(s), s.mapping.cycles()), 2)
        << std::setw(11) << u.bytes_loaded << std::setw(10) << u.bytes_stored << std::setw(10)
        << s.physical.dram_bytes << std::setw(6)
        << Fixed(100.0 * Share(u.fm_rows, r.buffers.fm_rows), 0) + "%" << std::setw(5)
        << Fixed(100.0 * Share(u.weight_rows, r.buffers.weight_rows), 0) + "%" << std::setw(5)
        << Fixed(100.0 * Share(u.acc_entries, r.buffers.acc_entries), 0) + "%"
        << "  " << OpsText(s) << " -> " << s.output << '\n';
  }
  out << '\n' << SummaryText(v);
}

Json PhysicalJson(const PhysicalBound& b) {
  return {{"cycles", b.cycles},
          {"compute_cycles", b.compute_cycles},
          {"dram_bytes", b.dram_bytes},
          {"dram_cycles", b.dram_cycles}};
}

Json ToJson(const ReportView& v) {
  const ProgramReport& r = v.report;
  Json steps = Json::array();
  for (const StepReport& s : r.steps) {
    Json j{{"step", s.step},     {"kind", s.kind == StepKind::kOpu ? "opu" : "cpu"},
           {"group", s.group},   {"ops", s.ops},
           {"output", s.output}, {"macs", s.macs}};
    if (s.kind == StepKind::kCpu) {
      j["reason"] = s.reason;
    } else {
      j["estimated_cycles"] = s.estimated_cycles;
      j["measured_cycles"] = s.measured_cycles ? Json(*s.measured_cycles) : Json(nullptr);
      j["mac_efficiency"] = r.Efficiency(s.macs, r.Cycles(s));
      j["dram_bytes_read"] = s.usage.bytes_loaded;
      j["dram_bytes_written"] = s.usage.bytes_stored;
      j["buffers_used"] = {{"fm_rows", s.usage.fm_rows},
                           {"weight_rows", s.usage.weight_rows},
                           {"param_rows", s.usage.param_rows},
                           {"acc_entries", s.usage.acc_entries}};
      j["tiling"] = s.tiling;
      j["class"] = LayerClassName(s.layer_class);
      j["physical_bound"] = PhysicalJson(s.physical);
      j["mapping_bound"] = {{"array_cycles", s.mapping.array_cycles},
                            {"output_cycles", s.mapping.output_cycles},
                            {"dram_bytes", s.mapping.dram_bytes},
                            {"dram_cycles", s.mapping.dram_cycles},
                            {"cycles", s.mapping.cycles()}};
      // A run's (or chained pair's) groups: each one's share of the step.
      Json groups = Json::array();
      for (const StepPart& p : s.parts)
        groups.push_back(
            {{"group", p.group},
             {"macs", p.macs},
             {"estimated_cycles", p.estimated_cycles},
             {"measured_cycles", p.measured_cycles ? Json(*p.measured_cycles) : Json(nullptr)},
             {"class", LayerClassName(p.layer_class)},
             {"physical_bound", PhysicalJson(p.physical)},
             {"mapping_bound_cycles", p.mapping.cycles()},
             {"tiling", p.tiling}});
      if (!groups.empty()) j["groups"] = std::move(groups);
    }
    steps.push_back(std::move(j));
  }
  const int64_t cycles = r.TotalCycles();
  Json classes = Json::object();
  for (LayerClass c : kClasses) {
    const ClassTotals t = r.Totals(c);
    classes[LayerClassName(c)] = {{"steps", t.steps},
                                  {"macs", t.macs},
                                  {"cycles", t.cycles},
                                  {"physical_bound", PhysicalJson(t.physical)},
                                  {"mapping_bound_cycles", t.mapping_bound_cycles},
                                  {"mac_efficiency", r.Efficiency(t.macs, t.cycles)}};
  }
  return {{"program", v.program},
          {"source", v.source},
          {"hw", v.hw},
          {"array_macs_per_cycle", r.array_macs_per_cycle},
          {"clock_mhz", r.clock_mhz},
          {"cycles_from", v.cycles_from.empty() ? Json(nullptr) : Json(v.cycles_from)},
          {"buffers",
           {{"fm_rows", r.buffers.fm_rows},
            {"weight_rows", r.buffers.weight_rows},
            {"param_rows", r.buffers.param_rows},
            {"acc_entries", r.buffers.acc_entries}}},
          {"steps", steps},
          {"totals",
           {{"opu_steps", r.opu_steps},
            {"cpu_steps", r.cpu_steps},
            {"opu_macs", r.opu_macs},
            {"cpu_macs", r.cpu_macs},
            {"estimated_cycles", r.estimated_cycles},
            {"measured_cycles", r.measured_cycles ? Json(*r.measured_cycles) : Json(nullptr)},
            {"physical_bound_cycles", r.physical.cycles},
            {"physical_bound", PhysicalJson(r.physical)},
            {"mapping_bound_cycles", r.mapping_bound_cycles},
            {"milliseconds", r.Milliseconds(cycles)},
            {"mac_efficiency", r.Efficiency(r.opu_macs, cycles)},
            {"dram_bytes_read", r.bytes_loaded},
            {"dram_bytes_written", r.bytes_stored},
            {"by_class", classes}}}};
}

std::string ToCsv(const ReportView& v) {
  const ProgramReport& r = v.report;
  std::ostringstream csv;
  csv << "step,kind,class,group,ops,output,macs,estimated_cycles,measured_cycles,"
         "physical_bound_cycles,physical_compute_cycles,physical_dram_bytes,"
         "physical_dram_cycles,mapping_bound_cycles,mac_efficiency,"
         "dram_bytes_read,dram_bytes_written,fm_rows,weight_rows,param_rows,acc_entries,"
         "tiling_or_reason\n";
  for (const StepReport& s : r.steps) {
    const bool opu = s.kind == StepKind::kOpu;
    csv << s.step << ',' << (opu ? "opu" : "cpu") << ','
        << (opu ? LayerClassName(s.layer_class) : "") << ',' << s.group << ','
        << CsvCell(OpsText(s)) << ',' << CsvCell(s.output) << ',' << s.macs << ',';
    if (opu)
      csv << s.estimated_cycles << ','
          << (s.measured_cycles ? std::to_string(*s.measured_cycles) : std::string()) << ','
          << s.physical.cycles << ',' << s.physical.compute_cycles << ',' << s.physical.dram_bytes
          << ',' << s.physical.dram_cycles << ',' << s.mapping.cycles() << ','
          << Fixed(r.Efficiency(s.macs, r.Cycles(s)), 6) << ',' << s.usage.bytes_loaded << ','
          << s.usage.bytes_stored << ',' << s.usage.fm_rows << ',' << s.usage.weight_rows << ','
          << s.usage.param_rows << ',' << s.usage.acc_entries << ',' << CsvCell(s.tiling);
    else
      csv << ",,,,,,,,,,,,,," << CsvCell(s.reason);
    csv << '\n';
  }
  return csv.str();
}

Status WriteText(const std::string& path, const std::string& text) {
  return WriteFileBytes(path, text.data(), text.size());
}

}  // namespace

std::string OpsText(const StepReport& step) {
  std::string ops;
  for (const std::string& op : step.ops) ops += (ops.empty() ? "" : "+") + op;
  return ops;
}

int RunReport(const ReportOptions& options, std::ostream& out, std::ostream& err) {
  Expected<Program> program = LoadProgramFile(options.program);
  if (!program.ok()) return ReportError(program.status(), err);
  ReportView view;
  view.program = options.program;
  view.hw = program->hw().name;
  view.source = program->build().source_name;
  std::optional<Profile> profile;
  if (!options.profile.empty()) {
    Expected<Profile> read = ReadProfile(options.profile, *program);
    if (!read.ok()) return ReportError(read.status(), err);
    profile = std::move(read).value();
    view.cycles_from = profile->device;
  }
  Expected<ProgramReport> report = ReportProgram(*program, profile ? &profile->counters : nullptr);
  if (!report.ok()) return ReportError(report.status().WithContext(options.program), err);
  view.report = std::move(report).value();
  if (!view.report.measured_cycles) view.cycles_from.clear();  // a device without a clock

  if (!options.csv.empty())
    if (Status s = WriteText(options.csv, ToCsv(view)); !s.ok()) return ReportError(s, err);
  if (!options.html.empty())
    if (Status s = WriteText(options.html, ReportHtml(view)); !s.ok()) return ReportError(s, err);
  if (options.json)
    out << JsonText(ToJson(view)) << '\n';
  else if (options.summary)
    out << SummaryText(view);
  else
    PrintTable(view, out);
  return kExitOk;
}

Command AddReportCommand(CLI::App& app) {
  return AddCommand(
      app, "report",
      "What each step of a program does: MACs, cycles (estimated and measured), MAC efficiency, "
      "DRAM traffic, buffer use",
      [](CLI::App& cli, ReportOptions& o) {
        cli.add_option("PROG", o.program, "The compiled program (.opup)")->required();
        cli.add_option("--profile", o.profile,
                       "Measured cycles and counts from a run (opuc run PROG --device rtl "
                       "--profile FILE)");
        cli.add_flag("--summary", o.summary, "Print the totals only");
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
        cli.add_option("--csv", o.csv, "Also write one row per step to FILE (CSV)");
        cli.add_option("--html", o.html,
                       "Also write a self-contained HTML page to FILE: a bar per step, estimated "
                       "against measured, and the partition");
      },
      RunReport);
}

}  // namespace opuc::cli
