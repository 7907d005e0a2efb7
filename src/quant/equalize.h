//===- src/quant/equalize.h - Cross-layer channel equalization (private) -*- C++ -*-===//
//
// One fraction length per activation tensor cannot serve channels whose
// ranges differ by 100× (a depthwise conv before a pointwise one is the
// classic case): the small channels drown in the large ones' step. When an
// inner product A feeds an inner product B only — directly, or through a
// relu, leaky_relu or prelu, which commute with positive scales — A's
// output channel c can be divided by s_c and B's input channel c multiplied
// by s_c without changing the function (cross-layer equalization, Nagel et
// al., "Data-Free Quantization", 2019). Here s_c comes from the calibrated
// range r_a[c] of that channel and B's weight range r_w[c]:
//
//   B depthwise: s_c = r_a[c] / max r_a     B's weights are per channel anyway
//   B conv2d:    s_c ∝ sqrt(r_a[c] / r_w[c]) both ranges meet at sqrt(r_a·r_w)
//
// scaled so that the largest channel keeps its range.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_EQUALIZE_H
#define OPUC_SRC_QUANT_EQUALIZE_H

#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

/// Equalizes every such pair of `graph` (f32) in place, with ranges from the
/// float reference over `samples`; returns how many pairs changed.
Expected<int> EqualizeChannels(Graph& graph, const std::vector<std::vector<HostTensor>>& samples);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_EQUALIZE_H
