//===- tools/opuc/graph_inputs.h - --input files and seeded inputs -*- C++ -*-===//
//
// `opuc run` and `opuc verify` take a graph's inputs the same way: from
// --input NAME=FILE.npy where given, else drawn from --seed (RandomInputs in
// opuc/tensor_io/random_input.h: each input's values depend only on the seed
// and its position), so a run is reproducible on any machine.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_GRAPH_INPUTS_H
#define OPUC_TOOLS_GRAPH_INPUTS_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/command.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::cli {

/// Adds --input (repeatable) and --seed.
void AddInputOptions(CLI::App& cli, std::vector<std::string>& inputs, uint64_t& seed);

/// The graph's inputs: from the `specs` ("NAME=FILE.npy") where given,
/// else from the seed. Errors name the spec, the file and the input.
Expected<std::vector<HostTensor>> GatherInputs(const std::vector<std::string>& specs, uint64_t seed,
                                               const Graph& graph);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_GRAPH_INPUTS_H
