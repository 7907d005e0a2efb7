// Shape and type inference of pad, reshape, concat, resize_* and
// depth_to_space (src/ir/ops/data_movement_ops.cc), and densify
// (src/ir/ops/misc_ops.cc). These ops accept any dtype and keep it.
#include <doctest/doctest.h>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("pad: before/after per dimension") {
  const Tensor x = T(DType::kI8, {1, 4, 4, 3});
  // pads [0,0, 1,1, 2,2, 0,0]: H 4+1+1 = 6, W 4+2+2 = 8.
  CHECK(Infer(OpKind::kPad, {&x}, A({{"pads", Ints({0, 0, 1, 1, 2, 2, 0, 0})}})).type ==
        TensorType{DType::kI8, {1, 6, 8, 3}});
  // Asymmetric: H 4+0+1 = 5, W 4+3+0 = 7, C 3+1+1 = 5.
  CHECK(Infer(OpKind::kPad, {&x}, A({{"pads", Ints({0, 0, 0, 1, 3, 0, 1, 1})}, {"value", -1.5}}))
            .type == TensorType{DType::kI8, {1, 5, 7, 5}});
  CHECK(Infer(OpKind::kPad, {&x}, A({{"pads", Ints({0, 0, 1, 1, 1, 1})}})).error ==
        "pad: attribute 'pads' has 6 elements; expected 8 (before and after for each input "
        "dimension)");
  CHECK(Contains(Infer(OpKind::kPad, {&x}, A({{"pads", Ints({0, 0, -1, 0, 0, 0, 0, 0})}})).error,
                 "attribute 'pads' is -1; expected a value in [0, "));
  CHECK(Infer(OpKind::kPad, {&x}).error == "required attribute 'pads' (ints) is missing");
}

TEST_CASE("reshape: element counts must match") {
  const Tensor x = F32({1, 2, 3, 4});  // 24 elements
  CHECK(Infer(OpKind::kReshape, {&x}, A({{"new_shape", Ints({6, 4})}})).type ==
        TensorType{DType::kF32, {6, 4}});
  CHECK(Infer(OpKind::kReshape, {&x}, A({{"new_shape", Ints({24})}})).type ==
        TensorType{DType::kF32, {24}});
  // 5*5 = 25 != 24.
  CHECK(Infer(OpKind::kReshape, {&x}, A({{"new_shape", Ints({5, 5})}})).error ==
        "reshape: attribute 'new_shape' [5,5] does not hold the input's 24 elements (shape "
        "[1,2,3,4])");
  // -1 is resolved by the importer; the IR holds exact extents.
  CHECK(Contains(Infer(OpKind::kReshape, {&x}, A({{"new_shape", Ints({-1, 4})}})).error,
                 "attribute 'new_shape' is -1"));
  // A scalar holds one element.
  const Tensor one = F32({1, 1});
  CHECK(Infer(OpKind::kReshape, {&one}, A({{"new_shape", Ints({})}})).type ==
        TensorType{DType::kF32, {}});
}

TEST_CASE("concat: axis, negative axis, several inputs") {
  const Tensor a = F32({1, 4, 4, 3}, "a");
  const Tensor b = F32({1, 4, 4, 5}, "b");
  // 3 + 5 = 8 channels.
  CHECK(Infer(OpKind::kConcat, {&a, &b}, A({{"axis", I64(3)}})).type ==
        TensorType{DType::kF32, {1, 4, 4, 8}});
  CHECK(Infer(OpKind::kConcat, {&a, &b}, A({{"axis", I64(-1)}})).type ==
        TensorType{DType::kF32, {1, 4, 4, 8}});
  // Three inputs on axis 0: 2 + 1 + 4 = 7.
  const Tensor p = F32({2, 3});
  const Tensor q = F32({1, 3});
  const Tensor r = F32({4, 3});
  CHECK(Infer(OpKind::kConcat, {&p, &q, &r}, A({{"axis", I64(0)}})).type ==
        TensorType{DType::kF32, {7, 3}});
  // Axis -2 of rank 2 is axis 0.
  CHECK(Infer(OpKind::kConcat, {&p, &q}, A({{"axis", I64(-2)}})).type ==
        TensorType{DType::kF32, {3, 3}});
  // One input is a copy.
  CHECK(Infer(OpKind::kConcat, {&a}, A({{"axis", I64(1)}})).type ==
        TensorType{DType::kF32, {1, 4, 4, 3}});
}

