//===- tools/opuc/report.h - `opuc report` -----------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_REPORT_H
#define OPUC_TOOLS_REPORT_H

#include <ostream>
#include <string>

#include "opuc/command.h"
#include "opuc/program/program_report.h"

namespace opuc::cli {

struct ReportOptions {
  std::string program;
  std::string profile;  ///< --profile: a run's counters (opuc run --profile).
  bool json = false;
  bool summary = false;  ///< Totals only.
  std::string csv;       ///< --csv FILE: one row per step.
  std::string html;      ///< --html FILE: a self-contained page.
};

/// What `opuc report` shows about a program, for the text, CSV and HTML
/// writers.
struct ReportView {
  std::string program;      ///< The program file.
  std::string cycles_from;  ///< The profile's device, or empty (estimates only).
  std::string hw;
  std::string source;  ///< The model the program was built from.
  ProgramReport report;
};

/// The step's ops joined by '+' ("conv2d+add+relu").
std::string OpsText(const StepReport& step);

/// The whole page (report_html.cc).
std::string ReportHtml(const ReportView& view);

int RunReport(const ReportOptions& options, std::ostream& out, std::ostream& err);

Command AddReportCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_REPORT_H
