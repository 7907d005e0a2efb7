//===- tools/opuc/run.cc - `opuc run` -------------------------------------===//
//
// opuc run MODEL --device ref [--input NAME=FILE.npy]... [--output-dir DIR]
//                [--seed N] [--json]
//
// Inputs without a file are drawn from the seed (RandomInputs in
// opuc/tensor_io/random_input.h: each input's values depend only on the seed
// and its position), so a run is reproducible on any machine.
//
//===----------------------------------------------------------------------===//
#include "opuc/run.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

#include "opuc/cpu/reference.h"
#include "opuc/exit_codes.h"
#include "opuc/frontend/load_model.h"
#include "opuc/tensor_io/half.h"
#include "opuc/tensor_io/npy.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string TypeText(DType dtype, const Shape& shape) {
  return std::string(DTypeName(dtype)) + ShapeToString(shape);
}

std::string InputNames(const Graph& graph) {
  std::string names;
  for (TensorId id : graph.inputs) names += (names.empty() ? "" : ", ") + graph.tensor(id).name;
  return names;
}

/// The graph inputs: from the --input files where given, else from the seed.
Expected<std::vector<HostTensor>> GatherInputs(const RunOptions& options, const Graph& graph) {
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < graph.inputs.size(); ++i) position[graph.tensor(graph.inputs[i]).name] = i;
  std::vector<std::optional<HostTensor>> given(graph.inputs.size());
  for (const std::string& spec : options.inputs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      return InvalidArgument("--input '" + spec + "': expected NAME=FILE.npy");
    const std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    const auto it = position.find(name);
    if (it == position.end())
      return InvalidArgument("--input '" + spec + "': graph '" + graph.name + "' has no input '" +
                             name + "' (inputs: " + InputNames(graph) + ")");
    if (given[it->second])
      return InvalidArgument("--input '" + spec + "': input '" + name + "' is given twice");
    OPUC_ASSIGN_OR_RETURN(HostTensor tensor, ReadNpy(file));
    const Tensor& declared = graph.tensor(graph.inputs[it->second]);
    if (!(tensor.type() == declared.type()))
      return InvalidArgument(file + ": input '" + name + "' expects " +
                             TypeText(declared.dtype, declared.shape) + "; the file holds " +
                             DescribeType(tensor));
    given[it->second] = std::move(tensor);
  }
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < given.size(); ++i) {
    if (given[i]) {
      inputs.push_back(std::move(*given[i]));
      continue;
    }
    const Tensor& t = graph.tensor(graph.inputs[i]);
    Expected<HostTensor> drawn = RandomTensor(t.dtype, t.shape, InputSeed(options.seed, i));
    if (!drawn.ok()) return drawn.status().WithContext("input '" + t.name + "'");
    inputs.push_back(std::move(drawn).value());
  }
  return inputs;
}

/// A file name for each output: its name with characters other than
/// [A-Za-z0-9._-] replaced by '_', made unique, plus ".npy".
std::vector<std::string> OutputFileNames(const Graph& graph) {
  std::vector<std::string> names;
  std::set<std::string> used;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    std::string name = graph.tensor(graph.outputs[i]).name;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    if (name.find_first_not_of('.') == std::string::npos) name = "output" + std::to_string(i);
    if (used.count(name + ".npy")) name += "_" + std::to_string(i);
    used.insert(name + ".npy");
    names.push_back(name + ".npy");
  }
  return names;
}

struct Stats {
  std::optional<double> min, max, mean;  ///< Empty for a tensor without elements.
};