TEST_CASE("concat: mismatched inputs and bad axes are errors") {
  const Tensor a = F32({1, 4, 4, 3}, "a");
  const Tensor wrong_h = F32({1, 5, 4, 5}, "wrong_h");
  CHECK(Contains(Infer(OpKind::kConcat, {&a, &wrong_h}, A({{"axis", I64(3)}})).error,
                 "input 1 (tensor 'wrong_h') has shape [1,5,4,5]; expected [1,4,4,3] except "
                 "along axis 3"));
  const Tensor rank3 = F32({1, 4, 4}, "rank3");
  CHECK(Contains(Infer(OpKind::kConcat, {&a, &rank3}, A({{"axis", I64(3)}})).error,
                 "input 1 (tensor 'rank3')"));
  const Tensor q = T(DType::kI8, {1, 4, 4, 3});
  CHECK(Contains(Infer(OpKind::kConcat, {&a, &q}, A({{"axis", I64(3)}})).error,
                 "input 'inputs 1' has dtype i8; expected f32"));
  CHECK(Contains(Infer(OpKind::kConcat, {&a, &a}, A({{"axis", I64(4)}})).error,
                 "concat: attribute 'axis': 4 is out of range for rank 4"));
  CHECK(Contains(Infer(OpKind::kConcat, {&a, &a}, A({{"axis", I64(-5)}})).error,
                 "concat: attribute 'axis': -5 is out of range for rank 4"));
  CHECK(Infer(OpKind::kConcat, {}, A({{"axis", I64(0)}})).error ==
        "concat: has 0 inputs; expected at least 1");
  CHECK(Infer(OpKind::kConcat, {&a, nullptr}, A({{"axis", I64(0)}})).error ==
        "concat: input 1 'inputs' is required but absent");
  CHECK(Infer(OpKind::kConcat, {&a, &a}).error == "required attribute 'axis' (int) is missing");
}

TEST_CASE("resize_bilinear/resize_nearest: size replaces H and W") {
  for (OpKind op : {OpKind::kResizeBilinear, OpKind::kResizeNearest}) {
    CAPTURE(OpName(op));
    const Tensor x = T(DType::kI8, {2, 4, 5, 3});
    CHECK(Infer(op, {&x}, A({{"size", Ints({8, 10})}})).type ==
          TensorType{DType::kI8, {2, 8, 10, 3}});
    // Downscaling is fine too.
    CHECK(Infer(op, {&x}, A({{"size", Ints({2, 1})}, {"half_pixel_centers", true}})).type ==
          TensorType{DType::kI8, {2, 2, 1, 3}});
    CHECK(Infer(op, {&x}, A({{"size", Ints({8, 8})}, {"align_corners", true}})).ok);
    CHECK(Contains(
        Infer(op, {&x},
              A({{"size", Ints({8, 8})}, {"align_corners", true}, {"half_pixel_centers", true}}))
            .error,
        "'align_corners' and 'half_pixel_centers' are both true"));
    CHECK(Contains(Infer(op, {&x}, A({{"size", Ints({0, 8})}})).error, "attribute 'size' is 0"));
    CHECK(Contains(Infer(op, {&x}, A({{"size", Ints({8, 8, 1})}})).error,
                   "attribute 'size' has 3 elements; expected 2"));
    const Tensor flat = T(DType::kI8, {4, 5, 3});
    CHECK(Contains(Infer(op, {&flat}, A({{"size", Ints({8, 8})}})).error, "expected 4 dimensions"));
  }
}

TEST_CASE("depth_to_space: channels split into block x block") {
  const Tensor x = F32({1, 2, 3, 8});
  // block 2: H 2*2 = 4, W 3*2 = 6, C 8/(2*2) = 2.
  CHECK(Infer(OpKind::kDepthToSpace, {&x}, A({{"block_size", I64(2)}})).type ==
        TensorType{DType::kF32, {1, 4, 6, 2}});
  // block 1 is the identity.
  CHECK(Infer(OpKind::kDepthToSpace, {&x}, A({{"block_size", I64(1)}})).type ==
        TensorType{DType::kF32, {1, 2, 3, 8}});
  // block 3: 8 % 9 != 0.
  CHECK(Contains(Infer(OpKind::kDepthToSpace, {&x}, A({{"block_size", I64(3)}})).error,
                 "input has 8 channels; expected a multiple of 9 (block_size 3 squared)"));
  // 12 channels with block 2: 12 % 4 = 0 -> 3 channels.
  const Tensor y = T(DType::kI8, {1, 1, 1, 12});
  CHECK(Infer(OpKind::kDepthToSpace, {&y}, A({{"block_size", I64(2)}})).type ==
        TensorType{DType::kI8, {1, 2, 2, 3}});
  CHECK(Contains(Infer(OpKind::kDepthToSpace, {&x}, A({{"block_size", I64(0)}})).error,
                 "attribute 'block_size' is 0; expected a value in [1, "));
}

TEST_CASE("densify: same declared type out") {
  const Tensor w = F32({16, 3, 3, 8});
  CHECK(Infer(OpKind::kDensify, {&w}).type == TensorType{DType::kF32, {16, 3, 3, 8}});
  const Tensor q = T(DType::kI8, {4, 4});
  CHECK(Infer(OpKind::kDensify, {&q}).type == TensorType{DType::kI8, {4, 4}});
  CHECK(Infer(OpKind::kDensify, {}).error == "densify: has 0 inputs; expected 1");
}

}  // namespace
}  // namespace opuc
