//===- tests/frontend/tflite_shape_test.cc - Data movement, pooling, MEAN --===//
//
// Parameters that TFLite keeps in constant tensors (paddings, shapes, sizes,
// axes) must arrive as attributes, and those tensors must not become IR
// tensors.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include "frontend/tflite_test_util.h"

namespace opuc::test {
namespace {

using tfl::Padding;

TEST_CASE("PAD: paddings [rank, 2] become pads [before0, after0, ...]") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 3, 3, 2});
  const int32_t pads = b.Int32("paddings", {4, 2}, {0, 0, 1, 2, 0, 1, 0, 0});
  const int32_t y = b.Tensor("y", {1, 6, 4, 2});  // 3 + 1 + 2, 3 + 0 + 1
  b.Op(Op::PAD, {x, pads}, {y});
  b.Output(y);
  const TfliteImport m = ImportOk(b);
  CHECK(OnlyNode(m).attrs.GetInts("pads") == std::vector<int64_t>{0, 0, 1, 2, 0, 1, 0, 0});
  CHECK(m.graph.tensors.size() == 2);  // x and y; paddings is an attribute only

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 3});
  const int32_t bad = c.Int32("paddings", {2, 2}, {0, 0, -1, 0});
  const int32_t y2 = c.Tensor("y", {1, 2});
  c.Op(Op::PAD, {x2, bad}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (PAD): input 1 (paddings) holds -1; expected"
        " 0..2147483647");
}

TEST_CASE("PAD: paddings of the wrong shape or type name the tensor") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 3});
  const int32_t pads = b.Int32("paddings", {4}, {0, 0, 1, 1});
  const int32_t y = b.Tensor("y", {1, 5});
  b.Op(Op::PAD, {x, pads}, {y});
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (PAD): input 1 (paddings) has shape [4];"
        " expected [2,2] (before and after per dimension)");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 3});
  const int32_t f = c.Float("paddings", {2, 2}, {0, 0, 1, 1});
  const int32_t y2 = c.Tensor("y", {1, 5});
  c.Op(Op::PAD, {x2, f}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (PAD): input 1 (paddings) tensor 1 'paddings':"
        " type is FLOAT32; expected INT32 or INT64");
}

TEST_CASE("RESHAPE: from the shape tensor or the options, with -1 resolved") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 4, 4, 6});  // 96 elements
  const int32_t shape = b.Int32("shape", {3}, {1, -1, 16});
  const int32_t r1 = b.Tensor("r1", {1, 6, 16});  // 96 / 16 = 6
  const int32_t r2 = b.Tensor("r2", {2, 48});
  const int32_t r3 = b.Tensor("r3", {96});
  b.Op(Op::RESHAPE, {x, shape}, {r1});
  b.Op(Op::RESHAPE, {r1}, {r2}, b.Reshape({-1, 48}));
  // A 1-D shape input wins over the options, as in TFLite.
  const int32_t flat = b.Int32("flat", {1}, {-1});
  b.Op(Op::RESHAPE, {r2, flat}, {r3}, b.Reshape({2, 48}));
  b.Output(r3);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 3);
  CHECK(m.graph.nodes[0].attrs.GetInts("new_shape") == std::vector<int64_t>{1, 6, 16});
  CHECK(m.graph.nodes[1].attrs.GetInts("new_shape") == std::vector<int64_t>{2, 48});
  CHECK(m.graph.nodes[2].attrs.GetInts("new_shape") == std::vector<int64_t>{96});
  CHECK(m.graph.tensors.size() == 4);
}