/// Min and max ignore NaN; the mean (accumulated in double) does not.
Stats Summarize(const HostTensor& t) {
  Stats stats;
  if (t.elements() == 0) return stats;
  double sum = 0;
  for (int64_t i = 0; i < t.elements(); ++i) {
    double v = 0;
    switch (t.dtype()) {
      case DType::kF32: v = t.data<float>()[i]; break;
      case DType::kF16: v = HalfToFloat(t.data<uint16_t>()[i]); break;
      case DType::kI8: v = t.data<int8_t>()[i]; break;
      case DType::kI16: v = t.data<int16_t>()[i]; break;
      case DType::kI32: v = t.data<int32_t>()[i]; break;
      case DType::kU8: v = t.data<uint8_t>()[i]; break;
    }
    sum += v;
    if (std::isnan(v)) continue;
    if (!stats.min || v < *stats.min) stats.min = v;
    if (!stats.max || v > *stats.max) stats.max = v;
  }
  stats.mean = sum / static_cast<double>(t.elements());
  return stats;
}

Json JsonNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string TextNumber(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream text;
  text << std::setprecision(6) << *v;
  return text.str();
}

}  // namespace

int RunRun(const RunOptions& options, std::ostream& out, std::ostream& err) {
  if (options.device != "ref")
    return ReportError(
        InvalidArgument("device '" + options.device + "' is not available yet (ref)"), err);
  Expected<LoadedModel> model = LoadModel(options.model);
  if (!model.ok()) return ReportError(model.status(), err);
  const Graph& graph = model->graph;
  Expected<std::vector<HostTensor>> inputs = GatherInputs(options, graph);
  if (!inputs.ok()) return ReportError(inputs.status(), err);
  Expected<std::vector<HostTensor>> outputs = RunReference(graph, *inputs);
  if (!outputs.ok()) return ReportError(outputs.status().WithContext(options.model), err);

  std::error_code ec;
  std::filesystem::create_directories(options.output_dir, ec);
  if (ec)
    return ReportError(
        IoError(options.output_dir + ": cannot create the output directory: " + ec.message()), err);
  const std::vector<std::string> files = OutputFileNames(graph);
  Json list = Json::array();
  for (size_t i = 0; i < outputs->size(); ++i) {
    const HostTensor& value = (*outputs)[i];
    const std::string name = graph.tensor(graph.outputs[i]).name;
    const std::string path = (std::filesystem::path(options.output_dir) / files[i]).string();
    if (Status s = WriteNpy(path, value); !s.ok()) return ReportError(s, err);
    const Stats stats = Summarize(value);
    if (options.json) {
      list.push_back({{"name", name},
                      {"shape", value.shape()},
                      {"dtype", DTypeName(value.dtype())},
                      {"file", path},
                      {"min", JsonNumber(stats.min)},
                      {"max", JsonNumber(stats.max)},
                      {"mean", JsonNumber(stats.mean)}});
      continue;
    }
    out << std::left << std::setw(24) << name << ' ' << std::setw(18) << DescribeType(value)
        << " min " << TextNumber(stats.min) << "  max " << TextNumber(stats.max) << "  mean "
        << TextNumber(stats.mean) << "  -> " << path << '\n';
  }
  if (options.json) out << Json{{"outputs", list}}.dump(2) << '\n';
  return kExitOk;
}

Command AddRunCommand(CLI::App& app) {
  return AddCommand(
      app, "run", "Run a model on a device and write each output as a NumPy .npy file",
      [](CLI::App& cli, RunOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("--device", o.device, "Where to run: ref (the float reference)")->required();
        cli.add_option("--input", o.inputs, "NAME=FILE.npy for a graph input (repeatable)")
            ->allow_extra_args(false);
        cli.add_option("--output-dir", o.output_dir, "Where to write <output>.npy files")
            ->capture_default_str();
        cli.add_option("--seed", o.seed, "Seed for inputs without --input")
            ->capture_default_str()
            ->check(CLI::Validator(
                [](const std::string& text) {
                  // CLI11 would clamp 10^30 and wrap -1; a seed is taken as written or refused.
                  uint64_t value = 0;
                  const char* end = text.data() + text.size();
                  const auto [stop, error] = std::from_chars(text.data(), end, value);
                  return error == std::errc() && stop == end
                             ? std::string()
                             : "expected an integer in [0, 18446744073709551615]";
                },
                "N"));
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
      },
      RunRun);
}

}  // namespace opuc::cli
