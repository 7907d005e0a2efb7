//===- tests/cpu/elementwise_test.cc - Elementwise ops against the reference -===//
//
// The CPU executor's activations, same-shape add and sub, mul, prelu, lookup_table,
// quantize, dequantize, pad and depth_to_space compute the reference's rules in other loops, so
// both agree exactly, floats included: random values (with ties and both saturations in reach),
// every input and output format, fraction lengths that shift both ways, fused activations on add
// and mul, every broadcast form of mul's and prelu's second operand, infinities and NaN for
// quantize; and a broadcasting add or sub, which runs on the reference's kernel.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <random>

#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_builder.h"
#include "same_as_reference.h"

namespace opuc {
namespace {

using testing::Draw;

TEST_CASE("activations equal the reference's in every format") {
  Draw draw(3);
  for (OpKind op : {OpKind::kRelu, OpKind::kRelu6, OpKind::kReluN1To1})
    for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
      for (int i = 0; i < 8; ++i) {
        const Shape shape{1, draw.Int(1, 9), draw.Int(1, 9), draw.Int(1, 17)};
        GraphBuilder b("act");
        const TensorId x = b.Input("x", in, shape);
        const TensorId y = b.Op(op, "act", {x});
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        if (in != DType::kF32) {
          g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 8))}, -1};
          g.tensor(y).dtype = testing::kIntegerFormats[draw.Int(0, 2)];
          g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 8))}, -1};
        }
        CAPTURE(OpName(op));
        CAPTURE(DTypeName(in));
        CAPTURE(DTypeName(g.tensor(y).dtype));
        CHECK(testing::SameAsReference(g, {draw.Values(in, shape)}));
      }
}

TEST_CASE("add and sub equal the reference's, broadcasting or not") {
  Draw draw(4);
  const char* activations[] = {"none", "relu", "relu6", "relu_n1_to_1"};
  for (OpKind op : {OpKind::kAdd, OpKind::kSub})
    for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
      for (int i = 0; i < 12; ++i) {
        const Shape shape{1, draw.Int(1, 9), draw.Int(1, 9), draw.Int(1, 17)};
        const bool broadcast = i % 4 == 3;
        const Shape rhs_shape = broadcast ? Shape{shape[3]} : shape;
        Attributes attrs;
        attrs.Set("activation", AttrValue(std::string(activations[draw.Int(0, 3)])));
        GraphBuilder b("add");
        const TensorId x = b.Input("x", in, shape);
        const TensorId z = b.Input("z", in, rhs_shape);
        const TensorId y = b.Op(op, "op", {x, z}, attrs);
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        if (in != DType::kF32) {
          // i16 lhs of fraction 16..23 over an rhs of 0..9: sums beyond int32 (the int64 form)
          const bool wide = in == DType::kI16 && i % 3 == 0;
          g.tensor(x).fixed_point =
              FixedPoint{{static_cast<int32_t>(wide ? draw.Int(16, 23) : draw.Int(0, 9))}, -1};
          g.tensor(z).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
          g.tensor(y).dtype = testing::kIntegerFormats[draw.Int(0, 2)];
          g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
        }
        CAPTURE(OpName(op));
        CAPTURE(DTypeName(in));
        CAPTURE(broadcast);
        CHECK(testing::SameAsReference(g, {draw.Values(in, shape), draw.Values(in, rhs_shape)}));
      }
}

/// The second operand's shapes for an output of `shape`: the same shape, a
/// value per channel (two spellings), per row, one value, and one that does
/// not repeat along the output (a value per pixel), which runs on the
/// reference's kernel.
std::vector<Shape> BroadcastForms(const Shape& shape) {
  return {shape,
          {shape[3]},
          {1, 1, 1, shape[3]},
          {shape[2], shape[3]},
          {1},
          {1, shape[1], shape[2], 1}};
}

