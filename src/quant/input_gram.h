//===- src/quant/input_gram.h - What each inner product sees (private) -*- C++ -*-===//
//
// An output channel of an inner product is a dot product w·x of its weights
// with an input patch x. Rounding the weights to q changes it by (w − q)·x,
// so over the calibration samples the squared error is (w − q)ᵀ G (w − q)
// with the Gram matrix G = Σ x xᵀ of the patches. compensated_rounding.h
// uses G to choose q; this file measures G on the float reference.
//
// Patches are laid out as the weights are (so G's index j is weight
// column j): conv2d [O,kh,kw,I] → (ky·kw + kx)·I + i; depthwise
// [1,kh,kw,C·M] → ky·kw + kx, one G per input channel; fully connected
// [O,I] → i. Taps outside the input are zeros, as the convolution sees them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_INPUT_GRAM_H
#define OPUC_SRC_QUANT_INPUT_GRAM_H

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "compensated_rounding.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"
#include "support/serial_worker.h"

namespace opuc::quant {

/// Σ x xᵀ over the sampled input patches of one inner product; while the
/// patches are at most dim / 2 (one group only), the patches themselves
/// (compensated_rounding.h's short form).
struct InputGram {
  int64_t dim = 0;             ///< Weights per output channel.
  int64_t groups = 1;          ///< 1, or one matrix per input channel (depthwise).
  std::vector<double> values;  ///< groups × dim × dim, row-major, symmetric; or empty.
  /// Per group, the rounding factor once FactorGrams ran (`values` and
  /// `patches` are then released); empty where the factor failed.
  std::vector<RoundingFactor> factors;
  std::vector<float> patches;  ///< dim × samples, row-major: row i is input i.
  int64_t samples = 0;         ///< Patches held in `patches`.

  const double* group(int64_t g) const { return values.data() + g * dim * dim; }
  /// The Gram matrix of group `g`, whichever way it is held.
  std::vector<double> Matrix(int64_t g) const;
  /// The rounding factor of group `g` from what is held.
  RoundingFactor Factor(int64_t g) const;
};

/// At most this many output positions per sample feed a Gram matrix (spread
/// evenly over the image): enough rows to fix the largest matrices the real
/// models need while bounding the cost at positions · dim².
inline constexpr int64_t kMaxGramPositions = 4096;

/// Adds the patches of `input`, the value node `node` reads, into `gram`
/// (a depthwise node's channels on up to `threads` threads, 0: one per
/// core; each channel's sums are the same whichever thread makes them).
void AccumulateInputGram(const Graph& graph, const Node& node, const HostTensor& input,
                         InputGram& gram, int threads = 1);

/// Replaces every group's matrix by its rounding factor
/// (compensated_rounding.h), once for every rounding of the weights that
/// follows, on up to `threads` threads (0: one per core; the factors are
/// the same whichever thread makes them). Grams already factored are kept.
void FactorGrams(std::map<NodeId, InputGram>& grams, int threads);

/// The Gram matrix of every conv2d, depthwise conv and fully connected node
/// with constant f32 weights (transpose conv2d is left out: its patches
/// overlap differently), from the values a float reference run shows it —
/// as a TensorObserver, so that it shares the run calibration makes.
class InputGramCollector {
 public:
  /// With `factor_after` > 0, a node's matrices are replaced by their
  /// factors as soon as that many runs have shown them, so that a large
  /// model's matrices (hundreds of megabytes together) are not all held at
  /// once: a depthwise node's many small ones on the spot, on every core;
  /// another node's one matrix, where `threads` allows two or more, on a
  /// thread beside the run, which goes on meanwhile (its serial stretches
  /// leave a core idle). The factors are the same either way.
  explicit InputGramCollector(const Graph& graph, int threads = 1, int64_t factor_after = 0);
  Status Observe(TensorId t, const HostTensor& value);
  /// The matrices and factors, once the factors in the making are made.
  std::map<NodeId, InputGram> Take() &&;

 private:
  const Graph& graph_;
  int threads_;
  int64_t factor_after_;
  std::map<TensorId, std::vector<NodeId>> readers_;  ///< Inner products by the input they read.
  std::map<NodeId, InputGram> grams_;
  std::map<NodeId, int64_t> runs_;        ///< Runs seen per node, with factor_after.
  std::unique_ptr<SerialWorker> worker_;  ///< Last: its jobs use grams_.
};

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_INPUT_GRAM_H