TEST_CASE("RESHAPE: the legacy [0] means a scalar, impossible shapes are errors") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 1});
  const int32_t y = b.Tensor("y", {});
  b.Op(Op::RESHAPE, {x}, {y}, b.Reshape({0}));
  b.Output(y);
  CHECK(OnlyNode(ImportOk(b)).attrs.GetInts("new_shape").empty());

  const auto reshape = [](std::vector<int32_t> target, bool with_options) {
    TfliteBuilder c;
    const int32_t x2 = c.Input("x", {2, 5});
    const int32_t y2 = c.Tensor("y", {10});
    c.Op(Op::RESHAPE, {x2}, {y2}, with_options ? c.Reshape(std::move(target)) : TfliteOptions{});
    c.Output(y2);
    return ImportError(c);
  };
  CHECK(reshape({-1, 3}, true) ==
        "t.tflite: operator 0 (RESHAPE): new shape [-1,3] cannot hold"
        " the input's 10 elements");
  CHECK(reshape({-1, -1}, true) ==
        "t.tflite: operator 0 (RESHAPE): new shape [-1,-1] has extent"
        " -1; expected 0..2147483647 and at most one -1");
  CHECK(reshape({}, false) ==
        "t.tflite: operator 0 (RESHAPE): has no target shape: neither a 1-D"
        " input 1 (shape) nor builtin_options.new_shape");
  CHECK(reshape({3, 4}, true) ==
        "t.tflite: operator 0 (RESHAPE): reshape: attribute 'new_shape'"
        " [3,4] does not hold the input's 10 elements (shape [2,5])");
}

TEST_CASE("CONCATENATION: axis and activation") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 2, 3});
  const int32_t c = b.Float("c", {1, 1, 3}, {1, 2, 3});
  const int32_t y = b.Tensor("y", {1, 5, 3});  // 2 + 1 + 2 along axis 1 (given as -2)
  b.Op(Op::CONCATENATION, {x, c, x}, {y}, b.Concatenation(-2, Act::RELU));
  b.Output(y);
  const TfliteImport m = ImportOk(b);
  const Node& node = OnlyNode(m);
  CHECK(node.op == OpKind::kConcat);
  CHECK(node.inputs.size() == 3);
  CHECK(node.attrs.GetInt("axis") == -2);
  CHECK(node.attrs.GetString("activation") == "relu");
}

TEST_CASE("RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: size and both flags") {
  struct Case {
    bool align_corners, half_pixel_centers;
  };
  for (const Case& c : {Case{false, false}, Case{true, false}, Case{false, true}}) {
    INFO("align_corners ", c.align_corners, " half_pixel_centers ", c.half_pixel_centers);
    TfliteBuilder b;
    const int32_t x = b.Input("x", {1, 3, 3, 2});
    const int32_t size = b.Int32("size", {2}, {6, 5});
    const int32_t y1 = b.Tensor("y1", {1, 6, 5, 2});
    const int32_t y2 = b.Tensor("y2", {1, 6, 5, 2});
    b.Op(Op::RESIZE_BILINEAR, {x, size}, {y1},
         b.ResizeBilinear(c.align_corners, c.half_pixel_centers));
    b.Op(Op::RESIZE_NEAREST_NEIGHBOR, {x, size}, {y2},
         b.ResizeNearest(c.align_corners, c.half_pixel_centers));
    b.Output(y1);
    b.Output(y2);
    const TfliteImport m = ImportOk(b);
    REQUIRE(m.graph.nodes.size() == 2);
    CHECK(m.graph.nodes[0].op == OpKind::kResizeBilinear);
    CHECK(m.graph.nodes[1].op == OpKind::kResizeNearest);
    for (const Node& node : m.graph.nodes) {
      CHECK(node.attrs.GetInts("size") == std::vector<int64_t>{6, 5});
      CHECK(node.attrs.GetBool("align_corners") == c.align_corners);
      CHECK(node.attrs.GetBool("half_pixel_centers") == c.half_pixel_centers);
    }
    CHECK(m.graph.tensors.size() == 3);
  }
}

TEST_CASE("RESIZE: both flags, or a bad size, are errors") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 3, 3, 2});
  const int32_t size = b.Int32("size", {2}, {6, 6});
  const int32_t y = b.Tensor("y", {1, 6, 6, 2});
  b.Op(Op::RESIZE_BILINEAR, {x, size}, {y}, b.ResizeBilinear(true, true));
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (RESIZE_BILINEAR): builtin_options.align_corners"
        " and half_pixel_centers are both true; at most one may be");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 3, 3, 2});
  const int32_t zero = c.Int32("size", {2}, {0, 6});
  const int32_t y2 = c.Tensor("y", {1, 6, 6, 2});
  c.Op(Op::RESIZE_NEAREST_NEIGHBOR, {x2, zero}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (RESIZE_NEAREST_NEIGHBOR): input 1 (size) is"
        " [0,6]; expected two extents of at least 1 (height, width)");
}

