// resize_nearest and resize_bilinear: TFLite's coordinate transforms, at the
// borders, with align_corners and half_pixel_centers.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

Attributes Resize(int64_t h, int64_t w, bool align_corners = false, bool half_pixel = false) {
  return A({{"size", IntList({h, w})},
            {"align_corners", Flag(align_corners)},
            {"half_pixel_centers", Flag(half_pixel)}});
}

/// Resizes one row (shape [1,1,W,1]) to `width`.
std::vector<float> Row(OpKind op, std::vector<float> row, int64_t width, bool align_corners,
                       bool half_pixel) {
  const auto w = static_cast<int64_t>(row.size());
  OpRun r =
      RunOp(op, {F({1, 1, w, 1}, std::move(row))}, Resize(1, width, align_corners, half_pixel));
  REQUIRE(r.status.ok());
  return r.values;
}

TEST_CASE("resize_nearest 2x upsampling repeats each pixel") {
  // scale = 2/4 = 0.5; source = floor(y * 0.5) = 0, 0, 1, 1 on both axes.
  OpRun r = RunOp(OpKind::kResizeNearest, {F({1, 2, 2, 1}, {1, 2, 3, 4})}, Resize(4, 4));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 4, 4, 1});
  CHECK(r.values == std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST_CASE("resize_nearest downsampling 3 -> 2 in each mode") {
  const std::vector<float> row = {10, 20, 30};
  // Default: scale 1.5, floor(0) = 0, floor(1.5) = 1.
  CHECK(Row(OpKind::kResizeNearest, row, 2, false, false) == std::vector<float>{10, 20});
  // Half-pixel: floor((x + 0.5) * 1.5): floor(0.75) = 0, floor(2.25) = 2.
  CHECK(Row(OpKind::kResizeNearest, row, 2, false, true) == std::vector<float>{10, 30});
  // Align corners: scale (3-1)/(2-1) = 2, round(0) = 0, round(2) = 2.
  CHECK(Row(OpKind::kResizeNearest, row, 2, true, false) == std::vector<float>{10, 30});
}

TEST_CASE("resize_nearest upsampling at the borders") {
  // 2 -> 3 with align corners: scale (2-1)/(3-1) = 0.5; round(0) = 0,
  // round(0.5) = 1 (halves round away from zero), round(1) = 1.
  CHECK(Row(OpKind::kResizeNearest, {1, 2}, 3, true, false) == std::vector<float>{1, 2, 2});
  // 2 -> 3 default: scale 2/3; floor(0) = 0, floor(0.667) = 0, floor(1.333) = 1.
  CHECK(Row(OpKind::kResizeNearest, {1, 2}, 3, false, false) == std::vector<float>{1, 1, 2});
  // 2 -> 3 half-pixel: floor(0.5 * 2/3) = 0, floor(1.5 * 2/3) = 1 (the float product
  // 1 + 2^-25 rounds to exactly 1), floor(2.5 * 2/3) = floor(1.667) = 1.
  CHECK(Row(OpKind::kResizeNearest, {1, 2}, 3, false, true) == std::vector<float>{1, 2, 2});
  // 3 -> 5 half-pixel: scale 0.6: floor(0.3) = 0, floor(0.9) = 0, floor(1.5) = 1,
  // floor(2.1) = 2, floor(2.7) = 2.
  CHECK(Row(OpKind::kResizeNearest, {10, 20, 30}, 5, false, true) ==
        std::vector<float>{10, 10, 20, 30, 30});
  // 3 -> 5 default: floor(0), floor(0.6), floor(1.2), floor(1.8), floor(2.4) = 0 0 1 1 2.
  CHECK(Row(OpKind::kResizeNearest, {10, 20, 30}, 5, false, false) ==
        std::vector<float>{10, 10, 20, 20, 30});
}

TEST_CASE("resize_nearest copies whole pixels of any dtype") {
  // Two channels of i32, 1x2 -> 1x4: pixels (1,-1), (2,-2) each repeated.
  OpRun r = RunOp(OpKind::kResizeNearest, {Ints(DType::kI32, {1, 1, 2, 2}, {1, -1, 2, -2})},
                  Resize(1, 4));
  REQUIRE(r.status.ok());
  CHECK(r.dtype == DType::kI32);
  CHECK(r.values == std::vector<float>{1, -1, 1, -1, 2, -2, 2, -2});
}

TEST_CASE("resize_bilinear 2 -> 4 in one row, default and half-pixel") {
  // Default: scale 0.5, p = x/2 = 0, 0.5, 1, 1.5; the upper tap is clamped to 1:
  //   x0: 2; x1: 2*0.5 + 6*0.5 = 4; x2: 6; x3: taps (1,1): 6.
  CHECK(Row(OpKind::kResizeBilinear, {2, 6}, 4, false, false) == std::vector<float>{2, 4, 6, 6});
  // Half-pixel: p = (x + 0.5)/2 - 0.5 = -0.25, 0.25, 0.75, 1.25.
  //   x0: taps (0,0), d = -0.25: 2*1.25 + 2*(-0.25) = 2
  //   x1: taps (0,1), d = 0.25: 2*0.75 + 6*0.25 = 3
  //   x2: d = 0.75: 2*0.25 + 6*0.75 = 5
  //   x3: taps (1,1), d = 0.25: 6*0.75 + 6*0.25 = 6
  CHECK(Row(OpKind::kResizeBilinear, {2, 6}, 4, false, true) == std::vector<float>{2, 3, 5, 6});
}

TEST_CASE("resize_bilinear with align_corners hits both corners") {
  // scale (2-1)/(4-1) = 1/3: p = 0, 1/3, 2/3, 1 -> 0, 4/3, 8/3, 4 on [0, 4].
  CheckClose(Row(OpKind::kResizeBilinear, {0, 4}, 4, true, false), {0, 4.0 / 3, 8.0 / 3, 4}, 1e-6);
  // One output pixel: align_corners falls back to scale in/out = 2, p = 0.
  CHECK(Row(OpKind::kResizeBilinear, {5, 9}, 1, true, false) == std::vector<float>{5});
}

TEST_CASE("resize_bilinear in two dimensions, 2x2 -> 3x3") {
  // Input [[0,4],[8,12]]; scale 2/3 on both axes: p = 0, 2/3, 4/3, taps
  // (0,0), (0,1) with d = 2/3, (1,1). Rows first, then along each row:
  //   row 0 (y=0):          0,                  4*2/3 = 8/3,          4
  //   row 1 (dy = 2/3):     8*2/3 = 16/3,       (8 + 16 + 48)/9 = 8,  4/3 + 8 = 28/3
  //   row 2 (taps (1,1)):   8,                  8/3 + 8 = 32/3,       12
  OpRun r = RunOp(OpKind::kResizeBilinear, {F({1, 2, 2, 1}, {0, 4, 8, 12})}, Resize(3, 3));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 3, 3, 1});
  CheckClose(r.values, {0, 8.0 / 3, 4, 16.0 / 3, 8, 28.0 / 3, 8, 32.0 / 3, 12}, 1e-6);
}

TEST_CASE("resize_bilinear half-pixel downsampling averages neighbours") {
  // 4 -> 2: scale 2, p = (x + 0.5)*2 - 0.5 = 0.5, 2.5: (1+2)/2 = 1.5, (3+4)/2 = 3.5.
  CHECK(Row(OpKind::kResizeBilinear, {1, 2, 3, 4}, 2, false, true) ==
        std::vector<float>{1.5f, 3.5f});
}

}  // namespace
}  // namespace opuc
