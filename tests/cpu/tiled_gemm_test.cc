//===- tests/cpu/tiled_gemm_test.cc - Register tiles -------------===//
//
// TiledGemmABt against the product written out, on integer-valued floats
// (every sum exact, so equality is bit for bit whatever the order): every
// column count from 1 to 70 (each panel width, full and partial panels) and
// row counts that leave every remainder of a tile, with strided operands.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "tiled_gemm.h"

namespace opuc::cpu {
namespace {

TEST_CASE("tiled GEMM: every width and row remainder equals the product written out") {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> value(-9, 9);
  for (int64_t n = 1; n <= 70; ++n)
    for (int64_t rows : {1, 5, 6, 7, 11, 12, 13, 25})
      for (int64_t k : {1, 3, 24}) {
        const int64_t lda = k + 2, ldb = k + 1;  // strided: a view of wider rows
        std::vector<float> a(static_cast<size_t>(rows * lda)), b(static_cast<size_t>(n * ldb));
        for (float& v : a) v = static_cast<float>(value(rng));
        for (float& v : b) v = static_cast<float>(value(rng));
        std::vector<float> out(static_cast<size_t>(rows * n), -1.0f);
        TiledGemmABt({a.data(), rows, k, lda}, {b.data(), n, k, ldb}, out.data());
        int wrong = 0;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < n; ++c) {
            float sum = 0;
            for (int64_t p = 0; p < k; ++p)
              sum += a[static_cast<size_t>(r * lda + p)] * b[static_cast<size_t>(c * ldb + p)];
            wrong += out[static_cast<size_t>(r * n + c)] != sum;
          }
        INFO("rows " << rows << ", n " << n << ", k " << k);
        CHECK(wrong == 0);
      }
}

TEST_CASE("tiled GEMM: chosen for narrow products, not for one or two channels or long sums") {
  CHECK(PrefersTiledGemm(4096, 24, 24));
  CHECK(PrefersTiledGemm(64, 6, 96));
  CHECK_FALSE(PrefersTiledGemm(65536, 1, 72));  // a panel of 4 would be three quarters zeros
  CHECK_FALSE(PrefersTiledGemm(1024, 128, 1152));
  CHECK_FALSE(PrefersTiledGemm(1, 64, 64));
}

}  // namespace
}  // namespace opuc::cpu
