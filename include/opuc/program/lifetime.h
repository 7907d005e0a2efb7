//===- opuc/program/lifetime.h - When a region must hold its value -*- C++ -*-===//
#ifndef OPUC_PROGRAM_LIFETIME_H
#define OPUC_PROGRAM_LIFETIME_H

#include <cstdint>
#include <vector>

#include "opuc/ir/graph.h"

namespace opuc {

/// The steps between which a tensor's DRAM region must hold its value: from
/// the step that writes it (0 for a graph input) to the last step that reads
/// it (the last step for a graph output). Regions whose lifetimes do not
/// meet may share bytes.
struct Lifetime {
  int64_t first = 0, last = -1;
  bool Meets(const Lifetime& o) const { return first <= o.last && o.first <= last; }
};

/// Per tensor of a graph with `num_tensors` tensors, for steps that read
/// `inputs[s]` and write `outputs[s]`; tensors no step touches get {0, -1}.
std::vector<Lifetime> Lifetimes(size_t num_tensors,
                                const std::vector<std::vector<TensorId>>& inputs,
                                const std::vector<std::vector<TensorId>>& outputs,
                                const std::vector<TensorId>& graph_outputs);

}  // namespace opuc

#endif  // OPUC_PROGRAM_LIFETIME_H