TEST_CASE("DEPTH_TO_SPACE: block_size") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 2, 3, 8});
  const int32_t y = b.Tensor("y", {1, 4, 6, 2});  // 8 / 2² = 2 channels
  b.Op(Op::DEPTH_TO_SPACE, {x}, {y}, b.DepthToSpace(2));
  b.Output(y);
  CHECK(OnlyNode(ImportOk(b)).attrs.GetInt("block_size") == 2);

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 2, 3, 8});
  const int32_t y2 = c.Tensor("y", {1, 2, 3, 8});
  c.Op(Op::DEPTH_TO_SPACE, {x2}, {y2}, c.DepthToSpace(0));
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (DEPTH_TO_SPACE): builtin_options.block_size is"
        " 0; expected at least 1");
}

TEST_CASE("MEAN: negative and repeated axes become canonical, keep_dims") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 7, 7, 4});
  const int32_t axes = b.Int32("axes", {3}, {2, -3, -2});  // -3 is 1, -2 is 2 again
  const int32_t kept = b.Tensor("kept", {1, 1, 1, 4});
  const int32_t dropped = b.Tensor("dropped", {1, 4});
  b.Op(Op::MEAN, {x, axes}, {kept}, b.Reducer(true));
  b.Op(Op::MEAN, {x, axes}, {dropped});
  b.Output(kept);
  b.Output(dropped);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 2);
  CHECK(m.graph.nodes[0].attrs.GetInts("axes") == std::vector<int64_t>{2, 1});
  CHECK(m.graph.nodes[0].attrs.GetBool("keep_dims"));
  CHECK_FALSE(m.graph.nodes[1].attrs.GetBool("keep_dims"));

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 7});
  const int32_t bad = c.Int32("axes", {1}, {2});
  const int32_t y2 = c.Tensor("y", {1});
  c.Op(Op::MEAN, {x2, bad}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (MEAN): input 1 (axes) holds axis 2; expected"
        " -2..1 for the input's rank 2");
}

TEST_CASE("MAX_POOL_2D and AVERAGE_POOL_2D") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 5, 4, 3});
  const int32_t p1 = b.Tensor("p1", {1, 3, 2, 3});  // SAME: ceil(5/2) = 3, ceil(4/2) = 2
  // VALID, filter 3x2, strides 1x3: (5 - 3) / 1 + 1 = 3, (4 - 2) / 3 + 1 = 1.
  const int32_t p2 = b.Tensor("p2", {1, 3, 1, 3});
  b.Op(Op::MAX_POOL_2D, {x}, {p1}, b.Pool2D(Padding::SAME, 2, 2, 2, 2, Act::RELU));
  b.Op(Op::AVERAGE_POOL_2D, {x}, {p2}, b.Pool2D(Padding::VALID, 1, 3, 3, 2));
  b.Output(p1);
  b.Output(p2);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 2);
  CHECK(m.graph.nodes[0].op == OpKind::kMaxPool2D);
  CHECK(m.graph.nodes[0].attrs.GetString("activation") == "relu");
  CHECK(m.graph.nodes[1].op == OpKind::kAvgPool2D);
  CHECK(m.graph.nodes[1].attrs.GetInts("filter") == std::vector<int64_t>{3, 2});
  CHECK(m.graph.nodes[1].attrs.GetInts("strides") == std::vector<int64_t>{1, 3});
  CHECK(m.graph.nodes[1].attrs.GetString("padding") == "valid");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 4, 4, 1});
  const int32_t y2 = c.Tensor("y", {1, 4, 4, 1});
  c.Op(Op::MAX_POOL_2D, {x2}, {y2}, c.Pool2D(Padding::SAME, 1, 1, 0, 2));
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (MAX_POOL_2D): builtin_options.filter_height is"
        " 0; expected at least 1");
}

TEST_CASE("SOFTMAX: beta") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 10});
  const int32_t y = b.Tensor("y", {1, 10});
  b.Op(Op::SOFTMAX, {x}, {y}, b.Softmax(0.5f));
  b.Output(y);
  CHECK(OnlyNode(ImportOk(b)).attrs.GetFloat("beta") == 0.5);

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {1, 10});
  const int32_t y2 = c.Tensor("y", {1, 10});
  c.Op(Op::SOFTMAX, {x2}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (SOFTMAX): builtin_options is missing; expected"
        " SoftmaxOptions");
}

}  // namespace
}  // namespace opuc::test
