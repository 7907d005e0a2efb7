// Shape and type inference of the elementwise ops (src/ir/ops/elementwise_ops.cc):
// add/sub/mul broadcast as NumPy (and TFLite) do, prelu's alpha broadcasts to
// the input, unary ops keep shape and dtype, dequantize gives f32.
#include <doctest/doctest.h>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("add/sub/mul: NumPy broadcasting") {
  for (OpKind op : {OpKind::kAdd, OpKind::kSub, OpKind::kMul}) {
    CAPTURE(OpName(op));
    const Tensor a = F32({1, 4, 4, 3});
    const Tensor c = F32({3});
    // [1,4,4,3] with [3]: [3] aligns right, -> [1,4,4,3].
    CHECK(Infer(op, {&a, &c}).type == TensorType{DType::kF32, {1, 4, 4, 3}});
    CHECK(Infer(op, {&c, &a}).type == TensorType{DType::kF32, {1, 4, 4, 3}});
    // [2,1,5] with [4,1] = [1,4,1]: max per axis where one side is 1 -> [2,4,5].
    const Tensor p = F32({2, 1, 5});
    const Tensor q = F32({4, 1});
    CHECK(Infer(op, {&p, &q}).type == TensorType{DType::kF32, {2, 4, 5}});
    // A scalar broadcasts to anything.
    const Tensor s = F32({});
    const Tensor m = F32({2, 3});
    CHECK(Infer(op, {&s, &m}).type == TensorType{DType::kF32, {2, 3}});
    CHECK(Infer(op, {&s, &s}).type == TensorType{DType::kF32, {}});
    // 3 vs 2 in the last axis: neither is 1.
    const Tensor d = F32({1, 4, 4, 2});
    const InferResult bad = Infer(op, {&a, &d});
    CHECK_FALSE(bad.ok);
    CHECK(Contains(bad.error,
                   "shapes [1,4,4,3] and [1,4,4,2] do not broadcast (dimension 3: 3 vs 2)"));
    // A zero extent broadcasts against 1 only.
    const Tensor z = F32({0, 3});
    const Tensor one = F32({1, 3});
    CHECK(Infer(op, {&z, &one}).type == TensorType{DType::kF32, {0, 3}});
    CHECK_FALSE(Infer(op, {&z, &m}).ok);  // 0 vs 2
  }
}

TEST_CASE("add: dtypes, activation and arity") {
  const Tensor a = F32({2, 2}, "a");
  const Tensor b8 = T(DType::kI8, {2, 2}, "b");
  CHECK(Contains(Infer(OpKind::kAdd, {&a, &b8}).error, "input 'rhs' has dtype i8; expected f32"));
  const Tensor i32 = T(DType::kI32, {2, 2});
  CHECK(Infer(OpKind::kAdd, {&i32, &i32}).type == TensorType{DType::kI32, {2, 2}});
  const Tensor i16 = T(DType::kI16, {2, 2});
  CHECK(Infer(OpKind::kMul, {&i16, &i16}).type == TensorType{DType::kI16, {2, 2}});
  CHECK(Infer(OpKind::kAdd, {&b8, &b8}, A({{"activation", Str("relu6")}})).type ==
        TensorType{DType::kI8, {2, 2}});
  CHECK(Contains(Infer(OpKind::kAdd, {&a, &a}, A({{"activation", Str("sigmoid")}})).error,
                 "attribute 'activation' is \"sigmoid\""));
  CHECK(Infer(OpKind::kSub, {&a}).error == "sub: has 1 inputs; expected 2");
  CHECK(Infer(OpKind::kSub, {&a, &a, &a}).error == "sub: has 3 inputs; expected 2");
}

