// i8 max_pool2d, avg_pool2d, mean (docs/numerics.md §5) and softmax (§8).
#include "integer_test_util.h"

namespace opuc {
namespace {

using namespace testing;

Attributes Pool(int64_t h, int64_t w, std::string padding = "valid", int64_t stride = 1,
                std::string activation = "none") {
  return A({{"filter", IntList({h, w})},
            {"padding", Str(std::move(padding))},
            {"strides", IntList({stride, stride})},
            {"activation", Str(std::move(activation))}});
}

TEST_CASE("E18: max_pool2d takes the int8 max, then requantizes") {
  // Window [-7, -3, -12], f_out = f_in - 1: m = -3, (-3 + 1) >> 1 = -1 (-1.5 ties up).
  QRun r = RunQ(OpKind::kMaxPool2D, {Q({1, 1, 3, 1}, {-7, -3, -12}, 4)}, 3, Pool(1, 3));
  CHECK(Ok(r) == Q8{-1});
}

TEST_CASE("max_pool2d: border windows, S < 0 saturation, fused relu6") {
  // 2x2 input [1 2; 3 4], 3x3 SAME, stride 1: every window covers what it reaches:
  // (0,0): max(1,2,3,4) = 4; all four windows hold the whole input -> 4.
  QRun r = RunQ(OpKind::kMaxPool2D, {Q({1, 2, 2, 1}, {1, 2, 3, 4}, 0)}, 0, Pool(3, 3, "same"));
  CHECK(Ok(r) == Q8{4, 4, 4, 4});
  // 1x2 windows of [-100, 50 | 60, 70] at f 0 -> f 2: 50 * 4 = 200 -> 127, 70 * 4 -> 127.
  r = RunQ(OpKind::kMaxPool2D, {Q({1, 1, 4, 1}, {-100, 50, 60, 70}, 0)}, 2, Pool(1, 2, "valid", 2));
  CHECK(Ok(r) == Q8{127, 127});
  // -100 alone at f 0 -> f 1: -200 -> -128; relu6 at f 1 would clamp to [0, 12].
  r = RunQ(OpKind::kMaxPool2D, {Q({1, 1, 2, 1}, {-100, 7}, 0)}, 1, Pool(1, 1));
  CHECK(Ok(r) == Q8{-128, 14});
  r = RunQ(OpKind::kMaxPool2D, {Q({1, 1, 2, 1}, {-100, 7}, 0)}, 1, Pool(1, 1, "valid", 1, "relu6"));
  CHECK(Ok(r) == Q8{0, 12});
}

TEST_CASE("E19: avg_pool2d rounds half up by exact division") {
  // Interior 3x3 window: sum 97, count 9 -> rhu_div(97, 9) = 11 (10.78).
  QRun r = RunQ(OpKind::kAvgPool2D, {Q({1, 3, 3, 1}, {10, 11, 11, 12, 13, 9, 10, 10, 11}, 3)}, 3,
                Pool(3, 3));
  CHECK(Ok(r) == Q8{11});
  // A 3x3 SAME window, stride 2, on a 2x2 input: padding before is 0, so the window covers
  // the 4 elements of the input: [5, 6, 6, 6] -> rhu_div(23, 4) = 6 (5.75; truncation gave 5).
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 2, 2, 1}, {5, 6, 6, 6}, 3)}, 3, Pool(3, 3, "same", 2));
  CHECK(Ok(r) == Q8{6});
  // [-3, -4, -4, -3]: sum -14 -> floordiv(-24, 8) = -3 (-3.5 ties up).
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 2, 2, 1}, {-3, -4, -4, -3}, 3)}, 3, Pool(3, 3, "same", 2));
  CHECK(Ok(r) == Q8{-3});
}

TEST_CASE("avg_pool2d: ties, border counts, f change, saturation, fused relu") {
  // 1x2 windows: [1, 0] -> 0.5 -> 1; [-1, 0] -> -0.5 -> 0.
  QRun r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 4, 1}, {1, 0, -1, 0}, 0)}, 0, Pool(1, 2, "valid", 2));
  CHECK(Ok(r) == Q8{1, 0});
  // 1x3 SAME over [3, 4, 8]: padding 1 before; windows {3,4} -> 3.5 -> 4, {3,4,8} -> 5,
  // {4,8} -> 6.
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 3, 1}, {3, 4, 8}, 0)}, 0, Pool(1, 3, "same"));
  CHECK(Ok(r) == Q8{4, 5, 6});
  // d = f_out - f_in = 2: [100, 100] -> rhu_div(200 * 4, 2) = 400 -> 127; negative -> -128.
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 4, 1}, {100, 100, -100, -100}, 0)}, 2,
           Pool(1, 2, "valid", 2));
  CHECK(Ok(r) == Q8{127, -128});
  // d = -1: [5, 6] -> rhu_div(11, 2 * 2) = floordiv(26, 8) = 3 (2.75).
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 2, 1}, {5, 6}, 4)}, 3, Pool(1, 2));
  CHECK(Ok(r) == Q8{3});
  // f_in -8, f_out 15: d = 23, [1] -> 2^23 -> 127.
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 1, 1}, {1}, -8)}, 15, Pool(1, 1));
  CHECK(Ok(r) == Q8{127});
  r = RunQ(OpKind::kAvgPool2D, {Q({1, 1, 2, 1}, {-5, -6}, 0)}, 0, Pool(1, 2, "valid", 1, "relu"));
  CHECK(Ok(r) == Q8{0});
}

