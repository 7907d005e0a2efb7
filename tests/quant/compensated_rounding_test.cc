// Compensated rounding (src/quant/compensated_rounding.h): the factor is
// checked by multiplying it back; the roundings are worked out by hand, and
// against OPTQ's update written out weight by weight.
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
/// Row r's grid: steps of 2^-r, so that a rounding given another row's
/// value would show.
double RowGrid(int64_t row, double x) {
  return Nearest(std::ldexp(x, static_cast<int>(row))) / std::ldexp(1.0, static_cast<int>(row));
}
/// The column roundings RoundingFactor::Round takes: value r is row r's.
void NearestColumn(double* x, int64_t count) {
  for (int64_t r = 0; r < count; ++r) x[r] = Nearest(x[r]);
}
void RowGridColumn(double* x, int64_t count) {
  for (int64_t r = 0; r < count; ++r) x[r] = RowGrid(r, x[r]);
}

/// (w − q)ᵀ G (w − q) for a 2×2 G.
double OutputError(const std::vector<double>& w, const std::vector<double>& q,
                   const std::vector<double>& g) {
  const double e0 = w[0] - q[0], e1 = w[1] - q[1];
  return g[0] * e0 * e0 + 2 * g[1] * e0 * e1 + g[3] * e1 * e1;
}

/// The largest |(R Rᵀ)[i][j] − (G + λI)[i][j]| (with G's zero diagonal
/// entries taken as 1). R is kept in float, so the products hold to a few
/// parts in 10^7 of G's scale: the tests allow 1e-6 of it.
double WorstProductError(const RoundingFactor& r, const std::vector<double>& g, int64_t n) {
  double mean = 0.0;
  for (int64_t i = 0; i < n; ++i)
    mean += g[static_cast<size_t>(i * n + i)] / static_cast<double>(n);
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int64_t k = std::max(i, j); k < n; ++k) sum += r(i, k) * r(j, k);
      double expected = g[static_cast<size_t>(i * n + j)];
      if (i == j) expected = (expected == 0.0 ? 1.0 : expected) + kGramDamping * mean;
      worst = std::max(worst, std::fabs(sum - expected));
    }
  return worst;
}

TEST_CASE("compensated rounding: the factor's R·Rᵀ is the damped Gram matrix") {
  const std::vector<double> g = {4, 2, 1,  //
                                 2, 5, 3,  //
                                 1, 3, 6};
  const RoundingFactor r = RoundingFactor::OfGram(g.data(), 3);
  REQUIRE(!r.empty());
  CHECK(!r.short_form());
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < i; ++j) CHECK(r(i, j) == 0.0);  // upper
  // The last column by hand: R[2][2]² = 6 + 0.05, R[i][2] = G[i][2] / R[2][2].
  CHECK(r(2, 2) == doctest::Approx(std::sqrt(6.05)));
  CHECK(r(0, 2) == doctest::Approx(1 / std::sqrt(6.05)));
  CHECK(r(1, 2) == doctest::Approx(3 / std::sqrt(6.05)));
  CHECK(WorstProductError(r, g, 3) < 1e-6 * g[8]);
}

TEST_CASE("compensated rounding: an input that is always zero still gets a factor") {
  const std::vector<double> g = {0, 0,  //
                                 0, 2};
  const RoundingFactor r = RoundingFactor::OfGram(g.data(), 2);
  REQUIRE(!r.empty());
  // Diagonal (0 → 1) + 0.01·mean(0, 2): R = diag(√1.01, √2.01).
  CHECK(r(0, 0) == doctest::Approx(std::sqrt(1.01)));
  CHECK(r(0, 1) == 0.0);
  CHECK(r(1, 1) == doctest::Approx(std::sqrt(2.01)));
  // The same from the patches: input 0 is 0 on both samples, input 1 is 1.
  const std::vector<float> v = {0, 0,  //
                                1, 1};
  const RoundingFactor s = RoundingFactor::OfPatches(v.data(), 2, 2);
  REQUIRE(!s.empty());
  CHECK(s.short_form());
  CHECK(s(0, 0) == doctest::Approx(std::sqrt(1.01)));
  CHECK(s(0, 1) == 0.0);
  CHECK(s(1, 1) == doctest::Approx(std::sqrt(2.01)));
}

TEST_CASE("compensated rounding: a not positive definite matrix gives no factor") {
  const std::vector<double> g = {1, 3,   //
                                 3, 1};  // eigenvalues 4 and −2
  CHECK(RoundingFactor::OfGram(g.data(), 2).empty());
}

