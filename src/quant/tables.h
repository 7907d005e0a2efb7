//===- src/quant/tables.h - Lookup tables of unary ops (private) -*- C++ -*-===//
//
// docs/numerics.md §6 and §8: the compiler evaluates each unary op once per
// int8 input, in float64, and stores the results; executors only read them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_TABLES_H
#define OPUC_SRC_QUANT_TABLES_H

#include <array>
#include <cstdint>

#include "opuc/ir/attributes.h"
#include "opuc/ir/op_kind.h"

namespace opuc::quant {

/// Whether `op` on int8 becomes a lookup_table node.
bool NeedsTable(OpKind op);

/// T[i] = quantize(F((i − 128) · 2^-f_in), f_out) for i = 0..255, with F the
/// op's float formula (docs/op-semantics.md) in float64; float attributes
/// (leaky_relu's alpha) are read as stored. `op` must satisfy NeedsTable or
/// be one of the clamps (relu, relu6, relu_n1_to_1).
std::array<int8_t, 256> BuildTable(OpKind op, const Attributes& attrs, int f_in, int f_out);

/// Softmax's exp table (§8): E[d] = rhu(32768 · exp(−β · d · 2^-f_in)),
/// β rounded to float32 first; E[0] = 32768.
std::array<int32_t, 256> BuildSoftmaxExpTable(double beta, int f_in);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_TABLES_H
