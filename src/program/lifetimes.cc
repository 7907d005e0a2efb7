//===- src/program/lifetimes.cc - When a region must hold its value ------===//
#include "opuc/program/lifetime.h"

#include <algorithm>

namespace opuc {

std::vector<Lifetime> Lifetimes(size_t num_tensors,
                                const std::vector<std::vector<TensorId>>& inputs,
                                const std::vector<std::vector<TensorId>>& outputs,
                                const std::vector<TensorId>& graph_outputs) {
  std::vector<Lifetime> life(num_tensors);
  std::vector<bool> written(num_tensors, false);
  const auto steps = static_cast<int64_t>(inputs.size());
  for (int64_t s = 0; s < steps; ++s) {
    for (TensorId t : outputs[static_cast<size_t>(s)]) {
      Lifetime& l = life[static_cast<size_t>(t)];
      if (!written[static_cast<size_t>(t)]) l.first = s;
      written[static_cast<size_t>(t)] = true;
      l.last = std::max(l.last, s);
    }
    for (TensorId t : inputs[static_cast<size_t>(s)]) {
      Lifetime& l = life[static_cast<size_t>(t)];
      l.last = std::max(l.last, s);  // an unwritten input (a graph input) starts at 0
    }
  }
  for (TensorId t : graph_outputs)
    if (static_cast<size_t>(t) < num_tensors) life[static_cast<size_t>(t)].last = steps - 1;
  return life;
}

}  // namespace opuc
