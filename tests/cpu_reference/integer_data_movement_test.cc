// i8 concat, pad, reshape, depth_to_space, resize_nearest, resize_bilinear of
// a quantized graph (docs/numerics.md §5, §7): values move bit for bit, or
// become requant(q, f_in - f_out) when the fraction lengths differ.
#include "integer_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("E17: concat requantizes each input to f_out") {
  // f_out 4: input at f 5: 77 -> (77 + 1) >> 1 = 39, -77 -> -76 >> 1 = -38 (-38.5 ties up);
  // input at f 3: 100 -> 200 -> 127.
  Attributes axis0 = A({{"axis", I64(0)}});
  QRun r = RunQ(OpKind::kConcat, {Q({2}, {77, -77}, 5), Q({1}, {100}, 3)}, 4, axis0);
  CHECK(Ok(r) == Q8{39, -38, 127});
  // With a fused relu: -38 -> 0.
  r = RunQ(OpKind::kConcat, {Q({2}, {77, -77}, 5), Q({1}, {100}, 3)}, 4,
           A({{"axis", I64(0)}, {"activation", Str("relu")}}));
  CHECK(Ok(r) == Q8{39, 0, 127});
  // Equal fraction lengths: a copy, along the last axis of [2, 1] and [2, 2].
  r = RunQ(OpKind::kConcat, {Q({2, 1}, {1, 2}, 6), QC({2, 2}, {3, 4, 5, 6}, 6)}, 6,
           A({{"axis", I64(-1)}}));
  CHECK(Ok(r) == Q8{1, 3, 4, 2, 5, 6});
}

TEST_CASE("E21: pad with a value quantized at the output's f") {
  // f = 5: -1.0 -> -32, 6.0 -> 192 -> 127 (the quantizer stores these integers).
  Attributes pads = A({{"pads", IntList({1, 1})}, {"value", Real(-32)}});
  CHECK(Ok(RunQ(OpKind::kPad, {Q({1}, {10}, 5)}, 5, pads)) == Q8{-32, 10, -32});
  pads = A({{"pads", IntList({1, 0})}, {"value", Real(127)}});
  CHECK(Ok(RunQ(OpKind::kPad, {Q({1}, {10}, 5)}, 5, pads)) == Q8{127, 10});
  // f_in 5 -> f_out 4: the moved element 77 -> 39; the value 0 stays 0.
  pads = A({{"pads", IntList({1, 1})}});
  CHECK(Ok(RunQ(OpKind::kPad, {Q({1}, {77}, 5)}, 4, pads)) == Q8{0, 39, 0});
  // A value that is not an i8 integer.
  pads = A({{"pads", IntList({1, 1})}, {"value", Real(200)}});
  CHECK(Contains(RunQ(OpKind::kPad, {Q({1}, {10}, 5)}, 5, pads).error(),
                 "attribute 'value' is 200; expected an integer in the i8 range"));
}

TEST_CASE("reshape and depth_to_space requantize when f changes") {
  Attributes shape = A({{"new_shape", IntList({1, 2})}});
  CHECK(Ok(RunQ(OpKind::kReshape, {Q({2}, {77, -77}, 5)}, 5, shape)) == Q8{77, -77});
  CHECK(Ok(RunQ(OpKind::kReshape, {Q({2}, {77, -77}, 5)}, 4, shape)) == Q8{39, -38});
  // f -8 -> 15: S = -23 saturates both ends.
  CHECK(Ok(RunQ(OpKind::kReshape, {Q({2}, {1, -1}, -8)}, 15, shape)) == Q8{127, -128});
  // Block 2 of [1,1,1,4] = [77, -77, 1, -1] in DCR order, then f 5 -> 4:
  // [39, -38, 1 (0.5 up), 0 (-0.5 up)].
  QRun r = RunQ(OpKind::kDepthToSpace, {Q({1, 1, 1, 4}, {77, -77, 1, -1}, 5)}, 4,
                A({{"block_size", I64(2)}}));
  CHECK(Ok(r) == Q8{39, -38, 1, 0});
  CHECK(r.shape == Shape{1, 2, 2, 1});
  // The input without a fixed point while the output has one.
  QOperand in = Q({2}, {1, 2}, 0);
  in.fixed_point = {};
  CHECK(Contains(RunQ(OpKind::kReshape, {in}, 0, shape).error(),
                 "input 'input' (tensor 'in0') is i8 without a fixed point"));
}

