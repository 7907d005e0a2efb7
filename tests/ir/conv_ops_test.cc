// Shape and type inference of conv2d, depthwise_conv2d, transpose_conv2d and
// fully_connected (src/ir/ops/conv_ops.cc). Expected shapes follow TFLite's
// ComputeOutSize: SAME -> ceil(in / stride); VALID -> (in - eff) / stride + 1
// with eff = (k - 1) * dilation + 1. The arithmetic is written next to each case.
#include <doctest/doctest.h>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("conv2d: SAME and VALID with stride 2, OHWI weights, bias") {
  const Tensor x = F32({1, 7, 7, 3}, "x");
  const Tensor w = F32({8, 3, 3, 3}, "w");  // [Co=8, Kh=3, Kw=3, Ci=3]
  const Tensor b = F32({8}, "b");
  // SAME: ceil(7/2) = 4.
  CHECK(
      Infer(OpKind::kConv2D, {&x, &w, &b}, A({{"strides", Ints({2, 2})}, {"padding", Str("same")}}))
          .type == TensorType{DType::kF32, {1, 4, 4, 8}});
  // VALID: (7 - 3) / 2 + 1 = 3.
  CHECK(Infer(OpKind::kConv2D, {&x, &w, &b},
              A({{"strides", Ints({2, 2})}, {"padding", Str("valid")}}))
            .type == TensorType{DType::kF32, {1, 3, 3, 8}});
  // Defaults are stride 1, dilation 1, VALID: 7 - 3 + 1 = 5.
  CHECK(Infer(OpKind::kConv2D, {&x, &w, &b}).type == TensorType{DType::kF32, {1, 5, 5, 8}});
  // VALID, stride 2, dilation 2: eff = (3-1)*2+1 = 5; (7-5)/2+1 = 2.
  CHECK(
      Infer(OpKind::kConv2D, {&x, &w}, A({{"strides", Ints({2, 2})}, {"dilations", Ints({2, 2})}}))
          .type == TensorType{DType::kF32, {1, 2, 2, 8}});
}

