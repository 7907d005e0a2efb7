// SplitSharedPads: a pad two convolutions read becomes a pad for each.
#include <algorithm>
#include <string>
#include <vector>

#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// x -> pad -> two depthwise convs (pose_detection's heads); `third` adds
/// a reader that is no convolution.
Graph SharedPad(bool third) {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId p = b.Op(OpKind::kPad, "p", {x}, Attrs({{"pads", Ints({0, 0, 1, 1, 1, 1, 0, 0})}}));
  const auto dw = [&](const char* name) {
    TensorId w =
        b.ConstantF32(std::string(name) + "/w", {1, 3, 3, 2}, std::vector<float>(18, 0.5f));
    return b.Op(OpKind::kDepthwiseConv2D, name, {p, w}, Attrs({{"padding", Str("valid")}}));
  };
  b.Output(dw("a"));
  b.Output(dw("b"));
  if (third) b.Output(b.Op(OpKind::kRelu, "r", {p}));
  return Build(std::move(b));
}

TEST_CASE("each convolution after the first reads its own copy of a shared pad") {
  Graph g = SharedPad(false);
  const std::vector<HostTensor> before =
      ReferenceOutputs(g, {F32Tensor({1, 4, 4, 2}, std::vector<float>(32, 1.0f))});
  auto run = RunPasses(g, {"SplitSharedPads"});
  REQUIRE(run.status.ok());
  CHECK(run.changed);
  // The copy sits right after the pad and reads x; b reads the copy.
  CHECK(NodeSignatures(g) == Lines{"pad(x)->p", "pad(x)->p/for/b", "depthwise_conv2d(p,a/w)->a",
                                   "depthwise_conv2d(p/for/b,b/w)->b"});
  CHECK(run.runs[0].counters.ToString() == "pads copied for a second reader: 1");
  const std::vector<HostTensor> after =
      ReferenceOutputs(g, {F32Tensor({1, 4, 4, 2}, std::vector<float>(32, 1.0f))});
  REQUIRE(after.size() == before.size());
  for (size_t i = 0; i < after.size(); ++i)
    CHECK(std::equal(after[i].data<float>(), after[i].data<float>() + after[i].elements(),
                     before[i].data<float>()));
}

TEST_CASE("a pad that another op reads stays shared") {
  Graph g = SharedPad(true);
  const std::string before = PrintGraph(g);
  auto run = RunPasses(g, {"SplitSharedPads"});
  REQUIRE(run.status.ok());
  CHECK_FALSE(run.changed);
  CHECK(PrintGraph(g) == before);
}

}  // namespace
}  // namespace opuc
