//===- src/quant/accuracy.cc - Quantized vs float outputs -----------------===//
#include "opuc/quant/accuracy.h"

#include <cmath>
#include <limits>

#include "opuc/cpu/executor.h"
#include "support/format.h"

namespace opuc {

Status AccuracyMeter::Add(const HostTensor& reference, const HostTensor& quantized) {
  if (reference.dtype() != DType::kF32 || !(reference.type() == quantized.type()))
    return InvalidArgument(Cat("cannot compare ", DescribeType(quantized), " with the float ",
                               DescribeType(reference)));
  const float* r = reference.data<float>();
  const float* q = quantized.data<float>();
  // A NaN or infinity would make every figure NaN, and a NaN passes every
  // comparison with a bound: name the element instead.
  for (int64_t i = 0; i < reference.elements(); ++i) {
    if (!std::isfinite(r[i]))
      return InvalidArgument(Cat("the float graph computes ", r[i], " at element ", i,
                                 "; accuracy is measured on finite outputs only"));
    if (!std::isfinite(q[i]))
      return InvalidArgument(Cat("the quantized graph computes ", q[i], " at element ", i));
  }
  for (int64_t i = 0; i < reference.elements(); ++i) {
    const double a = r[i], b = q[i], e = a - b;
    signal_ += a * a;
    noise_ += e * e;
    dot_ += a * b;
    quantized_energy_ += b * b;
    max_abs_ = std::max(max_abs_, std::fabs(e));
  }
  return OkStatus();
}

OutputAccuracy AccuracyMeter::Finish(std::string name) const {
  OutputAccuracy a;
  a.name = std::move(name);
  a.sqnr_db =
      noise_ == 0.0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(signal_ / noise_);
  const double norms = std::sqrt(signal_ * quantized_energy_);
  a.cosine = norms == 0.0 ? (signal_ == quantized_energy_ ? 1.0 : 0.0) : dot_ / norms;
  a.max_abs_error = max_abs_;
  return a;
}

Expected<std::vector<OutputAccuracy>> CompareWithFloat(
    const Graph& float_graph, const Graph& quantized_graph,
    const std::vector<std::vector<HostTensor>>& samples) {
  if (float_graph.outputs.size() != quantized_graph.outputs.size())
    return InvalidArgument(Cat("the float graph has ", float_graph.outputs.size(),
                               " outputs, the quantized one ", quantized_graph.outputs.size()));
  std::vector<AccuracyMeter> meters(float_graph.outputs.size());
  for (size_t s = 0; s < samples.size(); ++s) {
    const std::string where = Cat("sample ", s);
    Expected<std::vector<HostTensor>> ref = RunCpu(float_graph, samples[s]);
    if (!ref.ok()) return ref.status().WithContext(where + ", float graph");
    Expected<std::vector<HostTensor>> got = RunCpu(quantized_graph, samples[s]);
    if (!got.ok()) return got.status().WithContext(where + ", quantized graph");
    for (size_t o = 0; o < meters.size(); ++o) {
      Status added = meters[o].Add((*ref)[o], (*got)[o]);
      if (!added.ok())
        return added.WithContext(
            Cat(where, ", output '", float_graph.tensor(float_graph.outputs[o]).name, "'"));
    }
  }
  std::vector<OutputAccuracy> result;
  for (size_t o = 0; o < meters.size(); ++o)
    result.push_back(meters[o].Finish(float_graph.tensor(float_graph.outputs[o]).name));
  return result;
}

}  // namespace opuc
