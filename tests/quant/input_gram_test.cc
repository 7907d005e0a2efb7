// The Gram matrices of inner-product inputs (src/quant/input_gram.h), summed
// by hand over the patches each output position reads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <random>

#include "input_gram.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "pass/pass_test_util.h"

namespace opuc::quant {
namespace {

using testing::Build;

TEST_CASE("input gram: a 3x3 SAME conv2d sees zeros outside the input") {
  // Input 2x2 [[1, 2], [3, 4]]; each output position reads a 3x3 window
  // centred on it. Tap (1,1) is the centre: Σ x² = 1 + 4 + 9 + 16 = 30.
  // Tap (1,2) is the right neighbour, inside only for the left column:
  // Σ centre·right = 1·2 + 3·4 = 14. Tap (0,0) (up-left) is inside only at
  // output (1,1), where it reads 1: G[(0,0)][(0,0)] = 1, G[(0,0)][(1,1)] = 1·4.
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 1});
  TensorId w = b.ConstantF32("w", {1, 3, 3, 1}, std::vector<float>(9, 1.0f));
  b.Output(
      b.Op(OpKind::kConv2D, "conv", {x, w}, testing::Attrs({{"padding", std::string("same")}})));
  Graph g = Build(std::move(b));
  InputGram gram;
  AccumulateInputGram(g, g.nodes[0], testing::F32Tensor({1, 2, 2, 1}, {1, 2, 3, 4}), gram);
  REQUIRE(gram.dim == 9);
  CHECK(gram.groups == 1);
  CHECK(gram.samples == 4);  // 4 patches of 9 inputs: kept as they are
  CHECK(gram.values.empty());
  const std::vector<double> m = gram.Matrix(0);
  auto at = [&](int a, int b2) { return m[static_cast<size_t>(a * 9 + b2)]; };
  CHECK(at(4, 4) == 30.0);
  CHECK(at(4, 5) == 14.0);
  CHECK(at(5, 4) == 14.0);
  CHECK(at(0, 0) == 1.0);
  CHECK(at(0, 4) == 4.0);
  CHECK(at(8, 8) == 16.0);  // down-right: inside only at output (0,0), where it reads 4
}

TEST_CASE(
    "input gram: depthwise keeps one matrix per input channel, fully connected one over rows") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 2, 2});
  TensorId w = b.ConstantF32("w", {1, 1, 1, 2}, {1.0f, 1.0f});
  TensorId y = b.Op(OpKind::kDepthwiseConv2D, "dw", {x, w});
  TensorId fw = b.ConstantF32("fw", {1, 2}, {1.0f, 1.0f});
  b.Output(b.Op(
      OpKind::kFullyConnected, "fc",
      {b.Op(OpKind::kReshape, "flat", {y}, testing::Attrs({{"new_shape", testing::Ints({2, 2})}})),
       fw}));
  Graph g = Build(std::move(b));
  // Pixels (c0, c1) = (1, 2) and (3, 4): channel 0 sees 1 and 3 (Σ = 10),
  // channel 1 sees 2 and 4 (Σ = 20).
  InputGram dw;
  AccumulateInputGram(g, g.nodes[0], testing::F32Tensor({1, 1, 2, 2}, {1, 2, 3, 4}), dw);
  CHECK(dw.dim == 1);
  CHECK(dw.groups == 2);
  CHECK(dw.values == std::vector<double>{10, 20});
  // Rows (1, 2) and (3, 4): G = [[1+9, 2+12], [2+12, 4+16]].
  InputGram fc;
  AccumulateInputGram(g, g.nodes[2], testing::F32Tensor({2, 2}, {1, 2, 3, 4}), fc);
  CHECK(fc.dim == 2);
  CHECK(fc.values == std::vector<double>{10, 14, 14, 20});
}

TEST_CASE("input gram: depthwise matrices, both triangles, for channels across blocks") {
  // Width 3, a 1x2 window, no padding: positions read pixels (0, 1) and
  // (1, 2). Pixel w of channel c holds k·(w+1), k = c + 1, so channel c's
  // G = k²·[[1+4, 1·2+2·3], [2·1+3·2, 4+9]] = k²·[[5, 8], [8, 13]]. 66
  // channels: more than one block of channels, on two threads.
  constexpr int64_t kChannels = 66;
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 3, kChannels});
  TensorId w = b.ConstantF32("w", {1, 1, 2, kChannels}, std::vector<float>(2 * kChannels, 1.0f));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {x, w}));
  Graph g = Build(std::move(b));
  std::vector<float> pixels;
  for (int64_t px = 0; px < 3; ++px)
    for (int64_t c = 0; c < kChannels; ++c)
      pixels.push_back(static_cast<float>((c + 1) * (px + 1)));
  InputGram gram;
  AccumulateInputGram(g, g.nodes[0], testing::F32Tensor({1, 1, 3, kChannels}, pixels), gram, 2);
  REQUIRE(gram.dim == 2);
  REQUIRE(gram.groups == kChannels);
  for (int64_t c = 0; c < kChannels; ++c) {
    const auto k2 = static_cast<double>((c + 1) * (c + 1));
    CHECK(gram.Matrix(c) == std::vector<double>{5 * k2, 8 * k2, 8 * k2, 13 * k2});
  }
}

