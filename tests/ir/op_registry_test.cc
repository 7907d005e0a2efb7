// The op registry (op_registry.h, op_kind.h): names, TVM pattern kinds,
// attribute validation and defaults, and the precondition of inference. The
// expected names and patterns are written out here, not read from ops.def.
#include "opuc/ir/op_registry.h"

#include <doctest/doctest.h>

#include <iterator>
#include <set>
#include <string>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

struct Expect {
  OpKind kind;
  const char* name;
  OpPatternKind pattern;
};

// Every op and the pattern kind TVM gives its counterpart.
constexpr OpPatternKind kFusable = OpPatternKind::kOutEWiseFusable;
const Expect kExpected[] = {
    {OpKind::kConv2D, "conv2d", kFusable},
    {OpKind::kDepthwiseConv2D, "depthwise_conv2d", kFusable},
    {OpKind::kTransposeConv2D, "transpose_conv2d", kFusable},
    {OpKind::kFullyConnected, "fully_connected", kFusable},
    {OpKind::kAdd, "add", OpPatternKind::kBroadcast},
    {OpKind::kSub, "sub", OpPatternKind::kBroadcast},
    {OpKind::kMul, "mul", OpPatternKind::kBroadcast},
    {OpKind::kPRelu, "prelu", OpPatternKind::kBroadcast},
    {OpKind::kRelu, "relu", OpPatternKind::kElemWise},
    {OpKind::kRelu6, "relu6", OpPatternKind::kElemWise},
    {OpKind::kReluN1To1, "relu_n1_to_1", OpPatternKind::kElemWise},
    {OpKind::kLeakyRelu, "leaky_relu", OpPatternKind::kElemWise},
    {OpKind::kHardSwish, "hard_swish", OpPatternKind::kElemWise},
    {OpKind::kSigmoid, "sigmoid", OpPatternKind::kElemWise},
    {OpKind::kTanh, "tanh", OpPatternKind::kElemWise},
    {OpKind::kDequantize, "dequantize", OpPatternKind::kElemWise},
    {OpKind::kQuantize, "quantize", OpPatternKind::kElemWise},
    {OpKind::kLookupTable, "lookup_table", OpPatternKind::kElemWise},
    {OpKind::kMaxPool2D, "max_pool2d", kFusable},
    {OpKind::kAvgPool2D, "avg_pool2d", kFusable},
    {OpKind::kMean, "mean", OpPatternKind::kCommReduce},
    {OpKind::kSoftmax, "softmax", OpPatternKind::kOpaque},
    {OpKind::kPad, "pad", OpPatternKind::kInjective},
    {OpKind::kReshape, "reshape", OpPatternKind::kInjective},
    {OpKind::kConcat, "concat", OpPatternKind::kInjective},
    {OpKind::kResizeBilinear, "resize_bilinear", OpPatternKind::kInjective},
    {OpKind::kResizeNearest, "resize_nearest", OpPatternKind::kInjective},
    {OpKind::kDepthToSpace, "depth_to_space", OpPatternKind::kInjective},
    {OpKind::kDensify, "densify", OpPatternKind::kOpaque},
    {OpKind::kFused, "fused", OpPatternKind::kOpaque},
};

TEST_CASE("every op has its name, pattern kind and one output") {
  CHECK(kNumOpKinds == 30);
  CHECK(std::size(kExpected) == static_cast<size_t>(kNumOpKinds));
  std::set<std::string> seen;
  for (const Expect& e : kExpected) {
    CAPTURE(e.name);
    const OpInfo& info = GetOpInfo(e.kind);
    CHECK(info.kind == e.kind);
    CHECK(info.name == e.name);
    CHECK(OpName(e.kind) == e.name);
    CHECK(info.pattern == e.pattern);
    CHECK(info.def.num_outputs == 1);
    CHECK(static_cast<bool>(info.def.infer));
    CHECK(seen.insert(e.name).second);
  }
}

TEST_CASE("OpFromName inverts OpName - unknown names give nullopt") {
  for (int i = 0; i < kNumOpKinds; ++i) {
    const auto kind = static_cast<OpKind>(i);
    CHECK(OpFromName(OpName(kind)) == kind);
  }
  CHECK(OpFromName("conv2d") == OpKind::kConv2D);
  CHECK_FALSE(OpFromName("Conv2D").has_value());
  CHECK_FALSE(OpFromName("conv").has_value());
  CHECK_FALSE(OpFromName("").has_value());
  CHECK(OpName(static_cast<OpKind>(999)) == "<bad op>");
}

TEST_CASE("pattern kind names") {
  CHECK(OpPatternKindName(OpPatternKind::kElemWise) == "elemwise");
  CHECK(OpPatternKindName(OpPatternKind::kBroadcast) == "broadcast");
  CHECK(OpPatternKindName(OpPatternKind::kInjective) == "injective");
  CHECK(OpPatternKindName(OpPatternKind::kCommReduce) == "comm_reduce");
  CHECK(OpPatternKindName(OpPatternKind::kOutEWiseFusable) == "out_ewise_fusable");
  CHECK(OpPatternKindName(OpPatternKind::kTuple) == "tuple");
  CHECK(OpPatternKindName(OpPatternKind::kOpaque) == "opaque");
}

