//===- tools/opuc/verify.cc - `opuc verify` -------------------------------===//
//
// opuc verify PROG.opup [--devices ref,fsim] [--input NAME=FILE.npy]...
//             [--seed N] [--json]
//
// Exit 0 when every device computed every step's outputs bit for bit as
// the first device did; 1 with the first divergence (step, group, tensor,
// element, both values) otherwise; 2 for a bad program or option.
//
//===----------------------------------------------------------------------===//
#include "opuc/verify.h"

#include <nlohmann/json.hpp>

#include "opuc/exit_codes.h"
#include "opuc/graph_inputs.h"
#include "opuc/output.h"
#include "opuc/runtime/run_program.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string IndexText(const std::vector<int64_t>& index) {
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

}  // namespace

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  Expected<Program> program = LoadProgramFile(options.program);
  if (!program.ok()) return ReportError(program.status(), err);
  std::vector<std::unique_ptr<Device>> devices;
  for (const std::string& name : options.devices) {
    Expected<std::unique_ptr<Device>> device = MakeDevice(name);
    if (!device.ok()) return ReportError(device.status().WithContext("--devices"), err);
    devices.push_back(std::move(device).value());
  }
  Expected<std::vector<HostTensor>> inputs =
      GatherInputs(options.inputs, options.seed, program->graph());
  if (!inputs.ok()) return ReportError(inputs.status(), err);
  Expected<VerifyResult> result = VerifyProgram(*program, devices, *inputs);
  if (!result.ok()) return ReportError(result.status().WithContext(options.program), err);
  const Graph& graph = program->graph();
  std::string names;
  for (const std::string& d : options.devices) names += (names.empty() ? "" : ",") + d;
  const std::optional<Divergence>& d = result->divergence;
  if (options.json) {
    Json json = {{"program", options.program},
                 {"devices", options.devices},
                 {"agree", !d.has_value()},
                 {"steps_run", result->steps_run},
                 {"tensors_compared", result->tensors_compared}};
    if (d)
      json["divergence"] = {
          {"step", d->step},
          {"group", d->group},
          {"tensor", graph.tensor(d->tensor).name},
          {"element", d->element},
          {"index", d->index},
          {"values", {{d->devices[0], d->values[0]}, {d->devices[1], d->values[1]}}},
          {"differing_elements", d->differing}};
    out << JsonText(json) << '\n';
  } else if (!d) {
    out << options.program << ": " << names << " agree bit for bit on all " << result->steps_run
        << " steps (" << result->tensors_compared << " tensors compared)\n";
  } else {
    out << options.program << ": " << d->devices[1] << " diverges from " << d->devices[0]
        << " at step " << d->step << " (group " << d->group << "): tensor '"
        << graph.tensor(d->tensor).name << "' element " << d->element << ' ' << IndexText(d->index)
        << ": " << d->devices[0] << ' ' << d->values[0] << ", " << d->devices[1] << ' '
        << d->values[1] << " (" << d->differing << " of its "
        << NumElements(graph.tensor(d->tensor).shape).value_or(0) << " elements differ)\n";
  }
  return d ? kExitCheckFailed : kExitOk;
}

Command AddVerifyCommand(CLI::App& app) {
  return AddCommand(
      app, "verify",
      "Run a program on several devices in lockstep; exit 0 iff all agree bit for bit",
      [](CLI::App& cli, VerifyOptions& o) {
        cli.add_option("PROG", o.program, "Program file (.opup)")->required();
        cli.add_option("--devices", o.devices, "Devices to compare, the first as the reference")
            ->delimiter(',')
            ->capture_default_str();
        AddInputOptions(cli, o.inputs, o.seed);
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
      },
      RunVerify);
}

}  // namespace opuc::cli
