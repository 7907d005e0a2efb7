// Compensated rounding (src/quant/compensated_rounding.h): the factor is
// checked by multiplying it back; the roundings are worked out by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "compensated_rounding.h"

namespace opuc::quant {
namespace {

double Nearest(double x) { return std::floor(x + 0.5); }

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
  RoundCompensated(w, u, [](double x) {
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
  RoundCompensated(w, u, Nearest);
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
  RoundCompensated(w, u, Nearest);
  CHECK(w == std::vector<double>{0.0, 0.0});
  CHECK(OutputError({0.4, 0.6}, w, g) == doctest::Approx(0.04));
  CHECK(OutputError({0.4, 0.6}, {0.0, 1.0}, g) == doctest::Approx(0.64));
}

}  // namespace
}  // namespace opuc::quant
