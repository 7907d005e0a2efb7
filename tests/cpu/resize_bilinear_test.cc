//===- tests/cpu/resize_bilinear_test.cc - Resize against the reference -===//
//
// The CPU executor's integer resize sums a pixel's four sources in int32
// vector lanes where the reference sums each element in int64; both must
// agree exactly: random sizes up and down, each coordinate mode (half-pixel
// centers make a weight negative at the border), every input and output
// format, fraction lengths that shift both ways. Float resizes (the
// reference's expression over a pixel's channels) within 1e-6 of the
// output's range.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <random>

#include "opuc/ir/graph_builder.h"
#include "opuc/tensor_io/random_input.h"
#include "same_as_reference.h"
#include "within_range.h"

namespace opuc {
namespace {

TEST_CASE("integer resize_bilinear equals the reference's in every mode and format") {
  testing::Draw random(11);
  const auto draw = [&](int64_t lo, int64_t hi) { return random.Int(lo, hi); };
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  struct Mode {
    bool align_corners, half_pixel;
  };
  int checked = 0;
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (Mode mode : {Mode{false, false}, Mode{true, false}, Mode{false, true}})
      for (int i = 0; i < 4; ++i) {
        const Shape shape{1, draw(1, 9), draw(1, 9), draw(1, 40)};
        Attributes attrs;
        attrs.Set("size", AttrValue(std::vector<int64_t>{draw(1, 19), draw(1, 19)}));
        attrs.Set("align_corners", AttrValue(mode.align_corners));
        attrs.Set("half_pixel_centers", AttrValue(mode.half_pixel));
        GraphBuilder b("resize");
        const TensorId x = b.Input("x", in, shape);
        const TensorId y = b.Op(OpKind::kResizeBilinear, "resize", {x}, attrs);
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        if (in != DType::kF32) {
          g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw(0, 9))}, -1};
          g.tensor(y).dtype = formats[draw(0, 2)];
          g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw(0, 9))}, -1};
        }
        const std::vector<HostTensor> inputs = {
            RandomTensor(in, shape, static_cast<uint32_t>(draw(0, 1 << 20))).value()};
        CAPTURE(DTypeName(in));
        CAPTURE(ShapeToString(shape));
        CAPTURE(ShapeToString(g.tensor(y).shape));
        CAPTURE(mode.align_corners);
        CAPTURE(mode.half_pixel);
        if (in == DType::kF32) {  // within the float tolerance (a build may contract a·b + c)
          testing::CheckWithinRange(RunCpu(g, inputs).value().front(),
                                    RunReference(g, inputs).value().front(), 1e-6);
        } else {
          CHECK(testing::SameAsReference(g, inputs));
        }
        ++checked;
      }
  CHECK(checked == 48);
}

}  // namespace
}  // namespace opuc