TEST_CASE("compensated rounding: a sum that overflowed gives no factor") {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> g = {1, inf, inf, 1e300};
  CHECK(RoundingFactor::OfGram(g.data(), 2).empty());
  const std::vector<float> v = {1, std::numeric_limits<float>::infinity(), 1, 1};
  CHECK(RoundingFactor::OfPatches(v.data(), 2, 2).empty());
}

TEST_CASE("compensated rounding: two inputs that always agree share one rounding error") {
  // x0 = x1 on every sample: G = [[1, 1], [1, 1]], damped to [[1.01, 1], [1, 1.01]].
  // w = (0.4, 0.4): nearest gives (0, 0), an output error of 0.8·x. Rounding
  // w0 to 0 leaves 0.4; w1 is rounded from 0.4 + 0.4 · R[0][1] / R[1][1] =
  // 0.4 + 0.4 / 1.01 = 0.796 (R[1][1] = √1.01, R[0][1] = 1/√1.01), which
  // rounds to 1: the output is 1·x, an error of 0.2·x. The same from the
  // one sample's patch (1, 1), in the short form.
  const std::vector<double> g = {1, 1, 1, 1};
  const std::vector<float> v = {1, 1};
  for (const RoundingFactor& r :
       {RoundingFactor::OfGram(g.data(), 2), RoundingFactor::OfPatches(v.data(), 2, 1)}) {
    CAPTURE(r.short_form());
    std::vector<double> w = {0.4, 0.4};
    r.Round(w, 1, [](double* x, int64_t count) {
      REQUIRE(count == 1);
      if (x[0] != 0.4) CHECK(x[0] == doctest::Approx(0.4 + 0.4 / 1.01));
      x[0] = Nearest(x[0]);
    });
    CHECK(w == std::vector<double>{0.0, 1.0});
    CHECK(OutputError({0.4, 0.4}, w, g) == doctest::Approx(0.04));
    CHECK(OutputError({0.4, 0.4}, {0.0, 0.0}, g) == doctest::Approx(0.64));
  }
}

TEST_CASE("compensated rounding: independent inputs round each weight to nearest") {
  const std::vector<double> g = {2, 0, 0, 3};
  std::vector<double> w = {0.4, -1.6};
  RoundingFactor::OfGram(g.data(), 2).Round(w, 1, NearestColumn);
  CHECK(w == std::vector<double>{0.0, -2.0});
}

