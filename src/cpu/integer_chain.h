//===- src/cpu/integer_chain.h - A quantized elementwise tail -*- C++ -*-===//
//
// FloatChain's integer twin (epilogue.h): the elementwise ops of a fused
// function over quantized values, each by its reference rule (numerics.md
// §3, §5 and §6: relu, relu6, relu_n1_to_1 as clamps; add and sub aligned up
// to the finest fraction length and rounded once; mul and prelu on the
// exact product; lookup_table), a block of elements at a time while the block is in
// cache. The block is widened to int32 once; every step's result saturates
// to its own output's range, so int32 holds each value exactly, and a step
// runs in int32 lanes (requant32.h) where its sums provably fit, else on
// the reference's int64 RequantTo. The last value is narrowed into the
// function's output.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_INTEGER_CHAIN_H
#define OPUC_SRC_CPU_INTEGER_CHAIN_H

#include <cstdint>
#include <functional>
#include <vector>

#include "fused_match.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::cpu {

class IntegerChain {
 public:
  /// The steps of `tail` in `body`, reading `others` (per step, its other
  /// operand or nullptr) and writing `out`. An error (a fraction length
  /// missing or out of range) is for the caller to leave to the reference,
  /// which names the node.
  static Expected<IntegerChain> Make(const Graph& body, const FusedTail& tail,
                                     const std::vector<const HostTensor*>& others, HostTensor* out);

  /// Elements [offset, offset + count) of `first` (the chain's first value,
  /// of the output's shape) through every step into the same elements of
  /// the output; `offset` is a multiple of the channel count.
  void Apply(const HostTensor& first, int64_t offset, int64_t count) const;

  /// As Apply, but each chunk of the last step's values (int32, each within
  /// its format) goes to `sink` (its first element's index, how many)
  /// instead of into the output: a reduction's input.
  using Sink = std::function<void(const int32_t* values, int64_t at, int64_t count)>;
  void Apply(const HostTensor& first, int64_t offset, int64_t count, const Sink& sink) const;

  struct Step {
    OpKind op = OpKind::kRelu;
    ChainStep::Operand operand = ChainStep::Operand::kNone;
    const HostTensor* other = nullptr;
    int64_t lo = 0, hi = 0;  ///< The step's output range (its format and activation).
    /// The final shift: a clamp's f_in − f_out, add/sub's F − f_out, mul's
    /// f_lhs + f_rhs − f_out, prelu's negative side f_in + f_α − f_out.
    int shift = 0;
    int up = 0;  ///< prelu's non-negative side: f_in − f_out.
    /// add/sub: the value's and the other operand's factors 2^(F − f),
    /// negative on the subtracted side.
    int64_t value_scale = 1, other_scale = 1;
    bool int32 = false;  ///< Every sum fits int32 and each shift is Requant32's.
    /// A per-channel operand widened and laid out several times over, so
    /// that a loop along it is long enough for whole vectors; or a
    /// lookup_table's table, widened.
    std::vector<int32_t> repeated;
    /// lookup_table: an i8 value's index offset (128), or an i16 value's
    /// interpolation between knots.
    int32_t table_offset = 0;
    bool interpolate = false;
  };
  const std::vector<Step>& steps() const { return steps_; }

 private:
  IntegerChain(std::vector<Step> steps, int64_t channels, HostTensor* out);
  std::vector<Step> steps_;
  int64_t period_;  ///< The length of each repeated operand: whole rows of channels.
  HostTensor* out_;
};

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_INTEGER_CHAIN_H
