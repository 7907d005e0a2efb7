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
  text << "\nhardware limit: " << r.bound_cycles << " cycles; the run takes "
       << Fixed(static_cast<double>(cycles) /
                    static_cast<double>(std::max<int64_t>(1, r.bound_cycles)),
                2)
       << "x it";
  text << "\nMAC efficiency: " << Percent(r.Efficiency(r.opu_macs, cycles)) << " of "
       << r.array_macs_per_cycle << " MACs a cycle over the OPU steps\n"
       << "DRAM traffic: " << Bytes(r.bytes_loaded) << " read, " << Bytes(r.bytes_stored)
       << " written\n"
       << "OPU: " << r.opu_steps << " steps, " << Percent(Share(r.opu_macs, macs)) << " of " << macs
       << " MACs; CPU: " << r.cpu_steps << " steps, " << Percent(Share(r.cpu_macs, macs)) << "\n";
  return text.str();
}

void PrintTable(const ReportView& v, std::ostream& out) {
  const ProgramReport& r = v.report;
  const bool measured = !v.cycles_from.empty();
  out << v.program << ": " << v.source << " for " << v.hw << " (" << r.array_macs_per_cycle
      << " MACs a cycle at " << Fixed(r.clock_mhz, 0) << " MHz)"
      << (measured ? "; measured cycles from " + v.cycles_from : std::string()) << "\n\n";
  out << std::right << std::setw(5) << "step"
      << "  " << std::left << std::setw(4) << "kind" << std::right << std::setw(10) << "MACs"
      << std::setw(10) << "est cyc";
  if (measured)
    out << std::setw(10) << (v.cycles_from + " cyc") << std::setw(8) << "est/" + v.cycles_from;
  out << std::setw(10) << "bound" << std::setw(7) << "x" << std::setw(7) << "eff" << std::setw(11)
      << "DRAM read" << std::setw(10) << "written" << std::setw(6) << "fm" << std::setw(5) << "wgt"
      << std::setw(5) << "acc"
      << "  ops\n";
  for (const StepReport& s : r.steps) {
    out << std::right << std::setw(5) << s.step << "  " << std::left << std::setw(4)
        << (s.kind == StepKind::kOpu ? "OPU" : "CPU") << std::right << std::setw(10) << s.macs;
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
    out << std::setw(10) << s.bound.cycles() << std::setw(7)
        << Fixed(static_cast<double>(r.Cycles(s)) /
                     static_cast<double>(std::max<int64_t>(1, s.bound.cycles())),
                 2)
        << std::setw(7) << Percent(r.Efficiency(s.macs, r.Cycles(s))) << std::setw(11)
        << u.bytes_loaded << std::setw(10) << u.bytes_stored << std::setw(6)
        << Fixed(100.0 * Share(u.fm_rows, r.buffers.fm_rows), 0) + "%" << std::setw(5)
        << Fixed(100.0 * Share(u.weight_rows, r.buffers.weight_rows), 0) + "%" << std::setw(5)
        << Fixed(100.0 * Share(u.acc_entries, r.buffers.acc_entries), 0) + "%"
        << "  " << OpsText(s) << " -> " << s.output << '\n';
  }
  out << '\n' << SummaryText(v);
}

const char* BoundKind(InnerProductKind kind) {
  switch (kind) {
    case InnerProductKind::kDense: return "dense";
    case InnerProductKind::kDepthwise: return "depthwise";
    case InnerProductKind::kNone: break;
  }
  return "none";
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
      j["bound"] = {{"inner_product", BoundKind(s.bound.kind)},
                    {"array_cycles", s.bound.array_cycles},
                    {"dram_bytes", s.bound.dram_bytes},
                    {"dram_cycles", s.bound.dram_cycles},
                    {"cycles", s.bound.cycles()}};
    }
    steps.push_back(std::move(j));
  }
  const int64_t cycles = r.TotalCycles();
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
            {"bound_cycles", r.bound_cycles},
            {"milliseconds", r.Milliseconds(cycles)},
            {"mac_efficiency", r.Efficiency(r.opu_macs, cycles)},
            {"dram_bytes_read", r.bytes_loaded},
            {"dram_bytes_written", r.bytes_stored}}}};
}

/// A CSV field: quoted when it holds a comma, quote or line break.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string ToCsv(const ReportView& v) {
  const ProgramReport& r = v.report;
  std::ostringstream csv;
  csv << "step,kind,group,ops,output,macs,estimated_cycles,measured_cycles,bound_cycles,"
         "mac_efficiency,"
         "dram_bytes_read,dram_bytes_written,fm_rows,weight_rows,param_rows,acc_entries,"
         "tiling_or_reason\n";
  for (const StepReport& s : r.steps) {
    const bool opu = s.kind == StepKind::kOpu;
    csv << s.step << ',' << (opu ? "opu" : "cpu") << ',' << s.group << ',' << CsvField(OpsText(s))
        << ',' << CsvField(s.output) << ',' << s.macs << ',';
    if (opu)
      csv << s.estimated_cycles << ','
          << (s.measured_cycles ? std::to_string(*s.measured_cycles) : std::string()) << ','
          << s.bound.cycles() << ',' << Fixed(r.Efficiency(s.macs, r.Cycles(s)), 6) << ','
          << s.usage.bytes_loaded << ',' << s.usage.bytes_stored << ',' << s.usage.fm_rows << ','
          << s.usage.weight_rows << ',' << s.usage.param_rows << ',' << s.usage.acc_entries << ','
          << CsvField(s.tiling);
    else
      csv << ",,,,,,,,,," << CsvField(s.reason);
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
    out << ToJson(view).dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
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
