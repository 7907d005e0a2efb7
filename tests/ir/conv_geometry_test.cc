// Window geometry as TFLite computes it, worked by hand.
#include "opuc/ir/conv_geometry.h"

#include <doctest/doctest.h>

namespace opuc {
namespace {

TEST_CASE("output extents: same is ceil(in / stride), valid needs the window inside") {
  CHECK(*WindowOutputExtent(5, 3, 2, 1, Padding::kSame, "height") == 3);   // ceil(5/2)
  CHECK(*WindowOutputExtent(5, 3, 2, 1, Padding::kValid, "height") == 2);  // (5-3)/2+1
  CHECK(*WindowOutputExtent(7, 3, 1, 2, Padding::kValid, "width") == 3);   // eff 5: 7-5+1
  CHECK(WindowOutputExtent(4, 3, 1, 2, Padding::kValid, "width").status().message() ==
        "width: window of 5 (kernel 3, dilation 2) does not fit the input extent 4 with valid "
        "padding");
  CHECK(WindowOutputExtent(4, 0, 1, 1, Padding::kSame, "height").status().message() ==
        "height: kernel extent is 0; expected at least 1");
}

TEST_CASE("padding before: half of the total, the odd element after") {
  // in 5, out 3, stride 2, kernel 3: total (3-1)*2 + 3 - 5 = 2, before 1.
  CHECK(PaddingBefore(5, 3, 2, 3, 1) == 1);
  // in 4, out 4, kernel 2: total 1, before 0 (TFLite pads the bottom).
  CHECK(PaddingBefore(4, 4, 1, 2, 1) == 0);
  // in 7, out 7, kernel 3 dilated 2 (eff 5): total 4, before 2.
  CHECK(PaddingBefore(7, 7, 1, 3, 2) == 2);
  CHECK(PaddingBefore(5, 2, 2, 3, 1) == 0);  // valid: never negative
}

TEST_CASE("a window's taps and NHWC offsets") {
  const Shape in = {1, 5, 5, 2}, out = {1, 3, 3, 4};
  const WindowGeometry g = WindowOf(Pair{2, 2}, Pair{1, 1}, in, out, 3, 3);
  CHECK(g.h.pad_before == 1);
  CHECK(g.h.At(0, 0) == -1);  // padding
  CHECK(g.h.At(2, 2) == 5);   // 2*2 - 1 + 2: padding after
  CHECK(g.w.At(1, 1) == 2);
  CHECK(Nhwc(in, 0, 1, 2, 1) == (1 * 5 + 2) * 2 + 1);

  Attributes attrs;
  attrs.Set("strides", std::vector<int64_t>{2, 1});
  attrs.Set("dilations", std::vector<int64_t>{1, 3});
  const WindowSteps conv = WindowStepsOf(OpKind::kConv2D, attrs);
  CHECK(conv.strides == Pair{2, 1});
  CHECK(conv.dilations == Pair{1, 3});
  attrs.Erase("dilations");
  CHECK(WindowStepsOf(OpKind::kMaxPool2D, attrs).strides == Pair{2, 1});
  CHECK(WindowStepsOf(OpKind::kMaxPool2D, attrs).dilations == Pair{1, 1});
  CHECK(WindowStepsOf(OpKind::kAdd, attrs).strides == Pair{1, 1});
}

}  // namespace
}  // namespace opuc
