// quantize and lookup_table (src/ir/ops/quant_ops.cc): f32 -> i8 of the same
// shape unless the output declares u8 or i16; an 8-bit input through a
// [256] table, an i16 one through [257] knots, to the table's format.
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
        "lookup_table: input 'input' (tensor 'f') has dtype f32; expected one of [i8,u8,i16]");
  const Tensor wide = T(DType::kI32, {256}, "lut");
  CHECK(Infer(OpKind::kLookupTable, {&x, &wide}).error ==
        "lookup_table: input 'table' (tensor 'lut') has dtype i32; expected one of [i8,u8,i16]");
  const Tensor small = T(DType::kI8, {128}, "lut");
  CHECK(Infer(OpKind::kLookupTable, {&x, &small}).error ==
        "lookup_table: input 'table' (tensor 'lut') has shape [128]; expected [256] (one entry "
        "per 8-bit value)");
  const Tensor square = T(DType::kI8, {16, 16}, "lut");
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x, &square}).error, "has shape [16,16]"));
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x}).error, "has 1 inputs; expected 2"));
  CHECK(Contains(Infer(OpKind::kLookupTable, {&x, nullptr}).error,
                 "input 1 'table' is required but absent"));
}

TEST_CASE("lookup_table: u8 and i16 inputs, the table's format is the output's") {
  const Tensor u = T(DType::kU8, {4}, "u");
  const Tensor w = T(DType::kI16, {4}, "w");
  const Tensor table_i16 = T(DType::kI16, {256}, "lut");
  const Tensor knots_u8 = T(DType::kU8, {257}, "knots");
  CHECK(Infer(OpKind::kLookupTable, {&u, &table_i16}).type == TensorType{DType::kI16, {4}});
  CHECK(Infer(OpKind::kLookupTable, {&w, &knots_u8}).type == TensorType{DType::kU8, {4}});
  CHECK(Infer(OpKind::kLookupTable, {&w, &table_i16}).error ==
        "lookup_table: input 'table' (tensor 'lut') has shape [256]; expected [257] (one knot "
        "per high byte of an i16, and the end)");
  CHECK(Contains(Infer(OpKind::kLookupTable, {&u, &knots_u8}).error, "expected [256]"));
}

TEST_CASE("a declared quantized output keeps its format, other declarations do not count") {
  const Tensor x = F32({2}, "x");
  Tensor u8 = T(DType::kU8, {2}, "y");
  u8.fixed_point = FixedPoint{{7}, -1};
  CHECK(Infer(OpKind::kQuantize, {&x}, {}, &u8).type == TensorType{DType::kU8, {2}});
  Tensor i16 = T(DType::kI16, {2}, "y");
  i16.fixed_point = FixedPoint{{12}, -1};
  CHECK(Infer(OpKind::kQuantize, {&x}, {}, &i16).type == TensorType{DType::kI16, {2}});
  // Without a fixed point the declaration is not a quantized activation.
  const Tensor plain = T(DType::kI16, {2}, "y");
  CHECK(Infer(OpKind::kQuantize, {&x}, {}, &plain).type == TensorType{DType::kI8, {2}});
  // A float op's output stays float, whatever is declared.
  CHECK(Infer(OpKind::kRelu, {&x}, {}, &u8).type == TensorType{DType::kF32, {2}});
  // A relu from i8 to u8, as the quantizer writes it.
  const Tensor q = T(DType::kI8, {2}, "q");
  CHECK(Infer(OpKind::kRelu, {&q}, {}, &u8).type == TensorType{DType::kU8, {2}});
  // Mixed formats meet in one op: u8 + i16.
  CHECK(Infer(OpKind::kAdd, {&u8, &i16}, {}, &i16).type == TensorType{DType::kI16, {2}});
}

}  // namespace
}  // namespace opuc
