// Compensated rounding (src/quant/compensated_rounding.h): the factor is
// checked by multiplying it back; the roundings are worked out by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "compensated_rounding.h"

namespace opuc::quant {
namespace {

double Nearest(double x) { return std::floor(x + 0.5); }
double NearestInRow(int64_t, double x) { return Nearest(x); }

/// (w − q)ᵀ G (w − q) for a 2×2 G.
double OutputError(const std::vector<double>& w, const std::vector<double>& q,
                   const std::vector<double>& g) {
  const double e0 = w[0] - q[0], e1 = w[1] - q[1];
  return g[0] * e0 * e0 + 2 * g[1] * e0 * e1 + g[3] * e1 * e1;
}

TEST_CASE("compensated rounding: the factor's UᵀU inverts the damped Gram matrix") {
  const std::vector<double> g = {4, 2, 1,  //
                                 2, 5, 3,  //
                                 1, 3, 6};
  const std::vector<double> u = CompensationFactor(g.data(), 3);
  REQUIRE(u.size() == 9);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < i; ++j) CHECK(u[static_cast<size_t>(i * 3 + j)] == 0.0);  // upper
  const double damping = kGramDamping * (4 + 5 + 6) / 3.0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      // ((G + λI) · UᵀU)[i][j] must be the identity.
      double sum = 0.0;
      for (int k = 0; k < 3; ++k) {
        double utu = 0.0;  // (UᵀU)[k][j]
        for (int m = 0; m < 3; ++m)
          utu += u[static_cast<size_t>(m * 3 + k)] * u[static_cast<size_t>(m * 3 + j)];
        sum += (g[static_cast<size_t>(i * 3 + k)] + (i == k ? damping : 0.0)) * utu;
      }
      CHECK(sum == doctest::Approx(i == j ? 1.0 : 0.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("compensated rounding: an input that is always zero still gets a factor") {
  const std::vector<double> g = {0, 0,  //
                                 0, 2};
  const std::vector<double> u = CompensationFactor(g.data(), 2);
  REQUIRE(u.size() == 4);
  // Diagonal (0 → 1) + 0.01·mean(0, 2): U = diag(1/√1.01, 1/√2.01).
  CHECK(u[0] == doctest::Approx(1 / std::sqrt(1.01)));
  CHECK(u[1] == 0.0);
  CHECK(u[3] == doctest::Approx(1 / std::sqrt(2.01)));
}

TEST_CASE("compensated rounding: a not positive definite matrix gives no factor") {
  const std::vector<double> g = {1, 3,   //
                                 3, 1};  // eigenvalues 4 and −2
  CHECK(CompensationFactor(g.data(), 2).empty());
}

TEST_CASE("compensated rounding: a sum that overflowed gives no factor") {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> g = {1, inf, inf, 1e300};
  CHECK(CompensationFactor(g.data(), 2).empty());
}

TEST_CASE("compensated rounding: two inputs that always agree share one rounding error") {
  // x0 = x1 on every sample: G = [[1, 1], [1, 1]], damped to [[1.01, 1], [1, 1.01]].
  // w = (0.4, 0.4): nearest gives (0, 0), an output error of 0.8·x. Rounding
  // w0 to 0 leaves 0.4; the update moves w1 by 0.4 · 1/1.01 (the damped
  // inverse's −G⁻¹[0][1] / G⁻¹[0][0]) to 0.796, which rounds to 1: the output
  // is 1·x, an error of 0.2·x.
  const std::vector<double> g = {1, 1, 1, 1};
  const std::vector<double> u = CompensationFactor(g.data(), 2);
  std::vector<double> w = {0.4, 0.4};
  RoundCompensatedRows(w, 1, u, [](int64_t, double x) {
    if (x != 0.4) CHECK(x == doctest::Approx(0.4 + 0.4 / 1.01));
    return Nearest(x);
  });
  CHECK(w == std::vector<double>{0.0, 1.0});
  CHECK(OutputError({0.4, 0.4}, w, g) == doctest::Approx(0.04));
  CHECK(OutputError({0.4, 0.4}, {0.0, 0.0}, g) == doctest::Approx(0.64));
}

TEST_CASE("compensated rounding: independent inputs round each weight to nearest") {
  const std::vector<double> g = {2, 0, 0, 3};
  const std::vector<double> u = CompensationFactor(g.data(), 2);
  std::vector<double> w = {0.4, -1.6};
  RoundCompensatedRows(w, 1, u, NearestInRow);
  CHECK(w == std::vector<double>{0.0, -2.0});
}

TEST_CASE("compensated rounding: inputs of opposite sign push the next weight the other way") {
  // x1 = −x0: G = [[1, −1], [−1, 1]]. Nearest gives (0, 1), an output error
  // of 0.4·x0 − 0.4·x1 = 0.8·x0. Compensated: rounding w0 down by 0.4 moves
  // w1 by −0.4/1.01 to 0.204, which rounds to 0: the error is 0.4·x0 +
  // 0.6·x1 = −0.2·x0.
  const std::vector<double> g = {1, -1, -1, 1};
  const std::vector<double> u = CompensationFactor(g.data(), 2);
  std::vector<double> w = {0.4, 0.6};
  RoundCompensatedRows(w, 1, u, NearestInRow);
  CHECK(w == std::vector<double>{0.0, 0.0});
  CHECK(OutputError({0.4, 0.6}, w, g) == doctest::Approx(0.04));
  CHECK(OutputError({0.4, 0.6}, {0.0, 1.0}, g) == doctest::Approx(0.64));
}

/// A Gram matrix of `samples` random patches of `dim` inputs, some of them
/// correlated (input i leans on input i − 1), and the weights to round.
std::vector<double> RandomGram(int64_t dim, int64_t samples, uint64_t seed) {
  std::vector<double> x(static_cast<size_t>(dim * samples));
  uint64_t state = seed;
  const auto next = [&state] {  // xorshift64: deterministic, uniform in [-1, 1)
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) / static_cast<double>(uint64_t{1} << 52) - 1.0;
  };
  for (int64_t r = 0; r < samples; ++r)
    for (int64_t i = 0; i < dim; ++i)
      x[static_cast<size_t>(r * dim + i)] =
          next() + (i > 0 ? 0.8 * x[static_cast<size_t>(r * dim + i - 1)] : 0.0);
  std::vector<double> g(static_cast<size_t>(dim * dim), 0.0);
  for (int64_t r = 0; r < samples; ++r)
    for (int64_t a = 0; a < dim; ++a)
      for (int64_t b = 0; b < dim; ++b)
        g[static_cast<size_t>(a * dim + b)] +=
            x[static_cast<size_t>(r * dim + a)] * x[static_cast<size_t>(r * dim + b)];
  return g;
}

TEST_CASE("compensated rounding: a large factor (blocked inverse) still inverts the Gram matrix") {
  const int64_t n = 150;  // past the 32-row base case and two levels of halving
  const std::vector<double> g = RandomGram(n, 400, 7);
  const std::vector<double> u = CompensationFactor(g.data(), n);
  REQUIRE(u.size() == static_cast<size_t>(n * n));
  double mean = 0.0;
  for (int64_t i = 0; i < n; ++i)
    mean += g[static_cast<size_t>(i * n + i)] / static_cast<double>(n);
  // (G + λI) · Uᵀ · U = I, checked row by row: v = U·e_j, then Uᵀ·v.
  double worst = 0.0;
  for (int64_t j = 0; j < n; j += 7) {
    std::vector<double> v(static_cast<size_t>(n), 0.0), utu(static_cast<size_t>(n), 0.0);
    for (int64_t m = 0; m < n; ++m) v[static_cast<size_t>(m)] = u[static_cast<size_t>(m * n + j)];
    for (int64_t k = 0; k < n; ++k)
      for (int64_t m = 0; m < n; ++m)
        utu[static_cast<size_t>(k)] +=
            u[static_cast<size_t>(m * n + k)] * v[static_cast<size_t>(m)];
    for (int64_t i = 0; i < n; ++i) {
      double sum = kGramDamping * mean * utu[static_cast<size_t>(i)];
      for (int64_t k = 0; k < n; ++k)
        sum += g[static_cast<size_t>(i * n + k)] * utu[static_cast<size_t>(k)];
      worst = std::max(worst, std::fabs(sum - (i == j ? 1.0 : 0.0)));
    }
  }
  CHECK(worst < 1e-9);
}

TEST_CASE("compensated rounding: rows in blocks round as one row at a time does") {
  // The blocked form (kRoundingBlock columns, then one product for the rest)
  // against the update written out weight by weight, on 5 rows of 150.
  const int64_t n = 150, count = 5;
  const std::vector<double> g = RandomGram(n, 400, 11);
  const std::vector<double> u = CompensationFactor(g.data(), n);
  REQUIRE(!u.empty());
  std::vector<double> rows(static_cast<size_t>(n * count));
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = 3.0 * std::sin(0.37 * static_cast<double>(i));
  std::vector<double> expected = rows;
  for (int64_t r = 0; r < count; ++r) {
    double* w = expected.data() + r * n;
    for (int64_t j = 0; j < n; ++j) {
      const double q = Nearest(w[j] * 4) / 4;  // a grid of 0.25
      const double scaled = (w[j] - q) / u[static_cast<size_t>(j * n + j)];
      for (int64_t k = j + 1; k < n; ++k) w[k] -= scaled * u[static_cast<size_t>(j * n + k)];
      w[j] = q;
    }
  }
  RoundCompensatedRows(rows, count, u, [](int64_t, double x) { return Nearest(x * 4) / 4; });
  CHECK(rows == expected);
}

}  // namespace
}  // namespace opuc::quant
