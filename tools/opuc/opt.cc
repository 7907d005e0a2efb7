//===- tools/opuc/opt.cc - `opuc opt` -------------------------------------===//
#include "opuc/opt.h"

#include <cstdio>
#include <iomanip>
#include <memory>

#include "opuc/exit_codes.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/printer.h"
#include "opuc/opug/opug.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"

#include "support/format.h"

namespace opuc::cli {
namespace {

Expected<PassContext> MakeContext(const OptOptions& options) {
  PassContext ctx;
  ctx.opt_level = options.opt_level;
  ctx.disabled_passes = options.disabled;
  ctx.required_passes = options.required;
  for (const std::string& assignment : options.config)
    OPUC_RETURN_IF_ERROR(ctx.config.SetFromString(assignment));
  OPUC_RETURN_IF_ERROR(ctx.Validate());
  // Asking for a pass and forbidding it would run nothing without a word.
  for (const std::string& pass : options.passes)
    for (const std::string& disabled : options.disabled)
      if (pass == disabled)
        return InvalidArgument(Cat("--passes names ", pass, ", which --disable-pass ", disabled,
                                   " forbids; give one or the other"));
  return ctx;
}

/// One line per pass run: time, share of the total, and what it did.
void PrintTimeReport(const TimingInstrument& timing, const CounterInstrument& counters,
                     std::ostream& err) {
  double total = 0;
  for (const auto& entry : timing.entries()) total += entry.seconds;
  err << "pass                      time (ms)   share  what it did\n";
  for (size_t i = 0; i < timing.entries().size(); ++i) {
    const auto& t = timing.entries()[i];
    const auto& c = counters.entries()[i];
    const std::string did = c.counters.entries().empty() ? "-" : c.counters.ToString();
    char line[96];
    std::snprintf(line, sizeof(line), "%-24s %10.3f %6.1f%%  ", t.pass.c_str(), t.seconds * 1e3,
                  total > 0 ? 100.0 * t.seconds / total : 0.0);
    err << line << did << '\n';
  }
  char line[64];
  std::snprintf(line, sizeof(line), "%-24s %10.3f", "total", total * 1e3);
  err << line << '\n';
}

}  // namespace

int RunOpt(const OptOptions& options, std::ostream& out, std::ostream& err) {
  Expected<LoadedModel> model = LoadModel(options.model);
  if (!model.ok()) return ReportError(model.status(), err);
  Expected<PassContext> ctx = MakeContext(options);
  if (!ctx.ok()) return ReportError(ctx.status(), err);
  const std::vector<std::string> names =
      options.passes.empty() ? DefaultPipelineNames() : options.passes;
  Expected<std::unique_ptr<Sequential>> pipeline = CreatePipeline(names);
  if (!pipeline.ok()) return ReportError(pipeline.status(), err);

  auto timing = std::make_shared<TimingInstrument>();
  auto counters = std::make_shared<CounterInstrument>();
  ctx->instruments = {timing, counters};
  if (options.verify_each) ctx->instruments.push_back(std::make_shared<VerifyInstrument>());
  if (options.print_ir_after_all)
    ctx->instruments.push_back(std::make_shared<PrintIrInstrument>(out, false, true));

  Graph& graph = model->graph;
  const size_t nodes_before = graph.nodes.size();
  PassCounters unused;
  Expected<bool> changed = (*pipeline)->Run(graph, *ctx, unused);
  if (!changed.ok()) return ReportError(changed.status(), err);

  if (options.print_ir) out << PrintGraph(graph);
  if (options.time) PrintTimeReport(*timing, *counters, err);
  size_t changing = 0;
  for (const auto& entry : counters->entries()) changing += entry.changed;
  err << "opuc opt: " << counters->entries().size() << " pass runs, " << changing
      << " changed the graph; " << nodes_before << " -> " << graph.nodes.size() << " nodes\n";
  if (!options.output.empty()) {
    Status saved = SaveOpugFile(graph, options.output);
    if (!saved.ok()) return ReportError(saved, err);
  }
  return kExitOk;
}

Command AddOptCommand(CLI::App& app) {
  return AddCommand(
      app, "opt", "Run a pipeline of graph passes over a model, like LLVM's opt",
      [](CLI::App& cli, OptOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("--passes", o.passes,
                       "Comma-separated pass names (default pipeline if omitted)")
            ->delimiter(',');
        cli.add_option("--opt-level", o.opt_level, "Optimization level 0-3")
            ->check(CLI::Range(0, 3))
            ->capture_default_str();
        cli.add_option("--disable-pass", o.disabled, "Never run this pass (repeatable)");
        cli.add_option("--require-pass", o.required,
                       "Run this pass whatever its level (repeatable)");
        cli.add_option("--config", o.config, "KEY=VALUE pass option (repeatable)");
        cli.add_flag("--print-ir", o.print_ir, "Print the resulting IR on stdout");
        cli.add_flag("--print-ir-after-all", o.print_ir_after_all,
                     "Print the IR after every pass run");
        cli.add_flag("--time", o.time, "Report each pass's time and counters on stderr");
        cli.add_flag("--verify-each", o.verify_each, "Verify the IR after every pass");
        cli.add_option("-o,--output", o.output, "Write the result (.opug or .opug.json)");
      },
      RunOpt);
}

}  // namespace opuc::cli
