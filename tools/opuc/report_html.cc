//===- tools/opuc/report_html.cc - `opuc report --html` -------------------===//
//
// One self-contained page (no scripts, no external files): the totals as
// five figures (first, how many times the hardware's physical limit the run
// takes), the partition as a strip of steps in program order (width
// by MACs, OPU blue, CPU orange), a bar per OPU step (estimated cycles
// light, measured dark, the hardware's physical limit a tick, on one scale), then
// the table. Every name from the
// model is escaped.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <sstream>

#include "opuc/report.h"
#include "opuc/text_format.h"

namespace opuc::cli {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

/// `text` escaped, cut to `limit` bytes with an ellipsis when longer (the
/// whole of it then in a tooltip: a <title> child of the element), never
/// inside a UTF-8 character.
std::string Clipped(const std::string& text, size_t limit) {
  if (text.size() <= limit) return Escape(text);
  size_t cut = limit - 1;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return Escape(text.substr(0, cut)) + "\u2026<title>" + Escape(text) + "</title>";
}

constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2530; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.sub { color: #5b6675; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 16px; }
.card { border: 1px solid #d8dee6; border-radius: 6px; padding: 10px 12px; flex: 1 1 0; min-width: 150px; }
.card b { display: block; font-size: 20px; } .card span { color: #5b6675; font-size: 12px; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12px; width: 100%; }
th, td { padding: 3px 6px; border-bottom: 1px solid #e6eaef; text-align: right; white-space: nowrap; }
th { background: #f3f5f8; position: sticky; top: 0; } td.l, th.l { text-align: left; }
tr.cpu td { color: #8a5a00; } svg text { font: 11px system-ui, sans-serif; fill: #1d2530; }
.legend i { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: -2px; }
)";

constexpr const char* kOpuColor = "#2f6fd6";
constexpr const char* kOpuLight = "#a9c6f2";
constexpr const char* kCpuColor = "#e39a17";

void Card(std::ostringstream& h, const std::string& value, const std::string& label) {
  h << "<div class=card><b>" << value << "</b><span>" << label << "</span></div>\n";
}

void PartitionStrip(std::ostringstream& h, const ProgramReport& r) {
  const double width = 1060, minimum = 3;
  const int64_t macs = std::max<int64_t>(1, r.opu_macs + r.cpu_macs);
  // Steps without MACs keep a sliver so that every step shows.
  double total = 0;
  for (const StepReport& s : r.steps)
    total += std::max(minimum, width * static_cast<double>(s.macs) / static_cast<double>(macs));
  const double scale = width / std::max(total, 1.0);
  h << "<svg width=\"" << width << "\" height=\"34\" role=\"img\" aria-label=\"partition\">\n";
  double x = 0;
  for (const StepReport& s : r.steps) {
    const double w =
        scale * std::max(minimum, width * static_cast<double>(s.macs) / static_cast<double>(macs));
    const bool opu = s.kind == StepKind::kOpu;
    h << "<rect x=\"" << Fixed(x, 1) << "\" y=\"4\" width=\"" << Fixed(std::max(w - 1, 1.0), 1)
      << "\" height=\"26\" fill=\"" << (opu ? kOpuColor : kCpuColor) << "\"><title>step " << s.step
      << " (" << (opu ? "OPU" : "CPU") << "): " << Escape(OpsText(s)) << ", " << s.macs
      << " MACs</title></rect>\n";
    x += w;
  }
  h << "</svg>\n<div class=\"legend sub\"><i style=\"background:" << kOpuColor
    << "\"></i>OPU step<i style=\"background:" << kCpuColor
    << "\"></i>CPU step &nbsp; (width: the step's share of the MACs; hover for its ops)</div>\n";
}

void CycleBars(std::ostringstream& h, const ReportView& v) {
  const ProgramReport& r = v.report;
  const bool measured = !v.cycles_from.empty();
  int64_t longest = 1;
  for (const StepReport& s : r.steps)
    longest = std::max({longest, s.estimated_cycles, s.measured_cycles.value_or(0)});
  const double label = 300, bar = 620, row = 20;
  const double height = row * static_cast<double>(r.steps.size()) + 8;
  h << "<svg width=\"" << label + bar + 140 << "\" height=\"" << height
    << "\" role=\"img\" aria-label=\"cycles per step\">\n";
  double y = 4;
  for (const StepReport& s : r.steps) {
    const std::string name = "step " + std::to_string(s.step) + "  " + OpsText(s);
    h << "<text x=\"0\" y=\"" << y + 13 << "\">" << Clipped(name, 48) << "</text>\n";
    if (s.kind == StepKind::kCpu) {
      h << "<rect x=\"" << label << "\" y=\"" << y + 5 << "\" width=\"8\" height=\"8\" fill=\""
        << kCpuColor << "\"/><text x=\"" << label + 14 << "\" y=\"" << y + 13
        << "\" style=\"fill:#8a5a00\">CPU: " << Clipped(s.reason, 100) << "</text>\n";
      y += row;
      continue;
    }
    const auto length = [&](int64_t cycles) {
      return std::max(1.0, bar * static_cast<double>(cycles) / static_cast<double>(longest));
    };
    h << "<rect x=\"" << label << "\" y=\"" << y + 2 << "\" width=\""
      << Fixed(length(s.estimated_cycles), 1) << "\" height=\"" << (measured ? 7 : 14)
      << "\" fill=\"" << kOpuLight << "\"><title>estimated " << s.estimated_cycles
      << " cycles</title></rect>\n";
    if (s.measured_cycles)
      h << "<rect x=\"" << label << "\" y=\"" << y + 9 << "\" width=\""
        << Fixed(length(*s.measured_cycles), 1) << "\" height=\"7\" fill=\"" << kOpuColor
        << "\"><title>" << Escape(v.cycles_from) << " " << *s.measured_cycles
        << " cycles</title></rect>\n";  // The hardware's limit: a dark tick across the bars.
    h << "<rect x=\"" << Fixed(label + length(s.physical.cycles) - 1, 1) << "\" y=\"" << y
      << "\" width=\"2\" height=\"18\" fill=\"#1d2530\"><title>the hardware's physical limit: "
      << s.physical.cycles << " cycles</title></rect>\n";
    h << "<text x=\"" << label + bar + 6 << "\" y=\"" << y + 13 << "\">"
      << s.measured_cycles.value_or(s.estimated_cycles) << " cyc, "
      << Fixed(100 * r.Efficiency(s.macs, r.Cycles(s)), 1) << "%</text>\n";
    y += row;
  }
  h << "</svg>\n<div class=\"legend sub\"><i style=\"background:" << kOpuLight
    << "\"></i>estimated cycles";
  if (measured)
    h << "<i style=\"background:" << kOpuColor << "\"></i>" << Escape(v.cycles_from) << " cycles";
  h << "<i style=\"background:#1d2530;width:3px\"></i>the hardware's physical limit"
       " &nbsp; (right: cycles and MAC efficiency)</div>\n";
}

void Table(std::ostringstream& h, const ReportView& v) {
  const ProgramReport& r = v.report;
  const bool measured = !v.cycles_from.empty();
  h << "<div class=wide><table><tr><th>step</th><th class=l>kind</th><th class=l>class</th><th "
       "class=l>ops</th><th class=l>output</th><th>MACs</th><th>est. cycles</th>";
  if (measured) h << "<th>" << Escape(v.cycles_from) << " cycles</th>";
  h << "<th>physical limit</th><th>x</th><th>mapping limit</th><th>x</th><th>MAC eff.</th><th>DRAM "
       "read</th><th>DRAM written</th><th>fm</th><th>weights</th>"
       "<th>acc</th><th class=l>tiling / reason</th></tr>\n";
  const auto share = [](int64_t used, int64_t size) {
    return Fixed(size > 0 ? 100.0 * static_cast<double>(used) / static_cast<double>(size) : 0, 0) +
           "%";
  };
  for (const StepReport& s : r.steps) {
    const bool opu = s.kind == StepKind::kOpu;
    h << "<tr" << (opu ? "" : " class=cpu") << "><td>" << s.step << "</td><td class=l>"
      << (opu ? "OPU" : "CPU") << "</td><td class=l>" << (opu ? LayerClassName(s.layer_class) : "")
      << "</td><td class=l>" << Escape(OpsText(s)) << "</td><td class=l>" << Escape(s.output)
      << "</td><td>" << s.macs << "</td>";
    if (!opu) {
      h << "<td colspan=\"" << (measured ? 12 : 11) << "\"></td><td class=l>" << Escape(s.reason)
        << "</td></tr>\n";
      continue;
    }
    h << "<td>" << s.estimated_cycles << "</td>";
    if (measured)
      h << "<td>" << (s.measured_cycles ? std::to_string(*s.measured_cycles) : "-") << "</td>";
    h << "<td>" << s.physical.cycles << "</td><td>"
      << Fixed(ProgramReport::Ratio(r.Cycles(s), s.physical.cycles), 2) << "</td><td>"
      << s.mapping.cycles() << "</td><td>"
      << Fixed(ProgramReport::Ratio(r.Cycles(s), s.mapping.cycles()), 2) << "</td>";
    h << "<td>" << Fixed(100 * r.Efficiency(s.macs, r.Cycles(s)), 1) << "%</td><td>"
      << s.usage.bytes_loaded << "</td><td>" << s.usage.bytes_stored << "</td><td>"
      << share(s.usage.fm_rows, r.buffers.fm_rows) << "</td><td>"
      << share(s.usage.weight_rows, r.buffers.weight_rows) << "</td><td>"
      << share(s.usage.acc_entries, r.buffers.acc_entries) << "</td><td class=l>"
      << Escape(s.tiling) << "</td></tr>\n";
  }
  h << "</table></div>\n";
}

}  // namespace

std::string ReportHtml(const ReportView& v) {
  const ProgramReport& r = v.report;
  const int64_t cycles = r.TotalCycles();
  const int64_t macs = r.opu_macs + r.cpu_macs;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>opuc report: "
    << Escape(v.source) << "</title>\n<style>" << kStyle << "</style></head><body>\n";
  h << "<h1>" << Escape(v.source) << " on " << Escape(v.hw) << "</h1>\n<div class=sub>"
    << Escape(v.program) << " &middot; " << r.array_macs_per_cycle << " MACs a cycle at "
    << Fixed(r.clock_mhz, 0) << " MHz &middot; cycles "
    << (v.cycles_from.empty() ? "estimated" : "measured on " + Escape(v.cycles_from))
    << "</div>\n<div class=cards>\n";
  Card(h, Fixed(ProgramReport::Ratio(cycles, r.physical.cycles), 2) + "x the physical limit",
       "the hardware's limit: " + std::to_string(r.physical.cycles) +
           " cycles (opuc's mapping: " + std::to_string(r.mapping_bound_cycles) + ", " +
           Fixed(ProgramReport::Ratio(cycles, r.mapping_bound_cycles), 2) + "x)");
  Card(h, Fixed(r.Milliseconds(cycles), 3) + " ms",
       std::to_string(cycles) + " cycles" +
           (r.measured_cycles ? " (estimate " + std::to_string(r.estimated_cycles) + ")" : ""));
  Card(h, Fixed(100 * r.Efficiency(r.opu_macs, cycles), 1) + "%",
       "MAC efficiency of the OPU steps");
  Card(h, Fixed(static_cast<double>(r.bytes_loaded + r.bytes_stored) / 1e6, 2) + " MB",
       "DRAM traffic: " + Fixed(static_cast<double>(r.bytes_loaded) / 1e6, 2) + " read, " +
           Fixed(static_cast<double>(r.bytes_stored) / 1e6, 2) + " written; the fewest " +
           Fixed(static_cast<double>(r.physical.dram_bytes) / 1e6, 2));
  Card(
      h,
      Fixed(macs > 0 ? 100.0 * static_cast<double>(r.opu_macs) / static_cast<double>(macs) : 0, 1) +
          "%",
      "of the " + std::to_string(macs) + " MACs on the OPU: " + std::to_string(r.opu_steps) +
          " OPU steps, " + std::to_string(r.cpu_steps) + " CPU steps");
  h << "</div>\n<h2>The partition</h2>\n";
  PartitionStrip(h, r);
  h << "<h2>Cycles per step</h2>\n";
  CycleBars(h, v);
  h << "<h2>Steps</h2>\n";
  Table(h, v);
  h << "</body></html>\n";
  return h.str();
}

}  // namespace opuc::cli
