// Shape and type inference of max_pool2d, avg_pool2d, mean and softmax
// (src/ir/ops/pool_ops.cc). Pool windows follow TFLite: SAME -> ceil(in / s),
// VALID -> (in - k) / s + 1; channels are kept.
#include <doctest/doctest.h>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("max_pool2d/avg_pool2d: SAME and VALID windows") {
  for (OpKind op : {OpKind::kMaxPool2D, OpKind::kAvgPool2D}) {
    CAPTURE(OpName(op));
    const Tensor x = F32({1, 7, 7, 3});
    const Attributes s2 = A({{"filter", Ints({3, 3})}, {"strides", Ints({2, 2})}});
    // VALID (the default): (7-3)/2+1 = 3.
    CHECK(Infer(op, {&x}, s2).type == TensorType{DType::kF32, {1, 3, 3, 3}});
    // SAME: ceil(7/2) = 4.
    Attributes same = s2;
    same.Set("padding", Str("same"));
    CHECK(Infer(op, {&x}, same).type == TensorType{DType::kF32, {1, 4, 4, 3}});
    // filter [2,2] stride [2,2] VALID on 5x6: (5-2)/2+1 = 1+1 = 2, (6-2)/2+1 = 3.
    const Tensor y = T(DType::kI8, {2, 5, 6, 8});
    CHECK(Infer(op, {&y}, A({{"filter", Ints({2, 2})}, {"strides", Ints({2, 2})}})).type ==
          TensorType{DType::kI8, {2, 2, 3, 8}});
    // Non-square: filter [1,3], strides [1,3], VALID on 5x6: 5, (6-3)/3+1 = 2.
    CHECK(Infer(op, {&y}, A({{"filter", Ints({1, 3})}, {"strides", Ints({1, 3})}})).type ==
          TensorType{DType::kI8, {2, 5, 2, 8}});
  }
}

TEST_CASE("pool2d: a window larger than the input fits only with SAME") {
  const Tensor x = F32({1, 2, 2, 1});
  const InferResult valid = Infer(OpKind::kMaxPool2D, {&x}, A({{"filter", Ints({3, 3})}}));
  CHECK(Contains(valid.error, "max_pool2d: height: window of 3"));
  // SAME, stride 1: ceil(2/1) = 2.
  CHECK(Infer(OpKind::kMaxPool2D, {&x}, A({{"filter", Ints({3, 3})}, {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {1, 2, 2, 1}});
}

TEST_CASE("pool2d: attributes, rank and dtype") {
  const Tensor x = F32({1, 4, 4, 2});
  CHECK(Infer(OpKind::kAvgPool2D, {&x}).error == "required attribute 'filter' (ints) is missing");
  CHECK(Infer(OpKind::kAvgPool2D, {&x}, A({{"filter", Ints({0, 2})}})).error ==
        "attribute 'filter' is 0; expected a value in [1, 2147483647]");
  CHECK(Infer(OpKind::kAvgPool2D, {&x}, A({{"filter", Ints({2})}})).error ==
        "attribute 'filter' has 1 elements; expected 2");
  const Tensor flat = F32({4, 4, 2});
  CHECK(Contains(Infer(OpKind::kAvgPool2D, {&flat}, A({{"filter", Ints({2, 2})}})).error,
                 "has shape [4,4,2]; expected 4 dimensions [N,H,W,C]"));
  const Tensor i32 = T(DType::kI32, {1, 4, 4, 2});
  CHECK(Contains(Infer(OpKind::kMaxPool2D, {&i32}, A({{"filter", Ints({2, 2})}})).error,
                 "has dtype i32"));
}

TEST_CASE("mean: axes, negative axes, keep_dims") {
  const Tensor x = F32({1, 7, 7, 64});
  // Reduce H and W: [1,64]; keep_dims: [1,1,1,64].
  CHECK(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({1, 2})}})).type ==
        TensorType{DType::kF32, {1, 64}});
  CHECK(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({1, 2})}, {"keep_dims", true}})).type ==
        TensorType{DType::kF32, {1, 1, 1, 64}});
  // -3 + 4 = 1 and -2 + 4 = 2: the same axes; order does not matter.
  CHECK(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({-2, -3})}})).type ==
        TensorType{DType::kF32, {1, 64}});
  // Reduce everything: a scalar, or all ones with keep_dims.
  CHECK(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({0, 1, 2, 3})}})).type ==
        TensorType{DType::kF32, {}});
  CHECK(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({3, 0, 1, 2})}, {"keep_dims", true}})).type ==
        TensorType{DType::kF32, {1, 1, 1, 1}});
  // The last axis only: [1,7,7].
  const Tensor q = T(DType::kI8, {1, 7, 7, 64});
  CHECK(Infer(OpKind::kMean, {&q}, A({{"axes", Ints({-1})}})).type ==
        TensorType{DType::kI8, {1, 7, 7}});
}