TEST_CASE("mul equals the reference's over every broadcast, either operand repeating") {
  Draw draw(6);
  const char* activations[] = {"none", "relu", "relu6", "relu_n1_to_1"};
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (int i = 0; i < 24; ++i) {
      const Shape shape{1, draw.Int(1, 7), draw.Int(1, 7), draw.Int(1, 40)};
      const std::vector<Shape> forms = BroadcastForms(shape);
      const Shape small = forms[static_cast<size_t>(i) % forms.size()];
      const bool swapped = i % 3 == 2;  // the repeating operand first
      const DType other = in == DType::kF32 ? in : testing::kIntegerFormats[draw.Int(0, 2)];
      Attributes attrs;
      attrs.Set("activation", AttrValue(std::string(activations[draw.Int(0, 3)])));
      GraphBuilder b("mul");
      const TensorId x = swapped ? b.Input("x", other, small) : b.Input("x", in, shape);
      const TensorId w = swapped ? b.Input("w", in, shape) : b.Input("w", other, small);
      const TensorId y = b.Op(OpKind::kMul, "mul", {x, w}, attrs);
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      if (in != DType::kF32) {
        g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 12))}, -1};
        g.tensor(w).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 12))}, -1};
        g.tensor(y).dtype = testing::kIntegerFormats[draw.Int(0, 2)];
        g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 14))}, -1};
      }
      CAPTURE(DTypeName(in));
      CAPTURE(ShapeToString(shape));
      CAPTURE(ShapeToString(small));
      CAPTURE(swapped);
      CHECK(testing::SameAsReference(g, {draw.Values(g.tensor(x).dtype, g.tensor(x).shape),
                                         draw.Values(g.tensor(w).dtype, g.tensor(w).shape)}));
    }
}

TEST_CASE("prelu equals the reference's over every broadcast of its slopes") {
  Draw draw(7);
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (int i = 0; i < 24; ++i) {
      const Shape shape{1, draw.Int(1, 7), draw.Int(1, 7), draw.Int(1, 40)};
      const std::vector<Shape> forms = BroadcastForms(shape);
      const Shape slopes = forms[static_cast<size_t>(i) % forms.size()];
      GraphBuilder b("prelu");
      const TensorId x = b.Input("x", in, shape);
      const TensorId a = b.Input("alpha", in == DType::kF32 ? in : DType::kI8, slopes);
      const TensorId y = b.Op(OpKind::kPRelu, "prelu", {x, a});
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      if (in != DType::kF32) {
        g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
        // Slopes' fraction lengths of weights, up to 23: the largest shifts
        // leave the int32 stage's range and run on the reference's kernel.
        g.tensor(a).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 23))}, -1};
        g.tensor(y).dtype = testing::kIntegerFormats[draw.Int(0, 2)];
        g.tensor(y).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
      }
      CAPTURE(DTypeName(in));
      CAPTURE(ShapeToString(slopes));
      CHECK(testing::SameAsReference(
          g, {draw.Values(in, shape), draw.Values(g.tensor(a).dtype, slopes)}));
    }
}

TEST_CASE("lookup_table equals the reference's for every input and table format") {
  Draw draw(8);
  for (DType in : testing::kIntegerFormats)
    for (DType out : testing::kIntegerFormats)
      for (int i = 0; i < 3; ++i) {
        const Shape shape{1, draw.Int(1, 9), draw.Int(1, 9), draw.Int(1, 17)};
        const Shape entries{in == DType::kI16 ? 257 : 256};
        GraphBuilder b("table");
        const TensorId x = b.Input("x", in, shape);
        const TensorId t = b.Input("t", out, entries);
        const TensorId y = b.Op(OpKind::kLookupTable, "lut", {x, t});
        b.Output(y);
        Graph g = std::move(b).Finish().value();
        g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
        const FixedPoint f_out{{static_cast<int32_t>(draw.Int(0, 9))}, -1};
        g.tensor(t).fixed_point = f_out;
        g.tensor(y).fixed_point = f_out;
        CAPTURE(DTypeName(in));
        CAPTURE(DTypeName(out));
        CHECK(testing::SameAsReference(g, {draw.Values(in, shape), draw.Values(out, entries)}));
      }
}

TEST_CASE("quantize equals the reference's: ties, infinities, NaN, both ends") {
  Draw draw(9);
  for (DType out : testing::kIntegerFormats)
    for (int f : {-3, 0, 4, 11}) {
      const Shape shape{1, 5, 7, 9};
      GraphBuilder b("quantize");
      const TensorId x = b.Input("x", DType::kF32, shape);
      const TensorId y = b.Op(OpKind::kQuantize, "q", {x});
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      g.tensor(y).dtype = out;
      g.tensor(y).fixed_point = FixedPoint{{f}, -1};
      HostTensor values = draw.Values(DType::kF32, shape);
      float* v = values.data<float>();
      const float special[] = {std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(),
                               -0.0f,
                               1e30f,
                               -1e30f,
                               std::ldexp(2.5f, -f),    // a tie: 2.5 at f → 3
                               std::ldexp(-2.5f, -f),   // −2.5 → −2 (half up)
                               std::ldexp(127.5f, -f),  // rounds to 128: saturates in i8
                               std::ldexp(-128.5f, -f)};
      for (size_t i = 0; i < std::size(special); ++i) v[i * 7] = special[i];
      for (int64_t i = 100; i < values.elements(); ++i)  // more ties, at random
        v[i] = std::ldexp(static_cast<float>(draw.Int(-70000, 70000)) + 0.5f, -f);
      CAPTURE(DTypeName(out));
      CAPTURE(f);
      CHECK(testing::SameAsReference(g, {values}));
    }
}

