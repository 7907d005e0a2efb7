//===- tests/cpu/pool2d_test.cc - Pooling and mean against the reference -===//
//
// The CPU executor's max and average pooling take each tap over a pixel's
// channels where the reference goes channel by channel; both must agree
// exactly (float averages too: each channel adds the same values in the
// same order): random windows, strides and padding (windows cut by the
// border), fused activations, NaN among float inputs, every integer format
// in and out with fraction lengths that shift both ways. Mean likewise, over
// every set of axes of rank-1 to rank-4 inputs (one run of axes on the CPU
// executor's kernel, the others on the reference's), keep_dims or not.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "opuc/ir/graph_builder.h"
#include "opuc/tensor_io/random_input.h"
#include "same_as_reference.h"

namespace opuc {
namespace {

TEST_CASE("max_pool2d and avg_pool2d equal the reference's: windows at the border, NaN, formats") {
  testing::Draw random(12);
  const auto draw = [&](int64_t lo, int64_t hi) { return random.Int(lo, hi); };
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  const char* activations[] = {"none", "relu", "relu6", "relu_n1_to_1"};
  for (OpKind op : {OpKind::kMaxPool2D, OpKind::kAvgPool2D})
    for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
      for (int i = 0; i < 12; ++i) {
        const Shape shape{draw(1, 2), draw(1, 12), draw(1, 12), draw(1, 70)};
        const int64_t fh = draw(1, 4), fw = draw(1, 4);
        const bool fits = fh <= shape[1] && fw <= shape[2];
        Attributes attrs;
        attrs.Set("filter", AttrValue(std::vector<int64_t>{fh, fw}));
        attrs.Set("strides", AttrValue(std::vector<int64_t>{draw(1, 3), draw(1, 3)}));
        attrs.Set("padding", AttrValue(std::string(draw(0, 1) == 1 || !fits ? "same" : "valid")));
        if (in == DType::kF32)
          attrs.Set("activation", AttrValue(std::string(activations[draw(0, 3)])));
        GraphBuilder b("pool");
        const TensorId x = b.Input("x", in, shape);
        const TensorId y = b.Op(op, "pool", {x}, attrs);
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        if (in != DType::kF32) {
          g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw(0, 9))}, -1};
          g.tensor(y).dtype = formats[draw(0, 2)];
          g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw(0, 9))}, -1};
        }
        HostTensor values =
            RandomTensor(in, shape, static_cast<uint64_t>(draw(0, 1 << 20))).value();
        if (in == DType::kF32)
          for (int64_t e = 0; e < values.elements(); e += 13)
            values.data<float>()[e] = std::numeric_limits<float>::quiet_NaN();
        CAPTURE(OpName(op));
        CAPTURE(DTypeName(in));
        CAPTURE(ShapeToString(shape));
        CAPTURE(ShapeToString(g.tensor(y).shape));
        CHECK(testing::SameAsReference(g, {values}));
      }
}

TEST_CASE("mean equals the reference's over every set of axes, in every format") {
  testing::Draw draw(13);
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  int runs = 0;
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (int64_t rank = 1; rank <= 4; ++rank)
      for (int64_t mask = 1; mask < (int64_t{1} << rank); ++mask) {
        Shape shape;
        for (int64_t d = 0; d < rank; ++d) shape.push_back(draw.Int(1, 9));
        std::vector<int64_t> axes;
        for (int64_t d = 0; d < rank; ++d)
          if (mask >> d & 1) axes.push_back(draw.Int(0, 1) == 1 ? d - rank : d);  // both spellings
        // one run of set bits: mask + lowest bit is a power of two
        const int64_t low = mask & -mask;
        runs += ((mask + low) & (mask + low - 1)) == 0;
        Attributes attrs;
        attrs.Set("axes", AttrValue(axes));
        attrs.Set("keep_dims", AttrValue(draw.Int(0, 1) == 1));
        GraphBuilder b("mean");
        const TensorId x = b.Input("x", in, shape);
        const TensorId y = b.Op(OpKind::kMean, "mean", {x}, attrs);
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        if (in != DType::kF32) {
          g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
          g.tensor(y).dtype = formats[draw.Int(0, 2)];
          g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
        }
        CAPTURE(DTypeName(in));
        CAPTURE(ShapeToString(shape));
        CAPTURE(mask);
        CHECK(testing::SameAsReference(g, {draw.Values(in, shape)}));
      }
  CHECK(runs == 4 * (1 + 3 + 6 + 10));  // the kernel's own case: 20 of the 26 masks per format
}

}  // namespace
}  // namespace opuc