Attributes Resize(int64_t h, int64_t w, bool align_corners, bool half_pixel) {
  return A({{"size", IntList({h, w})},
            {"align_corners", Flag(align_corners)},
            {"half_pixel_centers", Flag(half_pixel)}});
}

TEST_CASE("E22: resize_nearest in exact rational arithmetic") {
  // 3 -> 5 half-pixel: sources 0, 0, 1, 2, 2; default: 0, 0, 1, 1, 2.
  QOperand row3 = Q({1, 1, 3, 1}, {10, 20, 30}, 4);
  CHECK(Ok(RunQ(OpKind::kResizeNearest, {row3}, 4, Resize(1, 5, false, true))) ==
        Q8{10, 10, 20, 30, 30});
  CHECK(Ok(RunQ(OpKind::kResizeNearest, {row3}, 4, Resize(1, 5, false, false))) ==
        Q8{10, 10, 20, 20, 30});
  // 2 -> 3 align_corners: 0, 1, 1.
  CHECK(Ok(RunQ(OpKind::kResizeNearest, {Q({1, 1, 2, 1}, {10, 20}, 4)}, 4,
                Resize(1, 3, true, false))) == Q8{10, 20, 20});
  // f 5 -> 4 requantizes the copied values: 77 -> 39, -77 -> -38.
  CHECK(Ok(RunQ(OpKind::kResizeNearest, {Q({1, 1, 2, 1}, {77, -77}, 5)}, 4,
                Resize(1, 4, false, false))) == Q8{39, 39, -38, -38});
}

TEST_CASE("E23: resize_bilinear with 10 fraction bits, 2 -> 4 on [16, 48]") {
  QOperand row = Q({1, 1, 2, 1}, {16, 48}, 3);
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {row}, 3, Resize(1, 4, false, false))) ==
        Q8{16, 32, 48, 48});
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {row}, 3, Resize(1, 4, false, true))) ==
        Q8{16, 24, 40, 48});
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {row}, 3, Resize(1, 4, true, false))) ==
        Q8{16, 27, 37, 48});
  // f_out 2: requant(acc, 21) halves the default row: [8, 16, 24, 24].
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {row}, 2, Resize(1, 4, false, false))) ==
        Q8{8, 16, 24, 24});
}

TEST_CASE("resize_bilinear: both axes, ties, saturation") {
  // 2x2 [0 60; 60 120] -> 3x3 align_corners: P = 0, 512, 1024 per axis; the centre is
  // (0 + 60 + 60 + 120) * 512 * 512 >> 20 = 240 / 4 = 60, edges are pairwise means.
  QRun r = RunQ(OpKind::kResizeBilinear, {Q({1, 2, 2, 1}, {0, 60, 60, 120}, 0)}, 0,
                Resize(3, 3, true, false));
  CHECK(Ok(r) == Q8{0, 30, 60, 30, 60, 90, 60, 90, 120});
  // Default 2 -> 4 on [0, 1]: x = 1 is 0.5 -> 1; on [-1, 0]: -0.5 -> 0.
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {Q({1, 1, 2, 1}, {0, 1}, 0)}, 0,
                Resize(1, 4, false, false))) == Q8{0, 1, 1, 1});
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {Q({1, 1, 2, 1}, {-1, 0}, 0)}, 0,
                Resize(1, 4, false, false))) == Q8{-1, 0, 0, 0});
  // f 0 -> 2 (requant by 18 = 20 + 0 - 2): 100 * 4 -> 127, -100 * 4 -> -128.
  CHECK(Ok(RunQ(OpKind::kResizeBilinear, {Q({1, 1, 1, 2}, {100, -100}, 0)}, 2,
                Resize(1, 1, false, false))) == Q8{127, -128});
}

}  // namespace
}  // namespace opuc