/// The largest |G − exact| / √(G_ii·G_jj) over the entries of `gram`'s group
/// `group`, exact being Σ x_a·x_b over `patches` (one row of dim inputs a
/// patch) summed in double, which holds each float product exactly.
double WorstRelativeError(const InputGram& gram, int64_t group,
                          const std::vector<std::vector<float>>& patches) {
  const int64_t dim = gram.dim;
  const std::vector<double> got = gram.Matrix(group);
  std::vector<double> exact(static_cast<size_t>(dim * dim), 0.0);
  for (const std::vector<float>& x : patches)
    for (int64_t a = 0; a < dim; ++a)
      for (int64_t b = 0; b < dim; ++b)
        exact[static_cast<size_t>(a * dim + b)] +=
            static_cast<double>(x[static_cast<size_t>(a)]) * x[static_cast<size_t>(b)];
  double worst = 0.0;
  for (int64_t a = 0; a < dim; ++a)
    for (int64_t b = 0; b < dim; ++b) {
      const auto at = [&](int64_t i, int64_t j) { return exact[static_cast<size_t>(i * dim + j)]; };
      const double scale = std::sqrt(at(a, a) * at(b, b));
      worst = std::max(worst, std::abs(got[static_cast<size_t>(a * dim + b)] - at(a, b)) / scale);
    }
  return worst;
}

TEST_CASE("input gram: summed in float, a full-size layer's matrix is within 1e-5 of exact") {
  // 4096 patches (kMaxGramPositions) of random values of mixed signs: a
  // fully connected layer of 256 inputs (the blocked products) and a
  // depthwise 3x3 over a 64x64 map (its float batches), against the sums
  // of the exact products. Float keeps about 7 digits a sum; 1e-5 of the
  // Cauchy-Schwarz scale leaves a margin and catches a sum in half
  // precision or a block added twice or left out.
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(-2.0f, 3.0f);
  constexpr int64_t kRows = 4096, kInputs = 256;
  std::vector<float> rows(static_cast<size_t>(kRows * kInputs));
  for (float& v : rows) v = value(random);
  {
    GraphBuilder b("net");
    TensorId x = b.Input("x", DType::kF32, {kRows, kInputs});
    TensorId w = b.ConstantF32("w", {1, kInputs}, std::vector<float>(kInputs, 1.0f));
    b.Output(b.Op(OpKind::kFullyConnected, "fc", {x, w}));
    Graph g = Build(std::move(b));
    InputGram gram;
    AccumulateInputGram(g, g.nodes[0], testing::F32Tensor({kRows, kInputs}, rows), gram, 2);
    std::vector<std::vector<float>> patches;
    for (int64_t r = 0; r < kRows; ++r) {
      const auto row = rows.begin() + static_cast<std::ptrdiff_t>(r * kInputs);  // 32 bits on armhf
      patches.emplace_back(row, row + kInputs);
    }
    CHECK(WorstRelativeError(gram, 0, patches) < 1e-5);
  }
  {
    constexpr int64_t kSide = 64, kChannels = 3;
    const std::vector<float> map(rows.begin(), rows.begin() + kSide * kSide * kChannels);
    GraphBuilder b("net");
    TensorId x = b.Input("x", DType::kF32, {1, kSide, kSide, kChannels});
    TensorId w = b.ConstantF32("w", {1, 3, 3, kChannels}, std::vector<float>(9 * kChannels, 1.0f));
    b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {x, w},
                  testing::Attrs({{"padding", std::string("valid")}})));
    Graph g = Build(std::move(b));
    InputGram gram;
    AccumulateInputGram(g, g.nodes[0], testing::F32Tensor({1, kSide, kSide, kChannels}, map), gram,
                        2);
    for (int64_t c = 0; c < kChannels; ++c) {
      std::vector<std::vector<float>> patches;  // every output position's 3x3 window
      for (int64_t y = 0; y + 3 <= kSide; ++y)
        for (int64_t x0 = 0; x0 + 3 <= kSide; ++x0) {
          std::vector<float> window;
          for (int64_t ky = 0; ky < 3; ++ky)
            for (int64_t kx = 0; kx < 3; ++kx)
              window.push_back(
                  map[static_cast<size_t>(((y + ky) * kSide + x0 + kx) * kChannels + c)]);
          patches.push_back(window);
        }
      CAPTURE(c);
      CHECK(WorstRelativeError(gram, c, patches) < 1e-5);
    }
  }
}