TEST_CASE("ValidateAttributes: each way an attribute can be wrong, named in the message") {
  auto conv = [](Attributes attrs) {
    FillDefaultAttributes(OpKind::kConv2D, &attrs);
    return ValidateAttributes(OpKind::kConv2D, attrs).message();
  };
  CHECK(conv({}).empty());
  CHECK(conv(A({{"stride", Ints({2, 2})}})) == "unknown attribute 'stride' for conv2d");
  CHECK(conv(A({{"strides", I64(2)}})) == "attribute 'strides' is int 2; expected ints");
  CHECK(conv(A({{"strides", Ints({0, 1})}})) ==
        "attribute 'strides' is 0; expected a value in [1, 2147483647]");
  CHECK(conv(A({{"dilations", Ints({1, -2})}})) ==
        "attribute 'dilations' is -2; expected a value in [1, 2147483647]");
  CHECK(conv(A({{"strides", Ints({1, 1, 1})}})) ==
        "attribute 'strides' has 3 elements; expected 2");
  CHECK(conv(A({{"padding", Str("full")}})) ==
        "attribute 'padding' is \"full\"; expected one of [\"same\",\"valid\"]");
  CHECK(conv(A({{"padding", true}})) == "attribute 'padding' is bool true; expected string");
  CHECK(conv(A({{"activation", Str("gelu")}})) ==
        "attribute 'activation' is \"gelu\"; expected one of "
        "[\"none\",\"relu\",\"relu_n1_to_1\",\"relu6\",\"tanh\"]");
  CHECK(ValidateAttributes(OpKind::kReshape, {}).message() ==
        "required attribute 'new_shape' (ints) is missing");
  CHECK(ValidateAttributes(OpKind::kSoftmax, A({{"beta", std::vector<double>{1.0}}})).message() ==
        "attribute 'beta' is floats [1.0]; expected float");
  CHECK(ValidateAttributes(OpKind::kRelu, A({{"alpha", 0.1}})).message() ==
        "unknown attribute 'alpha' for relu");
  // Optional attributes may be absent for validation; only required ones must be there.
  CHECK(ValidateAttributes(OpKind::kConv2D, {}).ok());
  CHECK(ValidateAttributes(OpKind::kConv2D, {}).code() == StatusCode::kOk);
  CHECK(ValidateAttributes(OpKind::kReshape, {}).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("FillDefaultAttributes adds exactly the declared defaults") {
  Attributes conv;
  FillDefaultAttributes(OpKind::kConv2D, &conv);
  CHECK(conv == A({{"activation", Str("none")},
                   {"dilations", Ints({1, 1})},
                   {"padding", Str("valid")},
                   {"strides", Ints({1, 1})}}));
  // Present values stay; only the missing ones are added.
  Attributes set = A({{"strides", Ints({2, 2})}, {"padding", Str("same")}});
  FillDefaultAttributes(OpKind::kConv2D, &set);
  CHECK(set == A({{"activation", Str("none")},
                  {"dilations", Ints({1, 1})},
                  {"padding", Str("same")},
                  {"strides", Ints({2, 2})}}));
  Attributes dw;
  FillDefaultAttributes(OpKind::kDepthwiseConv2D, &dw);
  CHECK(dw.GetInt("depth_multiplier", -1) == 1);
  CHECK(dw.size() == 5);
  // Required attributes have no default: only keep_dims appears for mean.
  Attributes mean;
  FillDefaultAttributes(OpKind::kMean, &mean);
  CHECK(mean == A({{"keep_dims", false}}));
  Attributes tc;
  FillDefaultAttributes(OpKind::kTransposeConv2D, &tc);
  CHECK(tc ==
        A({{"activation", Str("none")}, {"padding", Str("valid")}, {"strides", Ints({1, 1})}}));
  Attributes fc, pad, resize, softmax, relu;
  FillDefaultAttributes(OpKind::kFullyConnected, &fc);
  CHECK(fc == A({{"activation", Str("none")}, {"keep_num_dims", false}}));
  FillDefaultAttributes(OpKind::kPad, &pad);
  CHECK(pad == A({{"value", 0.0}}));
  FillDefaultAttributes(OpKind::kResizeBilinear, &resize);
  CHECK(resize == A({{"align_corners", false}, {"half_pixel_centers", false}}));
  FillDefaultAttributes(OpKind::kSoftmax, &softmax);
  CHECK(softmax == A({{"beta", 1.0}}));
  FillDefaultAttributes(OpKind::kRelu, &relu);
  CHECK(relu.empty());
}

TEST_CASE("InferOutputTypes runs only on complete, valid attributes") {
  const Tensor x = F32({1, 4, 4, 2});
  const Tensor w = F32({3, 1, 1, 2});
  InferContext ctx;
  ctx.inputs = {&x, &w};
  // Optional attributes left out (no FillDefaultAttributes): an error, not a crash.
  Attributes partial = A({{"padding", Str("same")}});
  ctx.attrs = &partial;
  Expected<std::vector<TensorType>> missing = InferOutputTypes(OpKind::kConv2D, ctx);
  REQUIRE_FALSE(missing.ok());
  CHECK(Contains(missing.status().message(), "conv2d: attribute 'strides' is absent"));
  // A wrong value is caught as well.
  Attributes wrong = A({{"strides", I64(2)}});
  FillDefaultAttributes(OpKind::kConv2D, &wrong);
  ctx.attrs = &wrong;
  CHECK(InferOutputTypes(OpKind::kConv2D, ctx).status().message() ==
        "conv2d: attribute 'strides' is int 2; expected ints");
  ctx.attrs = nullptr;
  CHECK_FALSE(InferOutputTypes(OpKind::kConv2D, ctx).ok());
}

}  // namespace
}  // namespace opuc
