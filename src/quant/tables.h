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
#include <vector>

#include "opuc/ir/dtype.h"

#include "opuc/ir/attributes.h"
#include "opuc/ir/op_kind.h"

namespace opuc::quant {

/// Whether `op` on int8 becomes a lookup_table node.
bool NeedsTable(OpKind op);

/// The table of `op` from input format `in` at f_in to output format `out`
/// at f_out (docs/numerics.md §6, §1b): T[i] = quantize_out(F(x_i), f_out)
/// with x_i = (i − 128) · 2^-f_in for i8 (256 entries), i · 2^-f_in for u8
/// (256); for i16 the 257 knots at (i − 128) · 256 · 2^-f_in, each
/// quantize_out of the least-squares fit over every i16 input of the
/// interpolation that reads them (not of F at the knot). F is the
/// op's float formula (docs/op-semantics.md) in float64; float attributes
/// (leaky_relu's alpha) are read as stored. `op` must satisfy NeedsTable or
/// be one of the clamps (relu, relu6, relu_n1_to_1).
std::vector<int32_t> BuildTable(OpKind op, const Attributes& attrs, DType in, int f_in, DType out,
                                int f_out);
/// The i8 → i8 table (256 entries).
std::array<int8_t, 256> BuildTable(OpKind op, const Attributes& attrs, int f_in, int f_out);

/// Softmax's exp table (§8): E[d] = rhu(32768 · exp(−β · d · 2^-f_in)),
/// β rounded to float32 first; E[0] = 32768.
std::array<int32_t, 256> BuildSoftmaxExpTable(double beta, int f_in);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_TABLES_H