TEST_CASE("dequantize gives the reference's bits in every format, per tensor or per axis") {
  Draw draw(7);
  for (DType in : testing::kIntegerFormats)
    for (int i = 0; i < 12; ++i) {
      const Shape shape{1, draw.Int(1, 6), draw.Int(1, 6), draw.Int(1, 9)};
      GraphBuilder b("dequantize");
      const TensorId x = b.Input("x", in, shape);
      const TensorId y = b.Op(OpKind::kDequantize, "dq", {x});
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      const int top = in == DType::kI16 ? 23 : 15;
      if (i % 6 == 5) {  // beyond an activation's lengths (2^150 is no float): the reference's
        g.tensor(x).fixed_point = FixedPoint{{i % 12 == 5 ? 150 : -150}, -1};
      } else if (i % 4 == 3) {  // per channel: the reference's kernel
        std::vector<int32_t> f;
        for (int64_t c = 0; c < shape[3]; ++c) f.push_back(static_cast<int32_t>(draw.Int(-8, top)));
        g.tensor(x).fixed_point = FixedPoint{f, 3};
      } else {
        g.tensor(x).fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(-8, top))}, -1};
      }
      CAPTURE(DTypeName(in));
      CHECK(testing::SameAsReference(g, {draw.Values(in, shape)}));
    }
}

/// Fraction lengths for a quantized move from x to y: `same` keeps x's
/// format and fraction length (the copy without a move), else y's are drawn.
void MoveFormats(Graph& g, TensorId x, TensorId y, bool same, Draw& draw) {
  const auto f = static_cast<int32_t>(draw.Int(0, 9));
  g.tensor(x).fixed_point = FixedPoint{{f}, -1};
  g.tensor(y).dtype = same ? g.tensor(x).dtype : testing::kIntegerFormats[draw.Int(0, 2)];
  g.tensor(y).fixed_point = FixedPoint{{same ? f : static_cast<int32_t>(draw.Int(0, 9))}, -1};
}

TEST_CASE("pad equals the reference's, moving between formats or not") {
  Draw draw(5);
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (int i = 0; i < 12; ++i) {
      const Shape shape{1, draw.Int(1, 6), draw.Int(1, 6), draw.Int(1, 9)};
      std::vector<int64_t> pads;
      for (int d = 0; d < 8; ++d) pads.push_back(d < 2 ? 0 : draw.Int(0, 3));
      Attributes attrs;
      attrs.Set("pads", AttrValue(pads));
      GraphBuilder b("pad");
      const TensorId x = b.Input("x", in, shape);
      const TensorId y = b.Op(OpKind::kPad, "pad", {x}, attrs);
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      if (in != DType::kF32) MoveFormats(g, x, y, /*same=*/i % 2 == 0, draw);
      const int64_t lowest = g.tensor(y).dtype == DType::kU8 ? 0 : -5;  // inside the format
      g.nodes[0].attrs.Set("value", AttrValue(static_cast<double>(draw.Int(lowest, 5))));
      CAPTURE(DTypeName(in));
      CAPTURE(DTypeName(g.tensor(y).dtype));
      CHECK(testing::SameAsReference(g, {draw.Values(in, shape)}));
    }
}

TEST_CASE("depth_to_space equals the reference's, moving between formats or not") {
  Draw draw(6);
  for (DType in : {DType::kF32, DType::kI8, DType::kU8, DType::kI16})
    for (int i = 0; i < 12; ++i) {
      const int64_t block = draw.Int(2, 3);
      const Shape shape{draw.Int(1, 2), draw.Int(1, 5), draw.Int(1, 5),
                        block * block * draw.Int(1, 7)};
      Attributes attrs;
      attrs.Set("block_size", AttrValue(block));
      GraphBuilder b("depth_to_space");
      const TensorId x = b.Input("x", in, shape);
      const TensorId y = b.Op(OpKind::kDepthToSpace, "d2s", {x}, attrs);
      b.Output(y);
      Graph g = std::move(b).Finish().value();
      if (in != DType::kF32) MoveFormats(g, x, y, /*same=*/i % 2 == 0, draw);
      CAPTURE(DTypeName(in));
      CAPTURE(ShapeToString(shape));
      CHECK(testing::SameAsReference(g, {draw.Values(in, shape)}));
    }
}

}  // namespace
}  // namespace opuc
