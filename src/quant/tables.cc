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

/// The 257 knots of an i16 input's table, before rounding: those of the
/// continuous piecewise-linear function nearest F in least squares over all
/// 65536 inputs q = 256·h + l, which read K[h + 128]·(1 − t) + K[h + 129]·t
/// with t = l/256. Sampling F at the knots instead leaves every chord of a
/// convex stretch above it (hard_swish: up to h²/24 at spacing h), an error
/// of one sign that the layers after sum up; the fit lowers such knots by
/// h²/36 there. The normal equations are tridiagonal.
std::vector<double> FitKnots(OpKind op, const Attributes& attrs, int f_in) {
  constexpr size_t kKnots = 257;
  std::vector<double> diag(kKnots, 0.0), upper(kKnots, 0.0), rhs(kKnots, 0.0);
  for (size_t h = 0; h + 1 < kKnots; ++h)
    for (int l = 0; l < 256; ++l) {
      const int q = (static_cast<int>(h) - 128) * 256 + l;
      const double y = Evaluate(op, attrs, std::ldexp(static_cast<double>(q), -f_in));
      const double t = l / 256.0;
      diag[h] += (1 - t) * (1 - t);
      diag[h + 1] += t * t;
      upper[h] += t * (1 - t);
      rhs[h] += (1 - t) * y;
      rhs[h + 1] += t * y;
    }
  // Forward elimination, then back substitution (the system is diagonally
  // dominant: no pivoting).
  for (size_t k = 1; k < kKnots; ++k) {
    const double m = upper[k - 1] / diag[k - 1];
    diag[k] -= m * upper[k - 1];
    rhs[k] -= m * rhs[k - 1];
  }
  std::vector<double> knots(kKnots);
  knots[kKnots - 1] = rhs[kKnots - 1] / diag[kKnots - 1];
  for (size_t k = kKnots - 1; k-- > 0;) knots[k] = (rhs[k] - upper[k] * knots[k + 1]) / diag[k];
  return knots;
}

}  // namespace

bool NeedsTable(OpKind op) {
  return op == OpKind::kSigmoid || op == OpKind::kTanh || op == OpKind::kHardSwish ||
         op == OpKind::kLeakyRelu;
}

std::vector<int32_t> BuildTable(OpKind op, const Attributes& attrs, DType in, int f_in, DType out,
                                int f_out) {
  const IntegerBounds bounds = QuantizedBounds(out);
  if (in == DType::kI16) {
    std::vector<int32_t> table;
    for (double knot : FitKnots(op, attrs, f_in))
      table.push_back(static_cast<int32_t>(QuantizeTo(knot, f_out, bounds.lo, bounds.hi)));
    return table;
  }
  std::vector<int32_t> table(256);
  for (int i = 0; i < 256; ++i) {
    const int q = in == DType::kU8 ? i : i - 128;
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