TEST_CASE("mean: duplicate and out-of-range axes are errors") {
  const Tensor x = F32({2, 3, 4});
  // 1 and -2 (= -2 + 3 = 1) name the same axis. TFLite would deduplicate; the
  // IR keeps axes canonical and the importer removes duplicates.
  CHECK(Contains(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({1, -2})}})).error,
                 "attribute 'axes' names axis 1 twice"));
  CHECK(Contains(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({3})}})).error,
                 "axis 3 is out of range for rank 3"));
  CHECK(Contains(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({-4})}})).error,
                 "axis -4 is out of range for rank 3"));
  CHECK(Infer(OpKind::kMean, {&x}).error == "required attribute 'axes' (ints) is missing");
  CHECK(Contains(Infer(OpKind::kMean, {&x}, A({{"axes", Ints({0})}, {"keep_dims", I64(1)}})).error,
                 "attribute 'keep_dims' is int 1; expected bool"));
}

TEST_CASE("softmax: same type out - needs rank >= 1 - beta is a float") {
  const Tensor x = F32({2, 10});
  CHECK(Infer(OpKind::kSoftmax, {&x}).type == TensorType{DType::kF32, {2, 10}});
  CHECK(Infer(OpKind::kSoftmax, {&x}, A({{"beta", 0.5}})).type == TensorType{DType::kF32, {2, 10}});
  const Tensor scalar = F32({});
  CHECK(Contains(Infer(OpKind::kSoftmax, {&scalar}).error, "rank 0"));
  CHECK(Infer(OpKind::kSoftmax, {&x}, A({{"beta", I64(2)}})).error ==
        "attribute 'beta' is int 2; expected float");
}

TEST_CASE("softmax: an i8 input needs its i32[256] exp_table, a float one has none") {
  const Tensor q = T(DType::kI8, {1, 1000});
  const Tensor table = T(DType::kI32, {256}, "exp");
  CHECK(Infer(OpKind::kSoftmax, {&q, &table}).type == TensorType{DType::kI8, {1, 1000}});
  CHECK(Infer(OpKind::kSoftmax, {&q}).error ==
        "softmax: input 'exp_table' is absent; an i8 softmax needs its i32[256] table");
  CHECK(Infer(OpKind::kSoftmax, {&q, nullptr}).error ==
        "softmax: input 'exp_table' is absent; an i8 softmax needs its i32[256] table");
  const Tensor i8_table = T(DType::kI8, {256}, "exp");
  CHECK(Contains(Infer(OpKind::kSoftmax, {&q, &i8_table}).error,
                 "input 'exp_table' (tensor 'exp') has dtype i8; expected one of [i32]"));
  const Tensor short_table = T(DType::kI32, {255}, "exp");
  CHECK(Infer(OpKind::kSoftmax, {&q, &short_table}).error ==
        "softmax: input 'exp_table' (tensor 'exp') has shape [255]; expected [256]");
  const Tensor x = F32({2, 10});
  CHECK(Infer(OpKind::kSoftmax, {&x, &table}).error ==
        "softmax: input 'exp_table' is given for a f32 input; only an integer softmax takes one");
  CHECK(Contains(Infer(OpKind::kSoftmax, {&q, &table, &table}).error, "has 3 inputs"));
}

}  // namespace
}  // namespace opuc
