//===- src/quant/calibrate.h - Activation statistics (private) --*- C++ -*-===//
//
// Runs the float reference over the calibration samples and records, for
// every f32 activation, the squared error each candidate fraction length
// would cause — rounding and saturation together — so that the solver picks
// the length with the least error rather than the one that merely avoids
// clipping (min/max).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_CALIBRATE_H
#define OPUC_SRC_QUANT_CALIBRATE_H

#include <array>
#include <cstdint>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

/// Activation fraction lengths the OPU allows (docs/numerics.md §1): up to
/// 15 for 8-bit formats, 23 for i16.
inline constexpr int kMinActivationBits = -8;
inline constexpr int kMaxActivationBits = 15;
inline constexpr int kMaxWideActivationBits = 23;
inline constexpr int kNumActivationBits = kMaxActivationBits - kMinActivationBits + 1;

/// What calibration saw of one tensor.
struct TensorStats {
  bool seen = false;
  double max_abs = 0.0;
  double sum_squares = 0.0;  ///< Σ x², the signal the errors compare with.
  int64_t count = 0;
  /// Σ (x − dequant(quant(x, f)))² for f = kMinActivationBits + index: in
  /// i8 ([−128, 127]) and in u8 ([0, 255], negative values clip to 0).
  std::array<double, kNumActivationBits> squared_error{};
  std::array<double, kNumActivationBits> squared_error_u8{};
};

/// Squared quantization error of `values` at every candidate fraction
/// length, added into `stats` (float64 arithmetic; an estimate for choosing,
/// not the numerics contract), on up to `threads` threads (0: one per core;
/// the sums are the same whichever threads make them).
void AccumulateErrors(const float* values, int64_t count, TensorStats& stats, int threads = 1);

/// Adds what `more` saw into `into`: the statistics of both sets of samples
/// (the sums in another order than one run over both).
void MergeStats(TensorStats& into, const TensorStats& more);

/// The candidate with the least error in i8; ties go to the smaller length
/// (the wider range). An unseen or all-zero tensor gets the largest length.
int BestFractionBits(const TensorStats& stats);

/// The i16 length: the largest in [−8, 23] at which `max_abs` rounds into
/// [−32768, 32767] (16 bits resolve finely enough that clipping, not
/// rounding, is what to avoid).
int WideFractionBits(double max_abs);

/// Stats for every tensor of `graph` (indexed by TensorId; f32 activations
/// only, constants untouched), over every sample (one HostTensor per graph
/// input). `also`, when given, sees every value of the same runs. Errors
/// name the sample. `threads` as for AccumulateErrors.
Expected<std::vector<TensorStats>> Calibrate(const Graph& graph,
                                             const std::vector<std::vector<HostTensor>>& samples,
                                             const TensorObserver& also = nullptr, int threads = 1);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_CALIBRATE_H
