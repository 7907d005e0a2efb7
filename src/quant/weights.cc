//===- src/quant/weights.cc - Inner-product weights and biases ------------===//
#include "weights.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "compensated_rounding.h"
#include "int8_rounder.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/numerics/fixed_point.h"
#include "opuc/tensor_io/host_tensor.h"
#include "support/format.h"

namespace opuc::quant {
namespace {

constexpr int64_t kInt32Max = 2147483647;

/// Where channel c's weights are: (o·extent + c)·inner + i for o < outer, i < inner.
struct ChannelLayout {
  int64_t outer = 1, extent = 1, inner = 1;
  int64_t size() const { return outer * inner; }
  template <typename Fn>
  void ForEach(int64_t c, Fn fn) const {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) fn((o * extent + c) * inner + i);
  }
};

ChannelLayout LayoutOf(const Shape& shape, int axis) {
  ChannelLayout layout;
  for (size_t d = 0; d < shape.size(); ++d) {
    const auto a = static_cast<size_t>(axis);
    if (d < a) layout.outer *= shape[d];
    if (d == a) layout.extent = shape[d];
    if (d > a) layout.inner *= shape[d];
  }
  return layout;
}

/// Channel c's layout.size() weights in ForEach's order as doubles, into
/// `row`: the loops below then run over one array of one type, which GCC
/// vectorizes (over ForEach's two loops, or converting floats on the way,
/// it did not).
void ChannelRow(const float* w, const ChannelLayout& layout, int64_t c, double* row) {
  layout.ForEach(c, [&](int64_t k) { *row++ = w[k]; });
}

/// Whether y rounds (half up) outside int8: y ≥ 127.5 or y < −128.5.
bool ClipsScaled(double y) { return y >= 127.5 || y < -128.5; }

bool Clips(double v, int bits) { return ClipsScaled(std::ldexp(v, bits)); }

/// Squared errors of a channel's `n` weights at lengths first, ..., first + 3
/// (saturation included), in one pass over them: the four roundings of a
/// weight are independent, which GCC vectorizes. Each is Int8Rounder's.
std::array<double, 4> ChannelErrors(const double* row, int64_t n, int first) {
  std::array<double, 4> scales{}, steps{}, sums{};
  for (size_t j = 0; j < 4; ++j) {
    scales[j] = std::ldexp(1.0, first + static_cast<int>(j));
    steps[j] = 1.0 / scales[j];  // a power of two: exact
  }
  for (int64_t k = 0; k < n; ++k) {
    const double v = row[k];
    std::array<double, 4> e;
    for (size_t j = 0; j < 4; ++j) e[j] = v - Int8Rounder::Saturated(v * scales[j]) * steps[j];
    for (size_t j = 0; j < 4; ++j) sums[j] += e[j] * e[j];
  }
  return sums;
}

/// The largest length in [lo, hi] at which neither extreme clips.
int NoClipBetween(double lowest, double highest, int lo, int hi) {
  int bits = hi;
  while (bits > lo && (Clips(highest, bits) || Clips(lowest, bits))) --bits;
  return bits;
}

int BestChannelBits(const double* row, int64_t n) {
  double lowest = 0.0, highest = 0.0;
  for (int64_t k = 0; k < n; ++k) {
    lowest = std::min(lowest, row[k]);
    highest = std::max(highest, row[k]);
  }
  if (lowest == 0.0 && highest == 0.0) return kMaxWeightBits;
  const int no_clip = NoClipBetween(lowest, highest, kMinWeightBits, kMaxWeightBits);
  const std::array<double, 4> errors = ChannelErrors(row, n, no_clip);
  int best = no_clip;
  for (int bits = no_clip + 1; bits <= std::min(no_clip + 3, kMaxWeightBits); ++bits)
    if (errors[static_cast<size_t>(bits - no_clip)] < errors[static_cast<size_t>(best - no_clip)])
      best = bits;
  return best;
}

/// Σ |q| over the row rounded at `bits` (Int8Rounder's q): each term and
/// every partial sum is an integer below 2^53, so the double sum is exact
/// and its order does not matter.
int64_t SumOfMagnitudes(const double* row, int64_t n, int bits) {
  const double scale = std::ldexp(1.0, bits);
  double sum = 0.0;
  for (int64_t k = 0; k < n; ++k) sum += std::abs(Int8Rounder::Quantized(row[k], scale));
  return static_cast<int64_t>(sum);
}

/// |q_bias| + input_magnitude · Σ |q| over the row at `bits`, the largest
/// sum the channel's accumulator can reach; when even |q| ≤ 128 for every
/// weight keeps it within int32 (always, for an 8-bit input), that looser
/// bound is returned instead: the callers only compare it with 2^31 − 1.
int64_t AccumulationBound(int64_t q_bias, int input_magnitude, const double* row, int64_t n,
                          int bits) {
  const int64_t loose = std::llabs(q_bias) + input_magnitude * 128 * n;
  if (loose <= kInt32Max) return loose;
  return std::llabs(q_bias) + input_magnitude * SumOfMagnitudes(row, n, bits);
}

/// How many of the row's weights clip at `bits`.
int64_t ClippedCount(const double* row, int64_t n, int bits) {
  const double scale = std::ldexp(1.0, bits);  // a power of two: w·scale is exact
  double count = 0.0;  // a double, like the loop's other values: it vectorizes
  for (int64_t k = 0; k < n; ++k) count += ClipsScaled(row[k] * scale) ? 1.0 : 0.0;
  return static_cast<int64_t>(count);
}

/// The weights of `channels` (each at its own fraction length `bits[c]`):
/// nearest rounding, or compensated rounding (compensated_rounding.h) when
/// `factor` is given, for the channels whose result still keeps the
/// accumulation bound with their bias. Returns how many were compensated.
int64_t RoundChannels(const float* w, const ChannelLayout& layout,
                      const std::vector<int64_t>& channels, const std::vector<int>& bits,
                      const std::vector<int32_t>& bias, const RoundingFactor* factor,
                      int input_magnitude, std::vector<int8_t>& out) {
  const auto nearest = [&](int64_t c) {
    const Int8Rounder round(bits[static_cast<size_t>(c)]);
    layout.ForEach(c, [&](int64_t k) { out[static_cast<size_t>(k)] = round(w[k]); });
  };
  if (!factor || factor->empty() || channels.empty()) {
    for (int64_t c : channels) nearest(c);
    return 0;
  }
  const int64_t dim = layout.size();
  std::vector<double> rows(static_cast<size_t>(dim) * channels.size());
  for (size_t r = 0; r < channels.size(); ++r)
    ChannelRow(w, layout, channels[r], rows.data() + static_cast<int64_t>(r) * dim);
  const auto count = static_cast<int64_t>(channels.size());
  std::vector<Int8Rounder> rounders;
  std::vector<double> scales, steps;  // per row: Int8Rounder's, as arrays the loop vectorizes over
  for (int64_t c : channels) {
    const int f = bits[static_cast<size_t>(c)];
    rounders.emplace_back(f);
    scales.push_back(std::ldexp(1.0, f));
    steps.push_back(std::ldexp(1.0, -f));
  }
  factor->Round(rows, count, [scale = scales.data(), step = steps.data()](double* x, int64_t n) {
    for (int64_t r = 0; r < n; ++r) x[r] = Int8Rounder::Quantized(x[r], scale[r]) * step[r];
  });
  int64_t compensated = 0;
  for (size_t r = 0; r < channels.size(); ++r) {
    const int64_t c = channels[r];
    const Int8Rounder& round = rounders[r];
    const double* row = rows.data() + static_cast<int64_t>(r) * dim;  // on the grid now
    if (AccumulationBound(bias[static_cast<size_t>(c)], input_magnitude, row, dim,
                          bits[static_cast<size_t>(c)]) > kInt32Max) {
      nearest(c);
      continue;
    }
    int64_t i = 0;
    layout.ForEach(c, [&](int64_t k) { out[static_cast<size_t>(k)] = round(row[i++]); });
    ++compensated;
  }
  return compensated;
}

}  // namespace