TEST_CASE("conv2d: mixed strides and dilations per axis") {
  const Tensor x = F32({2, 9, 8, 3});
  const Tensor w = F32({4, 3, 3, 3});
  // VALID, strides [1,2], dilations [2,1]:
  //   height eff = (3-1)*2+1 = 5, (9-5)/1+1 = 5; width eff = 3, (8-3)/2+1 = 2+1 = 3.
  CHECK(
      Infer(OpKind::kConv2D, {&x, &w}, A({{"strides", Ints({1, 2})}, {"dilations", Ints({2, 1})}}))
          .type == TensorType{DType::kF32, {2, 5, 3, 4}});
  // SAME ignores the window: strides [3,2] -> ceil(9/3) = 3, ceil(8/2) = 4.
  CHECK(Infer(OpKind::kConv2D, {&x, &w},
              A({{"strides", Ints({3, 2})}, {"dilations", Ints({2, 2})}, {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {2, 3, 4, 4}});
  // SAME with stride 4 on 9: ceil(9/4) = 3; on 8: ceil(8/4) = 2.
  CHECK(Infer(OpKind::kConv2D, {&x, &w}, A({{"strides", Ints({4, 4})}, {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {2, 3, 2, 4}});
}

TEST_CASE("conv2d: a VALID window that does not fit is an error") {
  const Tensor x = F32({1, 4, 6, 3});
  const Tensor w = F32({4, 3, 3, 3});
  // Height: eff = (3-1)*2+1 = 5 > 4.
  const InferResult r = Infer(OpKind::kConv2D, {&x, &w}, A({{"dilations", Ints({2, 1})}}));
  CHECK_FALSE(r.ok);
  CHECK(Contains(r.error, "conv2d: height: window of 5"));
  CHECK(Contains(r.error, "does not fit the input extent 4"));
  // An empty kernel has no window: VALID would give (4-0)/1+1 = 5 > 4, so it is an error.
  const Tensor w_empty = F32({4, 0, 3, 3});
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w_empty}).error, "height: kernel extent is 0"));
  const Tensor dw_empty = F32({1, 3, 0, 3});
  CHECK(Contains(
      Infer(OpKind::kDepthwiseConv2D, {&x, &dw_empty}, A({{"padding", Str("same")}})).error,
      "width: kernel extent is 0"));
  // SAME pads instead: ceil(4/1) = 4, ceil(6/1) = 6.
  CHECK(Infer(OpKind::kConv2D, {&x, &w}, A({{"dilations", Ints({2, 1})}, {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {1, 4, 6, 4}});
}

TEST_CASE("conv2d: shapes and dtypes of weights and bias") {
  const Tensor x = F32({1, 5, 5, 3});
  const Tensor w_ci4 = F32({4, 3, 3, 4}, "w4");
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w_ci4}).error, "has 4 input channels"));
  const Tensor w = F32({4, 3, 3, 3});
  const Tensor b3 = F32({3}, "b3");
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w, &b3}).error,
                 "input 'bias' has shape [3]; expected [4]"));
  const Tensor w_rank3 = F32({4, 3, 3});
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w_rank3}).error, "expected 4 dimensions"));
  const Tensor x_rank3 = F32({5, 5, 3});
  CHECK(Contains(Infer(OpKind::kConv2D, {&x_rank3, &w}).error, "[N,H,W,C]"));

  // A float conv takes a bias of its own dtype; i32 is wrong.
  const Tensor b_i32 = T(DType::kI32, {4}, "b");
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w, &b_i32}).error,
                 "input 'bias' (tensor 'b') has dtype i32; expected one of [f32]"));
  // Weights must have the input's dtype.
  const Tensor w_i8 = T(DType::kI8, {4, 3, 3, 3}, "w");
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w_i8}).error,
                 "input 'weights' has dtype i8; expected f32"));
  // Inner products take f32, f16 or quantized activations; not i32.
  const Tensor x_i32 = T(DType::kI32, {1, 5, 5, 3});
  CHECK(Contains(Infer(OpKind::kConv2D, {&x_i32, &w}).error, "has dtype i32"));
}

TEST_CASE("conv2d: quantized i8 takes an i32 bias and outputs i8 - f16 keeps f16") {
  const Tensor x = T(DType::kI8, {1, 5, 5, 3});
  const Tensor w = T(DType::kI8, {4, 1, 1, 3});
  const Tensor b32 = T(DType::kI32, {4});
  // 1x1 kernel, VALID: 5 - 1 + 1 = 5.
  CHECK(Infer(OpKind::kConv2D, {&x, &w, &b32}).type == TensorType{DType::kI8, {1, 5, 5, 4}});
  const Tensor b8 = T(DType::kI8, {4}, "b");
  CHECK(Contains(Infer(OpKind::kConv2D, {&x, &w, &b8}).error,
                 "input 'bias' (tensor 'b') has dtype i8; expected one of [i32]"));
  const Tensor xh = T(DType::kF16, {1, 5, 5, 3});
  const Tensor wh = T(DType::kF16, {4, 1, 1, 3});
  const Tensor bh = T(DType::kF16, {4});
  CHECK(Infer(OpKind::kConv2D, {&xh, &wh, &bh}).type == TensorType{DType::kF16, {1, 5, 5, 4}});
}

TEST_CASE("inner products: input count, absent optional bias, absent required input") {
  const Tensor x = F32({1, 4, 4, 2});
  const Tensor w = F32({3, 1, 1, 2});
  const Tensor b = F32({3});
  // Bias absent (nullptr, i.e. kNoTensor) or left off: both fine.
  CHECK(Infer(OpKind::kConv2D, {&x, &w, nullptr}).type == TensorType{DType::kF32, {1, 4, 4, 3}});
  CHECK(Infer(OpKind::kConv2D, {&x, &w}).ok);
  CHECK(Infer(OpKind::kConv2D, {&x}).error == "conv2d: has 1 inputs; expected 2 to 3");
  CHECK(Infer(OpKind::kConv2D, {&x, &w, &b, &b}).error == "conv2d: has 4 inputs; expected 2 to 3");
  CHECK(Infer(OpKind::kConv2D, {&x, nullptr, &b}).error ==
        "conv2d: input 1 'weights' is required but absent");
  CHECK(Infer(OpKind::kFullyConnected, {nullptr, &w}).error ==
        "fully_connected: input 0 'input' is required but absent");
}

