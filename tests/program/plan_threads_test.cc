// PlanOptions::threads: codegen runs the groups' tiling searches on the
// threads (codegen.cc) and settles the steps in order, so the program is
// the same byte for byte on one thread or several.
#include <doctest/doctest.h>

#include "doubled_model.h"
#include "small_model.h"

namespace opuc {
namespace {

/// The small model (four groups) with a depthwise conv and a 1x1 conv
/// with a residual after its pool, a pair that may chain: a search of
/// each kind (alone, chained first, chained second) runs on the threads.
Graph ModelWithPair() {
  GraphBuilder b("threads");
  const TensorId x = b.Input("x", DType::kF32, {1, 12, 12, 16});
  Attributes same;
  same.Set("padding", std::string("same"));
  TensorId c =
      b.Op(OpKind::kConv2D, "conv",
           {x, b.ConstantF32("conv/w", {16, 3, 3, 16}, test::Ramp(2304, 0.01f, -0.06f))}, same);
  c = b.Op(OpKind::kRelu, "relu", {c});
  TensorId d = b.Op(OpKind::kDepthwiseConv2D, "dw",
                    {c, b.ConstantF32("dw/w", {1, 3, 3, 16}, test::Ramp(144, 0.05f, -0.3f))}, same);
  d = b.Op(OpKind::kRelu6, "dw/relu6", {d});
  TensorId p =
      b.Op(OpKind::kConv2D, "pw",
           {d, b.ConstantF32("pw/w", {16, 1, 1, 16}, test::Ramp(256, 0.02f, -0.4f))}, same);
  p = b.Op(OpKind::kAdd, "add", {p, c});
  b.Output(b.Op(OpKind::kRelu, "out", {p}));
  return test::Finished(std::move(b));
}

void CheckSameOnThreads(const std::string& hw, const Graph& model, int64_t chained_pairs) {
  PlanOptions one, four;
  one.threads = 1;
  four.threads = 4;
  one.chained_pairs = four.chained_pairs = chained_pairs;
  const std::vector<uint8_t> a = test::CompileSmallModel(hw, model, one).Write();
  const std::vector<uint8_t> b = test::CompileSmallModel(hw, model, four).Write();
  CHECK(a.size() > 0);
  CHECK(a == b);
}

TEST_CASE("codegen: the same program on one thread or four") {
  for (const char* hw : {"opu1024", "tiny"}) {
    CAPTURE(hw);
    CheckSameOnThreads(hw, test::SmallFloatModel(), 0);
    for (const int64_t chained : {0, 2}) {  // the estimate decides; chained wherever it may
      CAPTURE(chained);
      CheckSameOnThreads(hw, ModelWithPair(), chained);
    }
  }
}

TEST_CASE("codegen: a chained pair is searched on the threads too") {
  PlanOptions four;
  four.threads = 4;
  four.chained_pairs = 2;
  const test::SmallModel m = test::CompileSmallModel("opu1024", ModelWithPair(), four);
  CHECK(test::CountTilings(m, "chained, the depthwise output on chip") == 1);
}

}  // namespace
}  // namespace opuc