int NoClipBits(const float* values, int64_t count, int64_t stride, int lo, int hi) {
  float lowest = 0.0f, highest = 0.0f;
  for (int64_t i = 0; i < count; ++i) {
    lowest = std::min(lowest, values[i * stride]);
    highest = std::max(highest, values[i * stride]);
  }
  return NoClipBetween(lowest, highest, lo, hi);
}

Expected<QuantizedWeights> QuantizeInnerProduct(const Graph& graph, NodeId id, int input_bits,
                                                const InputGram* gram, int input_magnitude) {
  const Node& node = graph.node(id);
  const Tensor& weights_tensor = graph.tensor(node.inputs[1]);
  OPUC_ASSIGN_OR_RETURN(HostTensor weights, HostTensor::FromConstant(weights_tensor));
  if (weights.dtype() != DType::kF32)
    return InvalidArgument(Cat("weights '", weights_tensor.name, "' are ",
                               DTypeName(weights.dtype()), "; the quantizer expects f32"));
  std::optional<HostTensor> bias;
  if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
    OPUC_ASSIGN_OR_RETURN(bias, HostTensor::FromConstant(graph.tensor(node.inputs[2])));
  }
  QuantizedWeights result;
  result.axis =
      node.op == OpKind::kDepthwiseConv2D ? static_cast<int>(weights.shape().size()) - 1 : 0;
  const ChannelLayout layout = LayoutOf(weights.shape(), result.axis);
  const float* w = weights.data<float>();
  result.weights.resize(static_cast<size_t>(weights.elements()));
  // One factor per Gram group: all channels of a conv2d or fully connected
  // node share their input; a depthwise channel reads input channel c / M.
  if (gram && (gram->groups <= 0 || layout.extent % gram->groups != 0 ||
               gram->dim != weights.elements() / layout.extent))
    gram = nullptr;  // not this node's patches: round to nearest
  const int64_t groups = gram ? gram->groups : 1;
  const int64_t channels_per_group = layout.extent / groups;
  const int64_t n = layout.size();
  std::vector<double> channel(static_cast<size_t>(n));
  for (int64_t c = 0; c < layout.extent; ++c) {
    const double b = bias ? bias->data<float>()[c] : 0.0;
    ChannelRow(w, layout, c, channel.data());
    const double* row = channel.data();
    int bits = BestChannelBits(row, n);
    const int chosen = bits;
    for (;; --bits) {
      const int64_t q_bias = Rhu(std::ldexp(b, input_bits + bits));
      const int64_t bound = AccumulationBound(q_bias, input_magnitude, row, n, bits);
      if (bound <= kInt32Max) {
        result.bias.push_back(static_cast<int32_t>(q_bias));
        break;
      }
      if (bits == kMinWeightBits)
        return InvalidArgument(Cat("output channel ", c, ": accumulation bound ", bound,
                                   " exceeds 2^31-1 even at weight "
                                   "fraction length ",
                                   kMinWeightBits, " (input at ", input_bits, ")"));
    }
    if (bits != chosen) ++result.lowered;
    result.bits.push_back(bits);
    result.saturated += ClippedCount(row, n, bits);
  }
  // The channels of one Gram group read the same inputs: rounded together.
  for (int64_t group = 0; group < groups; ++group) {
    std::vector<int64_t> channels;
    for (int64_t c = group * channels_per_group; c < (group + 1) * channels_per_group; ++c)
      channels.push_back(c);
    RoundingFactor computed;
    if (gram && gram->factors.empty()) computed = gram->Factor(group);
    const RoundingFactor& factor =
        gram && !gram->factors.empty() ? gram->factors[static_cast<size_t>(group)] : computed;
    result.compensated += RoundChannels(w, layout, channels, result.bits, result.bias,
                                        gram ? &factor : nullptr, input_magnitude, result.weights);
  }
  if (!bias) result.bias.clear();
  return result;
}

