//===- src/quant/refine_lengths.cc - Lengths chosen against the outputs ---===//
#include "refine_lengths.h"

#include <algorithm>
#include <map>
#include <optional>

#include "activation_bits.h"
#include "calibrate.h"
#include "opuc/cpu/executor.h"
#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::quant {
namespace {

using Samples = std::vector<std::vector<HostTensor>>;

void RoundInPlace(HostTensor& value, int bits) {
  float* x = value.data<float>();
  for (int64_t i = 0; i < value.elements(); ++i)
    x[i] = static_cast<float>(std::ldexp(QuantizeToInt8(x[i], bits), -bits));
}

/// The float graph with every activation rounded, kept per sample so that a
/// trial recomputes only what a change reaches.
class RoundedRuns {
 public:
  RoundedRuns(const Graph& reference, const Graph& graph, const Samples& samples)
      : reference_graph_(reference), graph_(graph), samples_(samples) {}

  Status Start(const std::vector<int>& bits) {
    constants_.clear();
    for (size_t t = 0; t < graph_.tensors.size(); ++t) {
      if (!graph_.tensors[t].is_constant()) continue;
      OPUC_ASSIGN_OR_RETURN(constants_[static_cast<TensorId>(t)],
                            HostTensor::FromConstant(graph_.tensors[t]));
    }
    reference_.clear();
    for (const auto& sample : samples_) {
      OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, RunCpu(reference_graph_, sample));
      reference_.push_back(std::move(outputs));
    }
    current_.assign(samples_.size(), std::vector<std::optional<HostTensor>>(graph_.tensors.size()));
    OPUC_ASSIGN_OR_RETURN(error_, Try(bits, 0));
    Commit();
    return OkStatus();
  }

  double error() const { return error_; }

  /// E with `bits`, recomputing nodes `from` on (and the inputs when 0).
  Expected<double> Try(const std::vector<int>& bits, size_t from) {
    trial_.assign(samples_.size(), {});
    std::vector<double> noise(graph_.outputs.size(), 0.0), signal(noise.size(), 0.0);
    for (size_t s = 0; s < samples_.size(); ++s) {
      auto& trial = trial_[s];
      trial.assign(graph_.tensors.size(), std::nullopt);
      if (from == 0)
        for (size_t i = 0; i < graph_.inputs.size(); ++i) {
          const HostTensor& in = samples_[s][i];
          OPUC_ASSIGN_OR_RETURN(HostTensor copy,
                                HostTensor::Copy(in.dtype(), in.shape(), in.raw(), in.bytes()));
          Round(copy, bits, graph_.inputs[i]);
          trial[static_cast<size_t>(graph_.inputs[i])] = std::move(copy);
        }
      for (size_t k = from; k < graph_.nodes.size(); ++k) {
        const Node& node = graph_.nodes[k];
        std::vector<const HostTensor*> inputs;
        for (TensorId t : node.inputs) inputs.push_back(t == kNoTensor ? nullptr : Value(s, t));
        std::vector<HostTensor> outputs;
        Status status = EvaluateNodeOnCpu(graph_, static_cast<NodeId>(k), inputs, &outputs);
        if (!status.ok()) return status.WithContext(Cat("calibration sample ", s));
        for (size_t o = 0; o < outputs.size(); ++o) {
          Round(outputs[o], bits, node.outputs[o]);
          trial[static_cast<size_t>(node.outputs[o])] = std::move(outputs[o]);
        }
      }
      for (size_t o = 0; o < graph_.outputs.size(); ++o) {
        const HostTensor& y = reference_[s][o];
        const HostTensor* got = Value(s, graph_.outputs[o]);
        for (int64_t i = 0; i < y.elements(); ++i) {
          const double a = y.data<float>()[i], e = a - got->data<float>()[i];
          noise[o] += e * e;
          signal[o] += a * a;
        }
      }
    }
    double error = 0.0;
    for (size_t o = 0; o < noise.size(); ++o)
      error += signal[o] > 0 ? noise[o] / signal[o] : noise[o];
    return error;
  }