TEST_CASE("depthwise_conv2d: [1,Kh,Kw,C*M] weights and the multiplier") {
  const Tensor x = F32({1, 8, 8, 4});
  const Tensor w = F32({1, 3, 3, 8});  // C=4, M=2 -> 8 output channels
  const Tensor b = F32({8});
  // SAME, stride 1: ceil(8/1) = 8.
  CHECK(Infer(OpKind::kDepthwiseConv2D, {&x, &w, &b},
              A({{"depth_multiplier", I64(2)}, {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {1, 8, 8, 8}});
  // VALID, stride 2: (8-3)/2+1 = 2+1 = 3.
  CHECK(Infer(OpKind::kDepthwiseConv2D, {&x, &w, &b},
              A({{"depth_multiplier", I64(2)}, {"strides", Ints({2, 2})}}))
            .type == TensorType{DType::kF32, {1, 3, 3, 8}});
  // Multiplier 1 would need 4 channels of weights, not 8.
  CHECK(Contains(Infer(OpKind::kDepthwiseConv2D, {&x, &w}).error,
                 "has shape [1,3,3,8]; expected [1,Kh,Kw,4]"));
  const Tensor w_lead2 = F32({2, 3, 3, 8});
  CHECK(Contains(
      Infer(OpKind::kDepthwiseConv2D, {&x, &w_lead2}, A({{"depth_multiplier", I64(2)}})).error,
      "expected [1,Kh,Kw,8]"));
  // The bias has one value per output channel: C*M = 8.
  const Tensor b4 = F32({4});
  CHECK(Contains(
      Infer(OpKind::kDepthwiseConv2D, {&x, &w, &b4}, A({{"depth_multiplier", I64(2)}})).error,
      "expected [8]"));
  CHECK(Contains(Infer(OpKind::kDepthwiseConv2D, {&x, &w}, A({{"depth_multiplier", I64(0)}})).error,
                 "attribute 'depth_multiplier' is 0"));
}

TEST_CASE("transpose_conv2d: output_shape must transpose to the input") {
  const Tensor x = F32({1, 4, 4, 16});
  const Tensor w = F32({8, 3, 3, 16});  // [Co=8, Kh, Kw, Ci=16]
  // SAME, stride 2: the forward conv of 8 gives ceil(8/2) = 4 = input. So does 7: ceil(7/2) = 4.
  const Attributes same8 = A(
      {{"output_shape", Ints({1, 8, 8, 8})}, {"strides", Ints({2, 2})}, {"padding", Str("same")}});
  CHECK(Infer(OpKind::kTransposeConv2D, {&x, &w}, same8).type ==
        TensorType{DType::kF32, {1, 8, 8, 8}});
  CHECK(Infer(OpKind::kTransposeConv2D, {&x, &w},
              A({{"output_shape", Ints({1, 7, 8, 8})},
                 {"strides", Ints({2, 2})},
                 {"padding", Str("same")}}))
            .type == TensorType{DType::kF32, {1, 7, 8, 8}});
  // SAME, stride 2, 9: ceil(9/2) = 5 != 4.
  const InferResult bad = Infer(OpKind::kTransposeConv2D, {&x, &w},
                                A({{"output_shape", Ints({1, 9, 9, 8})},
                                   {"strides", Ints({2, 2})},
                                   {"padding", Str("same")}}));
  CHECK(Contains(bad.error, "attribute 'output_shape' [1,9,9,8] does not transpose"));
  // VALID, stride 2, k 3: (9-3)/2+1 = 4 and (10-3)/2+1 = 3+1 = 4 both fit; (11-3)/2+1 = 5 does not.
  for (int64_t extent : {9, 10}) {
    CHECK(Infer(OpKind::kTransposeConv2D, {&x, &w},
                A({{"output_shape", Ints({1, extent, extent, 8})}, {"strides", Ints({2, 2})}}))
              .type == TensorType{DType::kF32, {1, extent, extent, 8}});
  }
  CHECK_FALSE(Infer(OpKind::kTransposeConv2D, {&x, &w},
                    A({{"output_shape", Ints({1, 11, 11, 8})}, {"strides", Ints({2, 2})}}))
                  .ok);
  // Batch and channels of output_shape must be the input's batch and Co.
  CHECK(Contains(Infer(OpKind::kTransposeConv2D, {&x, &w},
                       A({{"output_shape", Ints({1, 8, 8, 7})},
                          {"strides", Ints({2, 2})},
                          {"padding", Str("same")}}))
                     .error,
                 "expected [1,H,W,8]"));
  CHECK(Contains(Infer(OpKind::kTransposeConv2D, {&x, &w},
                       A({{"output_shape", Ints({2, 8, 8, 8})},
                          {"strides", Ints({2, 2})},
                          {"padding", Str("same")}}))
                     .error,
                 "expected [1,H,W,8]"));
  // output_shape is required and has four entries.
  CHECK(Contains(Infer(OpKind::kTransposeConv2D, {&x, &w}).error,
                 "required attribute 'output_shape' (ints) is missing"));
  CHECK(Contains(
      Infer(OpKind::kTransposeConv2D, {&x, &w}, A({{"output_shape", Ints({8, 8, 8})}})).error,
      "attribute 'output_shape' has 3 elements; expected 4"));
}

TEST_CASE("fully_connected: flattening, keep_num_dims, non-divisible inputs") {
  const Tensor x = F32({2, 3, 4});
  const Tensor w = F32({10, 4});  // [Co=10, Ci=4]
  const Tensor b = F32({10});
  // keep_num_dims false: 2*3*4 = 24 elements, 24/4 = 6 rows -> [6,10].
  CHECK(Infer(OpKind::kFullyConnected, {&x, &w, &b}).type == TensorType{DType::kF32, {6, 10}});
  // keep_num_dims true: last extent 4 becomes Co = 10.
  CHECK(Infer(OpKind::kFullyConnected, {&x, &w, &b}, A({{"keep_num_dims", true}})).type ==
        TensorType{DType::kF32, {2, 3, 10}});
  // [2,6] has 12 elements = 3 rows of 4, but keep_num_dims needs the last extent to be 4.
  const Tensor x26 = F32({2, 6});
  const Tensor w54 = F32({5, 4});
  CHECK(Infer(OpKind::kFullyConnected, {&x26, &w54}).type == TensorType{DType::kF32, {3, 5}});
  CHECK(Contains(Infer(OpKind::kFullyConnected, {&x26, &w54}, A({{"keep_num_dims", true}})).error,
                 "keep_num_dims needs the last extent to be 4"));
  // [1,10]: 10 % 4 = 2, no whole rows.
  const Tensor x10 = F32({1, 10});
  CHECK(Contains(Infer(OpKind::kFullyConnected, {&x10, &w54}).error,
                 "expected a multiple of 4 elements"));
  const Tensor w3 = F32({5, 4, 1});
  CHECK(Contains(Infer(OpKind::kFullyConnected, {&x26, &w3}).error, "[Co,Ci]"));
  const Tensor b4 = F32({4});
  CHECK(Contains(Infer(OpKind::kFullyConnected, {&x26, &w54, &b4}).error, "expected [5]"));
  // Quantized: i8 in, i8 weights, i32 bias -> i8.
  const Tensor xq = T(DType::kI8, {1, 8});
  const Tensor wq = T(DType::kI8, {3, 8});
  const Tensor bq = T(DType::kI32, {3});
  CHECK(Infer(OpKind::kFullyConnected, {&xq, &wq, &bq}).type == TensorType{DType::kI8, {1, 3}});
}

}  // namespace
}  // namespace opuc
