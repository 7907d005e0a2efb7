//===- src/quant/tables.cc - Lookup tables of unary ops -------------------===//
#include "tables.h"

#include <algorithm>
#include <cmath>

#include "opuc/ir/op_attrs.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::quant {
namespace {

double Sigmoid(double x) {
  // The float reference's cutoffs (op-semantics.md), evaluated in float64.
  if (x > 16.619047164916992188) return 1.0;
  if (x < -9.0) return std::exp(x);
  return 1.0 / (1.0 + std::exp(-x));
}

double Evaluate(OpKind op, const Attributes& attrs, double x) {
  switch (op) {
    case OpKind::kSigmoid: return Sigmoid(x);
    case OpKind::kTanh: return std::tanh(x);
    case OpKind::kHardSwish: return x * std::min(6.0, std::max(0.0, x + 3.0)) / 6.0;
    case OpKind::kLeakyRelu: {
      const double alpha = static_cast<float>(LeakyReluAttrs::Of(attrs).alpha);
      return x > 0 ? x : x * alpha;
    }
    case OpKind::kRelu: return std::max(0.0, x);
    case OpKind::kRelu6: return std::min(6.0, std::max(0.0, x));
    case OpKind::kReluN1To1: return std::min(1.0, std::max(-1.0, x));
    default: return x;
  }
}

}  // namespace

bool NeedsTable(OpKind op) {
  return op == OpKind::kSigmoid || op == OpKind::kTanh || op == OpKind::kHardSwish ||
         op == OpKind::kLeakyRelu;
}

std::vector<int32_t> BuildTable(OpKind op, const Attributes& attrs, DType in, int f_in, DType out,
                                int f_out) {
  const IntegerBounds bounds = QuantizedBounds(out);
  const int entries = in == DType::kI16 ? 257 : 256;
  std::vector<int32_t> table(static_cast<size_t>(entries));
  for (int i = 0; i < entries; ++i) {
    const int q = in == DType::kU8 ? i : in == DType::kI16 ? (i - 128) * 256 : i - 128;
    const double x = std::ldexp(static_cast<double>(q), -f_in);  // exact
    table[static_cast<size_t>(i)] =
        static_cast<int32_t>(QuantizeTo(Evaluate(op, attrs, x), f_out, bounds.lo, bounds.hi));
  }
  return table;
}

std::array<int8_t, 256> BuildTable(OpKind op, const Attributes& attrs, int f_in, int f_out) {
  const std::vector<int32_t> wide = BuildTable(op, attrs, DType::kI8, f_in, DType::kI8, f_out);
  std::array<int8_t, 256> table{};
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<int8_t>(wide[i]);
  return table;
}

std::array<int32_t, 256> BuildSoftmaxExpTable(double beta, int f_in) {
  const double b = static_cast<float>(beta);
  std::array<int32_t, 256> table{};
  for (int d = 0; d < 256; ++d)
    table[static_cast<size_t>(d)] = static_cast<int32_t>(
        Rhu(32768.0 * std::exp(-b * std::ldexp(static_cast<double>(d), -f_in))));
  return table;
}

}  // namespace opuc::quant