TEST_CASE("compensated rounding: inputs of opposite sign push the next weight the other way") {
  // x1 = −x0: G = [[1, −1], [−1, 1]]. Nearest gives (0, 1), an output error
  // of 0.4·x0 − 0.4·x1 = 0.8·x0. Compensated: rounding w0 down by 0.4 moves
  // w1 by −0.4/1.01 to 0.204, which rounds to 0: the error is 0.4·x0 +
  // 0.6·x1 = −0.2·x0.
  const std::vector<double> g = {1, -1, -1, 1};
  const std::vector<float> v = {1, -1};
  for (const RoundingFactor& r :
       {RoundingFactor::OfGram(g.data(), 2), RoundingFactor::OfPatches(v.data(), 2, 1)}) {
    CAPTURE(r.short_form());
    std::vector<double> w = {0.4, 0.6};
    r.Round(w, 1, NearestColumn);
    CHECK(w == std::vector<double>{0.0, 0.0});
    CHECK(OutputError({0.4, 0.6}, w, g) == doctest::Approx(0.04));
    CHECK(OutputError({0.4, 0.6}, {0.0, 1.0}, g) == doctest::Approx(0.64));
  }
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

TEST_CASE("compensated rounding: a large factor multiplies back to the damped Gram matrix") {
  const int64_t n = 150;  // past Eigen's blocking
  const std::vector<double> g = RandomGram(n, 400, 7);
  const RoundingFactor r = RoundingFactor::OfGram(g.data(), n);
  REQUIRE(!r.empty());
  CHECK(WorstProductError(r, g, n) < 1e-6 * g[0]);
}

/// `rows` (count × n) rounded on RowGrid by OPTQ's update written
/// out weight by weight: with U = R⁻¹ (by back substitution), rounding w_j
/// to q moves every later w_k by −(w_j − q)·U[j][k] / U[j][j].
std::vector<double> OptqByHand(const RoundingFactor& r, std::vector<double> rows, int64_t count) {
  const int64_t n = r.dim();
  std::vector<double> u(static_cast<size_t>(n * n), 0.0);
  const auto at = [&](int64_t i, int64_t j) -> double& {
    return u[static_cast<size_t>(i * n + j)];
  };
  for (int64_t j = 0; j < n; ++j) {  // column j of U: R U = I
    at(j, j) = 1.0 / r(j, j);
    for (int64_t i = j - 1; i >= 0; --i) {
      double sum = 0.0;
      for (int64_t k = i + 1; k <= j; ++k) sum += r(i, k) * at(k, j);
      at(i, j) = -sum / r(i, i);
    }
  }
  for (int64_t row = 0; row < count; ++row) {
    double* w = rows.data() + row * n;
    for (int64_t j = 0; j < n; ++j) {
      const double q = RowGrid(row, w[j]);
      for (int64_t k = j + 1; k < n; ++k) w[k] -= (w[j] - q) / at(j, j) * at(j, k);
      w[j] = q;
    }
  }
  return rows;
}

std::vector<double> SomeWeights(int64_t size) {
  std::vector<double> rows(static_cast<size_t>(size));
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = 3.0 * std::sin(0.37 * static_cast<double>(i));
  return rows;
}

TEST_CASE("compensated rounding: rows in blocks round as OPTQ's update one weight at a time") {
  // The blocked form (kRoundingBlock columns, then one product for the
  // rest) against the update written out, on 5 rows of 150.
  const int64_t n = 150, count = 5;
  const std::vector<double> g = RandomGram(n, 400, 11);
  const RoundingFactor r = RoundingFactor::OfGram(g.data(), n);
  REQUIRE(!r.empty());
  std::vector<double> rows = SomeWeights(n * count);
  const std::vector<double> expected = OptqByHand(r, rows, count);
  r.Round(rows, count, RowGridColumn);
  CHECK(rows == expected);
}

TEST_CASE("compensated rounding: a factor kept as its upper triangle, the same products") {
  // Up to kPackedFactorDim only R's upper triangle is stored (depthwise
  // factors by the ten thousand); it must multiply back and round as the
  // update written out, like the whole matrix of the 150-input tests.
  const int64_t n = 40, count = 3;
  static_assert(n <= kPackedFactorDim && n > kRoundingBlock / 2);
  const std::vector<double> g = RandomGram(n, 100, 13);
  const RoundingFactor r = RoundingFactor::OfGram(g.data(), n);
  REQUIRE(!r.empty());
  CHECK(WorstProductError(r, g, n) < 1e-6 * g[0]);
  std::vector<double> rows = SomeWeights(n * count);
  const std::vector<double> expected = OptqByHand(r, rows, count);
  r.Round(rows, count, RowGridColumn);
  CHECK(rows == expected);
}

TEST_CASE("compensated rounding: fewer samples than inputs, the short form is the same factor") {
  // 40 samples of 150 inputs: R from the patches against R from their Gram
  // matrix, entry by entry, and the same roundings.
  const int64_t n = 150, samples = 40, count = 5;
  std::vector<float> v(static_cast<size_t>(n * samples));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(std::sin(0.7 * static_cast<double>(i)) +
                              0.5 * std::cos(0.013 * static_cast<double>(i)));
  std::vector<double> g(static_cast<size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t s = 0; s < samples; ++s)
        g[static_cast<size_t>(i * n + j)] +=
            static_cast<double>(v[static_cast<size_t>(i * samples + s)]) *
            static_cast<double>(v[static_cast<size_t>(j * samples + s)]);
  const RoundingFactor whole = RoundingFactor::OfGram(g.data(), n);
  const RoundingFactor short_form = RoundingFactor::OfPatches(v.data(), n, samples);
  REQUIRE(!whole.empty());
  REQUIRE(short_form.short_form());
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j)
      worst = std::max(worst, std::fabs(whole(i, j) - short_form(i, j)));
  CHECK(worst < 1e-6);  // both kept in float
  std::vector<double> a = SomeWeights(n * count), b = a;
  const std::vector<double> expected = OptqByHand(short_form, a, count);
  whole.Round(a, count, RowGridColumn);
  short_form.Round(b, count, RowGridColumn);
  CHECK(b == expected);
  CHECK(a == b);
}

}  // namespace
}  // namespace opuc::quant