  /// Keeps the last trial's values.
  void Commit() {
    for (size_t s = 0; s < trial_.size(); ++s)
      for (size_t t = 0; t < trial_[s].size(); ++t)
        if (trial_[s][t]) current_[s][t] = std::move(trial_[s][t]);
  }

  void set_error(double error) { error_ = error; }

 private:
  const HostTensor* Value(size_t s, TensorId t) const {
    if (auto c = constants_.find(t); c != constants_.end()) return &c->second;
    const auto& trial = trial_[s][static_cast<size_t>(t)];
    return trial ? &*trial : &*current_[s][static_cast<size_t>(t)];
  }
  void Round(HostTensor& value, const std::vector<int>& bits, TensorId t) const {
    if (bits[static_cast<size_t>(t)] != kNoBits && value.dtype() == DType::kF32)
      RoundInPlace(value, bits[static_cast<size_t>(t)]);
  }

  const Graph& reference_graph_;
  const Graph& graph_;
  const Samples& samples_;
  std::map<TensorId, HostTensor> constants_;
  std::vector<std::vector<HostTensor>> reference_;
  std::vector<std::vector<std::optional<HostTensor>>> current_, trial_;
  double error_ = 0.0;
};

}  // namespace

Expected<RefineReport> RefineActivationBits(const Graph& graph, const Graph& rounded,
                                            const Samples& samples, std::vector<int>& bits,
                                            const std::vector<TensorId>& partial_sums) {
  // Each group's members and the first node that produces one of them.
  const ActivationGroups unified = UnifyActivations(graph, partial_sums);
  std::vector<NodeId> producer(graph.tensors.size(), 0);
  for (size_t k = 0; k < graph.nodes.size(); ++k)
    for (TensorId t : graph.nodes[k].outputs)
      producer[static_cast<size_t>(t)] = static_cast<NodeId>(k);
  std::map<size_t, std::vector<TensorId>> members;
  for (size_t t = 0; t < bits.size(); ++t)
    if (bits[t] != kNoBits) members[unified.group[t]].push_back(static_cast<TensorId>(t));
  std::vector<std::pair<size_t, std::vector<TensorId>>> groups(members.begin(), members.end());
  auto first = [&](const std::vector<TensorId>& m) {
    size_t k = graph.nodes.size();
    for (TensorId t : m) {
      const bool input =
          std::find(graph.inputs.begin(), graph.inputs.end(), t) != graph.inputs.end();
      k = std::min(k, input ? size_t{0} : static_cast<size_t>(producer[static_cast<size_t>(t)]));
    }
    return k;
  };
  std::sort(groups.begin(), groups.end(),
            [&](const auto& a, const auto& b) { return first(a.second) < first(b.second); });

  RoundedRuns runs(graph, rounded, samples);
  OPUC_RETURN_IF_ERROR(runs.Start(bits));
  RefineReport report;
  report.error_before = runs.error();
  for (const auto& [group, tensors] : groups) {
    const int original = bits[static_cast<size_t>(tensors[0])];
    int best = original;
    for (int candidate : {original + 1, original - 1}) {
      if (candidate < kMinActivationBits || candidate > kMaxActivationBits) continue;
      for (TensorId t : tensors) bits[static_cast<size_t>(t)] = candidate;
      OPUC_ASSIGN_OR_RETURN(const double error, runs.Try(bits, first(tensors)));
      ++report.trials;
      if (error < runs.error()) {
        best = candidate;
        runs.set_error(error);
        runs.Commit();
      }
    }
    for (TensorId t : tensors) bits[static_cast<size_t>(t)] = best;
    if (best != original) ++report.groups_changed;
  }
  report.error_after = runs.error();
  return report;
}

}  // namespace opuc::quant
