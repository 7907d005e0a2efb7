// Whole-pixel stores of a group with a 2x2 max pool (codegen/tiling.cc,
// StoreBlocks): a 1x1 conv to two output blocks whose map and pooled map
// are both outputs, or the pooled map alone. Each block's pooled entries
// follow its tile's (PlacePool), at one offset of the accumulator's two
// banks as the tile's are, so one Store writes a pooled pixel's both
// blocks as it does an output pixel's. The programs run on every device,
// bit for bit.
#include <doctest/doctest.h>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

Graph ConvPool(int64_t h, int64_t w, int64_t ci, int64_t co, bool keep_map) {
  GraphBuilder b("conv_pool");
  const TensorId x = b.Input("x", DType::kF32, {1, h, w, ci});
  Attributes same;
  same.Set("padding", std::string("same"));
  const auto weights = static_cast<size_t>(ci * co);
  TensorId p =
      b.Op(OpKind::kConv2D, "pw",
           {x, b.ConstantF32("pw/w", {co, 1, 1, ci}, test::Ramp(weights, 0.02f, -0.4f)),
            b.ConstantF32("pw/b", {co}, test::Ramp(static_cast<size_t>(co), 0.02f, -0.05f))},
           same);
  p = b.Op(OpKind::kRelu, "relu", {p});
  Attributes pool;
  pool.Set("filter", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  b.Output(b.Op(OpKind::kMaxPool2D, "pool", {p}, pool));
  if (keep_map) b.Output(p);
  return test::Finished(std::move(b));
}

TEST_CASE("rtl: a group with a 2x2 max pool stores its pooled pixels' blocks together") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  PlanOptions grouped;  // whole-pixel stores wherever they may
  grouped.store_blocks = 2;
  struct Shape {
    int64_t h, w, ci, co;
    bool keep_map;
  };
  for (const Shape& s : {Shape{16, 32, 24, 28, true}, Shape{8, 16, 16, 32, false},
                         Shape{12, 20, 20, 40, true}, Shape{6, 10, 8, 64, false}}) {
    CAPTURE(s.co);
    CAPTURE(s.keep_map);
    const test::SmallModel m =
        test::CompileSmallModel("opu1024", ConvPool(s.h, s.w, s.ci, s.co, s.keep_map), grouped);
    CHECK(test::CountTilings(m, " blocks a store") == 1);
    test::CheckAgree(test::ReadAligned(m.Write(), "conv_pool.opup"), devices,
                     test::SeededInputs(m.graph(), 7));
  }
}

}  // namespace
}  // namespace opuc