TEST_CASE("E20: mean over a 7x7 plane") {
  // 48 values of 20 and one 40: sum 1000, count 49, f_in 4.
  Q8 plane(49, 20);
  plane[24] = 40;
  Attributes axes = A({{"axes", IntList({1, 2})}});
  // f_out 5 (d = 1): rhu_div(2000, 49) = floordiv(4049, 98) = 41 (40.82).
  CHECK(Ok(RunQ(OpKind::kMean, {Q({1, 7, 7, 1}, plane, 4)}, 5, axes)) == Q8{41});
  // f_out 3 (d = -1): rhu_div(1000, 98) = floordiv(2098, 196) = 10 (10.20).
  CHECK(Ok(RunQ(OpKind::kMean, {Q({1, 7, 7, 1}, plane, 4)}, 3, axes)) == Q8{10});
}

TEST_CASE("mean: ties, saturation, an empty reduction") {
  Attributes last = A({{"axes", IntList({-1})}});
  // Rows [1, 0] -> 1 (0.5 up), [-1, 0] -> 0 (-0.5 up), [127, 127] -> 127. Then f 0 -> f 1:
  // [-128, -128] -> rhu_div(-256 * 2, 2) = -256 -> -128.
  CHECK(Ok(RunQ(OpKind::kMean, {Q({3, 2}, {1, 0, -1, 0, 127, 127}, 0)}, 0, last)) == Q8{1, 0, 127});
  CHECK(Ok(RunQ(OpKind::kMean, {Q({1, 2}, {-128, -128}, 0)}, 1, last)) == Q8{-128});
  // Reducing an axis of extent 0 gives 0.
  CHECK(Ok(RunQ(OpKind::kMean, {Q({2, 0}, {}, 0)}, 0, last)) == Q8{0, 0});
}

Q8 ExpTable(std::vector<std::pair<size_t, int64_t>> entries) {
  Q8 table(256, 0);
  table[0] = 32768;
  for (auto [d, e] : entries) table[d] = e;
  return table;
}

TEST_CASE("E26: integer softmax with the exp table") {
  // Row [40, 32, 0] at f_in 4, beta 1, f_out 7: d = [0, 8, 40]; E[8] = 19 875,
  // E[40] = 2690 (the page's values); sum = 55 333 -> [76, 46, 6].
  QRun r = RunQ(OpKind::kSoftmax,
                {Q({1, 3}, {40, 32, 0}, 4), I32C({256}, ExpTable({{8, 19875}, {40, 2690}}))}, 7);
  CHECK(Ok(r) == Q8{76, 46, 6});
}

TEST_CASE("softmax: 1.0 saturates, rows are independent, f_out 0") {
  // A single element: E[0] * 2^7 / E[0] = 128 -> 127. Row [5, 5]: 64 each (0.5 * 128).
  QRun r = RunQ(OpKind::kSoftmax, {Q({3, 1}, {-128, 0, 127}, 4), I32C({256}, ExpTable({}))}, 7);
  CHECK(Ok(r) == Q8{127, 127, 127});
  r = RunQ(OpKind::kSoftmax, {Q({2, 2}, {5, 5, 0, 1}, 0), I32C({256}, ExpTable({{1, 16384}}))}, 7);
  // Row [0, 1]: m = 1, d = [1, 0]: E = [16384, 32768], sum 49 152:
  // rhu_div(16384 * 128, 49152) = 42.67 -> 43; rhu_div(32768 * 128, 49152) = 85.33 -> 85.
  CHECK(Ok(r) == Q8{64, 64, 43, 85});
  // f_out 0: [0.5, 0.5] -> rhu(0.5) = 1 each.
  r = RunQ(OpKind::kSoftmax, {Q({1, 2}, {5, 5}, 0), I32C({256}, ExpTable({}))}, 0);
  CHECK(Ok(r) == Q8{1, 1});
}

TEST_CASE("softmax: error paths") {
  // f_out < 0.
  QRun r = RunQ(OpKind::kSoftmax, {Q({1, 2}, {5, 5}, 0), I32C({256}, ExpTable({}))}, -1);
  CHECK(
      Contains(r.error(), "output (tensor 'op') has fraction length -1; an integer softmax needs"));
  // E[0] is not 32768, an entry above 32768.
  Q8 bad = ExpTable({});
  bad[0] = 100;
  r = RunQ(OpKind::kSoftmax, {Q({1, 2}, {5, 5}, 0), I32C({256}, bad)}, 7);
  CHECK(Contains(r.error(), "input 'exp_table' (tensor 'in1') has entry 0 = 100; expected 32768"));
  bad = ExpTable({{7, 32769}});
  r = RunQ(OpKind::kSoftmax, {Q({1, 2}, {5, 5}, 0), I32C({256}, bad)}, 7);
  CHECK(Contains(r.error(), "has entry 7 = 32769; expected one in [0, 32768]"));
  // No table for an i8 input: inference rejects the node.
  r = RunQ(OpKind::kSoftmax, {Q({1, 2}, {5, 5}, 0)}, 7);
  CHECK(Contains(r.error(), "input 'exp_table' is absent; an i8 softmax needs its i32[256] table"));
}

TEST_CASE("pools and mean: a missing fixed point names the tensor") {
  QOperand in = Q({1, 1, 1, 1}, {1}, 0);
  in.fixed_point = {};
  QRun r = RunQ(OpKind::kAvgPool2D, {in}, 0, Pool(1, 1));
  CHECK(Contains(r.status.message(), "input 'input' (tensor 'in0') is i8 without a fixed point"));
  r = RunQ(OpKind::kMaxPool2D, {Q({1, 1, 1, 1}, {1}, 0)}, 0, Pool(1, 1, "valid", 1, "tanh"));
  CHECK(Contains(r.status.message(), "fused tanh"));
}

}  // namespace
}  // namespace opuc