TEST_CASE("prelu: alpha must broadcast to the input's shape") {
  const Tensor x = F32({1, 4, 4, 3});
  // Per-channel [3], [1,1,3] and full [4,4,3] alphas all broadcast to [1,4,4,3].
  for (Shape alpha_shape : {Shape{3}, Shape{1, 1, 3}, Shape{4, 4, 3}, Shape{1, 4, 4, 3}}) {
    CAPTURE(ShapeToString(alpha_shape));
    const Tensor alpha = F32(alpha_shape, "alpha");
    CHECK(Infer(OpKind::kPRelu, {&x, &alpha}).type == TensorType{DType::kF32, {1, 4, 4, 3}});
  }
  // [2,1,1,3] broadcasts with the input, but to [2,4,4,3], not to the input.
  const Tensor wide = F32({2, 1, 1, 3});
  CHECK(Contains(Infer(OpKind::kPRelu, {&x, &wide}).error,
                 "input 'alpha' has shape [2,1,1,3]; expected a shape that broadcasts to the "
                 "input's [1,4,4,3]"));
  // Rank 5 broadcasts to rank 5, not the input's rank 4.
  const Tensor deep = F32({1, 1, 4, 4, 3});
  CHECK_FALSE(Infer(OpKind::kPRelu, {&x, &deep}).ok);
  const Tensor five = F32({5});
  CHECK(Contains(Infer(OpKind::kPRelu, {&x, &five}).error, "do not broadcast"));
  const Tensor alpha8 = T(DType::kI8, {3});
  CHECK(Contains(Infer(OpKind::kPRelu, {&x, &alpha8}).error, "input 'alpha' has dtype i8"));
}

TEST_CASE("unary ops keep shape and dtype - f32, f16 and the quantized formats only") {
  const OpKind unary[] = {OpKind::kRelu,      OpKind::kRelu6,   OpKind::kReluN1To1,
                          OpKind::kHardSwish, OpKind::kSigmoid, OpKind::kTanh};
  for (OpKind op : unary) {
    CAPTURE(OpName(op));
    for (DType dtype : {DType::kF32, DType::kF16, DType::kI8, DType::kU8, DType::kI16}) {
      const Tensor x = T(dtype, {2, 3, 5});
      CHECK(Infer(op, {&x}).type == TensorType{dtype, {2, 3, 5}});
    }
    const Tensor x32 = T(DType::kI32, {2});
    CHECK(Contains(Infer(op, {&x32}).error, "has dtype i32; expected one of [f32,f16,i8,u8,i16]"));
    const Tensor x = F32({2});
    CHECK(Contains(Infer(op, {&x, &x}).error, "has 2 inputs; expected 1"));
    CHECK(Contains(Infer(op, {&x}, A({{"alpha", 0.5}})).error, "unknown attribute 'alpha'"));
  }
}

TEST_CASE("leaky_relu: alpha is a required float") {
  const Tensor x = F32({1, 3});
  CHECK(Infer(OpKind::kLeakyRelu, {&x}, A({{"alpha", 0.2}})).type ==
        TensorType{DType::kF32, {1, 3}});
  CHECK(Infer(OpKind::kLeakyRelu, {&x}).error == "required attribute 'alpha' (float) is missing");
  CHECK(Infer(OpKind::kLeakyRelu, {&x}, A({{"alpha", I64(1)}})).error ==
        "attribute 'alpha' is int 1; expected float");
}

TEST_CASE("dequantize: f16 and the quantized formats become f32 of the same shape") {
  const Tensor h = T(DType::kF16, {3, 3, 2});
  CHECK(Infer(OpKind::kDequantize, {&h}).type == TensorType{DType::kF32, {3, 3, 2}});
  const Tensor q = T(DType::kI8, {4});
  CHECK(Infer(OpKind::kDequantize, {&q}).type == TensorType{DType::kF32, {4}});
  const Tensor f = F32({4});
  CHECK(Contains(Infer(OpKind::kDequantize, {&f}).error,
                 "has dtype f32; expected one of [f16,i8,u8,i16]"));
  const Tensor i32 = T(DType::kI32, {4});
  CHECK_FALSE(Infer(OpKind::kDequantize, {&i32}).ok);
}

}  // namespace
}  // namespace opuc
