// Typed views (op_attrs.h): each field reads the attribute of its name, an
// absent optional one reads its declared default, and the registry's specs
// are the ones op_attrs.def declares.
#include "opuc/ir/op_attrs.h"

#include <doctest/doctest.h>

#include "opuc/ir/op_registry.h"

namespace opuc {
namespace {

TEST_CASE("a conv2d's attributes, typed, absent ones take their defaults") {
  Attributes attrs;
  attrs.Set("strides", std::vector<int64_t>{2, 3});
  attrs.Set("padding", std::string("same"));
  attrs.Set("activation", std::string("relu6"));
  const Conv2DAttrs a = Conv2DAttrs::Of(attrs);
  CHECK(a.strides == Pair{2, 3});
  CHECK(a.dilations == Pair{1, 1});  // default
  CHECK(a.padding == Padding::kSame);
  CHECK(a.activation == Activation::kRelu6);

  const Conv2DAttrs defaults = Conv2DAttrs::Of(Attributes());
  CHECK(defaults.strides == Pair{1, 1});
  CHECK(defaults.padding == Padding::kValid);
  CHECK(defaults.activation == Activation::kNone);
}

TEST_CASE("other ops: ints, floats, bools, lists") {
  Attributes pad;
  pad.Set("pads", std::vector<int64_t>{0, 0, 1, 2, 3, 4, 0, 0});
  CHECK(PadAttrs::Of(pad).pads == Ints{0, 0, 1, 2, 3, 4, 0, 0});
  CHECK(PadAttrs::Of(pad).value == 0.0);
  Attributes leaky;
  leaky.Set("alpha", 0.125);
  CHECK(LeakyReluAttrs::Of(leaky).alpha == 0.125);
  CHECK(SoftmaxAttrs::Of(Attributes()).beta == 1.0);
  Attributes resize;
  resize.Set("size", std::vector<int64_t>{8, 6});
  resize.Set("half_pixel_centers", true);
  const ResizeNearestAttrs r = ResizeNearestAttrs::Of(resize);
  CHECK(r.size == Pair{8, 6});
  CHECK_FALSE(r.align_corners);
  CHECK(r.half_pixel_centers);
  CHECK(DepthwiseConv2DAttrs::Of(Attributes()).depth_multiplier == 1);
}

TEST_CASE("the fused activation of any op, by name both ways") {
  Attributes attrs;
  CHECK(FusedActivation(attrs) == Activation::kNone);
  SetFusedActivation(attrs, Activation::kReluN1To1);
  CHECK(attrs.GetString("activation") == "relu_n1_to_1");
  CHECK(FusedActivation(attrs) == Activation::kReluN1To1);
  CHECK(ActivationFromName("tanh") == Activation::kTanh);
  CHECK_FALSE(ActivationFromName("gelu").has_value());
  CHECK(PaddingName(Padding::kSame) == "same");
  CHECK(HasFusedActivation(OpKind::kAdd));
  CHECK(HasFusedActivation(OpKind::kConcat));
  CHECK_FALSE(HasFusedActivation(OpKind::kReshape));
}

TEST_CASE("the registry's specs come from op_attrs.def") {
  const std::vector<AttrSpec>& conv = GetOpInfo(OpKind::kConv2D).def.attrs;
  REQUIRE(conv.size() == 4);
  CHECK(conv[0].name == "strides");
  CHECK(conv[0].type == AttrType::kInts);
  CHECK(conv[0].length == 2);
  CHECK(conv[0].min == 1);
  CHECK(*conv[0].default_value == AttrValue(std::vector<int64_t>{1, 1}));
  CHECK(conv[2].name == "padding");
  CHECK(conv[2].choices == std::vector<std::string>{"same", "valid"});
  CHECK(*conv[2].default_value == AttrValue(std::string("valid")));
  CHECK(conv[3].choices ==
        std::vector<std::string>{"none", "relu", "relu_n1_to_1", "relu6", "tanh"});
  const std::vector<AttrSpec>& concat = GetOpInfo(OpKind::kConcat).def.attrs;
  REQUIRE(concat.size() == 2);
  CHECK(concat[0].name == "axis");
  CHECK_FALSE(concat[0].default_value.has_value());  // required
  CHECK(GetOpInfo(OpKind::kRelu).def.attrs.empty());
  CHECK(GetOpInfo(OpKind::kTransposeConv2D).def.attrs[0].length == 4);
}

}  // namespace
}  // namespace opuc
