//===- src/cpu/chain_step.h - A fused function's tail ---*- C++ -*-===//
#ifndef OPUC_SRC_CPU_CHAIN_STEP_H
#define OPUC_SRC_CPU_CHAIN_STEP_H

#include "opuc/ir/op_attrs.h"
#include "opuc/ir/op_kind.h"

namespace opuc::cpu {

/// An elementwise op after an inner product, on the running value.
struct ChainStep {
  enum class Operand { kNone, kWhole, kChannel, kScalar };
  /// relu, relu6, relu_n1_to_1, add, sub, mul or prelu; sigmoid, hard_swish
  /// or tanh on floats, lookup_table (whose table is `other`) on integers.
  OpKind op = OpKind::kRelu;
  Activation activation = Activation::kNone;  ///< A binary op's fused activation.
  const float* other = nullptr;               ///< A binary op's other operand.
  Operand operand = Operand::kNone;  ///< Its shape: the output's, [channels] or one element.
  bool value_first = true;           ///< Whether the running value is the lhs.
};

class FloatChain;    // epilogue.h
class IntegerChain;  // integer_chain.h

/// A fused function's elementwise tail (fused.cc), applied to each block of
/// its inner product's output: the float chain in place, the integer chain
/// from the inner product's output into the function's.
struct Tail {
  const FloatChain* floats = nullptr;
  const IntegerChain* integers = nullptr;
};

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_CHAIN_STEP_H
