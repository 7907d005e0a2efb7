// quantize and lookup_table (src/ir/ops/quant_ops.cc): f32 -> i8 of the same
// shape; i8 through an i8[256] table to i8 of the same shape.
#include <doctest/doctest.h>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("quantize: f32 becomes i8 of the same shape") {
  const Tensor x = F32({1, 4, 4, 3});
  CHECK(Infer(OpKind::kQuantize, {&x}).type == TensorType{DType::kI8, {1, 4, 4, 3}});
  const Tensor scalar = F32({});
  CHECK(Infer(OpKind::kQuantize, {&scalar}).type == TensorType{DType::kI8, {}});
  const Tensor q = T(DType::kI8, {2}, "q");
  CHECK(Infer(OpKind::kQuantize, {&q}).error ==
        "quantize: input 'input' (tensor 'q') has dtype i8; expected one of [f32]");
  const Tensor h = T(DType::kF16, {2}, "h");
  CHECK(Contains(Infer(OpKind::kQuantize, {&h}).error, "has dtype f16; expected one of [f32]"));
  CHECK(Contains(Infer(OpKind::kQuantize, {&x, &x}).error, "has 2 inputs; expected 1"));
  CHECK(
      Contains(Infer(OpKind::kQuantize, {&x}, A({{"f", I64(7)}})).error, "unknown attribute 'f'"));
}

TEST_CASE("lookup_table: i8 input, i8[256] table, i8 output of the input's shape") {
  const Tensor x = T(DType::kI8, {1, 8, 8, 16}, "x");
  const Tensor table = T(DType::kI8, {256}, "lut");
  CHECK(Infer(OpKind::kLookupTable, {&x, &table}).type == TensorType{DType::kI8, {1, 8, 8, 16}});
  const Tensor f = F32({2}, "f");
  CHECK(Infer(OpKind::kLookupTable, {&f, &table}).error ==
        "lookup_table: input 'input' (tensor 'f') has dtype f32; expected one of [i8]");
  const Tensor wide = T(DType::kI32, {256}, "lut");
  CHECK(Infer(OpKind::kLookupTable, {&x, &wide}).error ==
        "lookup_table: input 'table' (tensor 'lut') has dtype i32; expected one of [i8]");
  const Tensor small = T(DType::kI8, {128}, "lut");
  CHECK(Infer(OpKind::kLookupTable, {&x, &small}).error ==
        "lookup_table: input 'table' (tensor 'lut') has shape [128]; expected [256] (one entry "
        "per int8 value)");
  const Tensor square = T(DType::kI8, {16, 16}, "lut");
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x, &square}).error, "has shape [16,16]"));
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x}).error, "has 1 inputs; expected 2"));
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x, nullptr}).error,
                 "input 1 'table' is required but absent"));
}

}  // namespace
}  // namespace opuc
