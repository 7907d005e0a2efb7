//===- src/quant/per_layer_choice.h - 16 bits where the outputs need them (private) -*- C++ -*-===//
//
// QuantizeOptions::per_layer, `opuc compile`'s default (docs/quantization.md,
// "A choice that holds on new photographs"): which activation groups are i16
// and which layers keep 16-bit weights (split_weights.h), chosen on
// photographs kept from the statistics: each calibration photograph (leave
// one out, up to six folds) is measured on programs calibrated on the
// others, against the program with every candidate at 16 bits. The
// candidates — activation groups and layers — are ordered by their measured
// effect on the outputs (output_sensitivity.h) per extra array pass
// (mixed_precision.h), the heads first; the shortest prefix of that order
// that reaches the target plus the margin, pooled over the folds, is taken,
// the costliest of it taken back where the target still holds; the chosen
// setting is then calibrated on every sample and lowered. With
// QuantizeOptions::budget_search the candidates are priced at each
// photograph's fold's lengths, and a knapsack under a noise budget is
// searched too, the cheaper setting kept.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_PER_LAYER_CHOICE_H
#define OPUC_SRC_QUANT_PER_LAYER_CHOICE_H

#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/quant/quantize.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

/// Quantizes `equalized` (the float graph after equalize.h, `pairs` its
/// equalized pairs, for the report) with the per-layer choice.
/// `calibration` comes as options.views_per_photograph views of each
/// photograph in turn.
Expected<QuantizedGraph> QuantizePerLayer(const Graph& equalized, int pairs,
                                          const std::vector<std::vector<HostTensor>>& calibration,
                                          const QuantizeOptions& options);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_PER_LAYER_CHOICE_H