Expected<Graph> WithRoundedWeights(const Graph& graph, const std::vector<int>& bits,
                                   const std::map<NodeId, InputGram>& grams) {
  Graph rounded = graph;
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    if (node.op != OpKind::kConv2D && node.op != OpKind::kDepthwiseConv2D &&
        node.op != OpKind::kTransposeConv2D && node.op != OpKind::kFullyConnected)
      continue;
    const int input_bits = bits[static_cast<size_t>(node.inputs[0])];
    const auto gram = grams.find(static_cast<NodeId>(k));
    Expected<QuantizedWeights> quantized = QuantizeInnerProduct(
        graph, static_cast<NodeId>(k), input_bits, gram == grams.end() ? nullptr : &gram->second);
    if (!quantized.ok())
      return quantized.status().WithContext(DescribeNode(graph, static_cast<NodeId>(k)));
    const QuantizedWeights& q = *quantized;
    const Tensor& w = graph.tensor(node.inputs[1]);
    const int64_t channels = static_cast<int64_t>(q.bits.size());
    std::vector<float> weights(q.weights.size()), bias(q.bias.size());
    const int64_t inner = q.axis == 0 ? static_cast<int64_t>(weights.size()) / channels : 1;
    for (size_t i = 0; i < weights.size(); ++i) {
      const int64_t c =
          q.axis == 0 ? static_cast<int64_t>(i) / inner : static_cast<int64_t>(i) % channels;
      weights[i] = static_cast<float>(std::ldexp(q.weights[i], -q.bits[static_cast<size_t>(c)]));
    }
    Node& target = rounded.nodes[k];
    target.inputs[1] =
        rounded.AddConstant(UniqueTensorName(rounded, w.name + "/rounded"), DType::kF32, w.shape,
                            ConstantData::Copy(weights.data(), weights.size() * 4));
    if (!q.bias.empty()) {
      for (size_t c = 0; c < bias.size(); ++c)
        bias[c] = static_cast<float>(std::ldexp(q.bias[c], -(input_bits + q.bits[c])));
      const Tensor& b = graph.tensor(node.inputs[2]);
      target.inputs[2] =
          rounded.AddConstant(UniqueTensorName(rounded, b.name + "/rounded"), DType::kF32, b.shape,
                              ConstantData::Copy(bias.data(), bias.size() * 4));
    }
  }
  return rounded;
}

}  // namespace opuc::quant