TEST_CASE("input gram: the collector sums each inner product's input over every run") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2});
  TensorId w = b.ConstantF32("w", {1, 2}, {1.0f, 1.0f});
  TensorId y = b.Op(OpKind::kFullyConnected, "fc", {x, w});
  b.Output(b.Op(OpKind::kTransposeConv2D, "up",
                {b.Op(OpKind::kReshape, "r", {y},
                      testing::Attrs({{"new_shape", testing::Ints({1, 1, 1, 1})}})),
                 b.ConstantF32("uw", {1, 1, 1, 1}, {1.0f})},
                testing::Attrs({{"output_shape", testing::Ints({1, 1, 1, 1})}})));
  Graph g = Build(std::move(b));
  InputGramCollector collector(g);
  // Rows (1, 2) and (3, 4) in two runs: G = [[1+9, 2+12], [2+12, 4+16]].
  // The first run's patch is kept as it is (1 of 2 inputs), the second's
  // passes dim / 2 and both are summed into the matrix.
  for (const std::vector<float>& v : {std::vector<float>{1, 2}, std::vector<float>{3, 4}})
    REQUIRE(
        RunReference(g, {testing::F32Tensor({1, 2}, v)}, [&](TensorId t, const HostTensor& value) {
          return collector.Observe(t, value);
        }).ok());
  const std::map<NodeId, InputGram> grams = std::move(collector).Take();
  REQUIRE(grams.size() == 1);  // not the transpose conv
  CHECK(grams.at(0).values == std::vector<double>{10, 14, 14, 20});
}

TEST_CASE("input gram: each node's matrices are factored once the last run showed them") {
  // A depthwise 1x2 window over width 3 (two channels), then a fully
  // connected layer. Factored as soon as the second of two runs showed
  // them (the depthwise channels on the spot, the fully connected matrix
  // on the spot with one thread, beside the run with two), the factors are
  // those FactorGrams makes from the summed matrices, and the matrices are
  // released. Told to wait for three runs, nothing is factored.
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 3, 2});
  TensorId dw =
      b.Op(OpKind::kDepthwiseConv2D, "dw", {x, b.ConstantF32("w", {1, 1, 2, 2}, {1, 1, 1, 1})});
  TensorId flat =
      b.Op(OpKind::kReshape, "r", {dw}, testing::Attrs({{"new_shape", testing::Ints({1, 4})}}));
  b.Output(b.Op(OpKind::kFullyConnected, "fc", {flat, b.ConstantF32("fw", {1, 4}, {1, 1, 1, 1})}));
  Graph g = Build(std::move(b));
  const std::vector<std::vector<float>> runs = {{1, -2, 3, 5, -4, 1}, {2, 7, -1, 3, 6, -5}};
  const auto collect = [&](int threads, int64_t factor_after) {
    InputGramCollector collector(g, threads, factor_after);
    for (const std::vector<float>& v : runs)
      REQUIRE(RunReference(
                  g, {testing::F32Tensor({1, 1, 3, 2}, v)},
                  [&](TensorId t, const HostTensor& value) { return collector.Observe(t, value); })
                  .ok());
    return std::move(collector).Take();
  };
  std::map<NodeId, InputGram> late = collect(1, 0), waiting = collect(2, 3);
  for (NodeId k : {0, 2}) {
    CHECK(waiting.at(k).factors.empty());
    CHECK(waiting.at(k).values == late.at(k).values);
  }
  FactorGrams(late, 1);
  for (const int threads : {1, 2}) {
    CAPTURE(threads);
    const std::map<NodeId, InputGram> early = collect(threads, 2);
    for (NodeId k : {0, 2}) {
      const InputGram& a = early.at(k);
      const InputGram& c = late.at(k);
      CHECK(a.values.empty());
      REQUIRE(a.factors.size() == c.factors.size());
      for (size_t group = 0; group < a.factors.size(); ++group) {
        REQUIRE(!a.factors[group].empty());
        REQUIRE(a.factors[group].dim() == c.factors[group].dim());
        for (int64_t i = 0; i < a.factors[group].dim(); ++i)
          for (int64_t j = 0; j < a.factors[group].dim(); ++j)
            CHECK(a.factors[group](i, j) == c.factors[group](i, j));
      }
    }
  }
}

}  // namespace
}  // namespace opuc::quant
