//===- tools/opuc/graph_inputs.cc - --input files and seeded inputs -------===//
#include "opuc/graph_inputs.h"

#include <charconv>
#include <map>
#include <optional>

#include "opuc/tensor_io/npy.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::cli {
namespace {

std::string TypeText(DType dtype, const Shape& shape) {
  return std::string(DTypeName(dtype)) + ShapeToString(shape);
}

std::string InputNames(const Graph& graph) {
  std::string names;
  for (TensorId id : graph.inputs) names += (names.empty() ? "" : ", ") + graph.tensor(id).name;
  return names;
}

}  // namespace

Expected<std::vector<HostTensor>> GatherInputs(const std::vector<std::string>& specs, uint64_t seed,
                                               const Graph& graph) {
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < graph.inputs.size(); ++i) position[graph.tensor(graph.inputs[i]).name] = i;
  std::vector<std::optional<HostTensor>> given(graph.inputs.size());
  for (const std::string& spec : specs) {
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
    Expected<HostTensor> drawn = RandomTensor(t.dtype, t.shape, InputSeed(seed, i));
    if (!drawn.ok()) return drawn.status().WithContext("input '" + t.name + "'");
    inputs.push_back(std::move(drawn).value());
  }
  return inputs;
}

void AddInputOptions(CLI::App& cli, std::vector<std::string>& inputs, uint64_t& seed) {
  cli.add_option("--input", inputs, "NAME=FILE.npy for a graph input (repeatable)")
      ->allow_extra_args(false);
  cli.add_option("--seed", seed, "Seed for inputs without --input")
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
}

}  // namespace opuc::cli
