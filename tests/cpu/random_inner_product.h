//===- tests/cpu/random_inner_product.h - Random one-op graphs -*- C++ -*-===//
//
// One conv2d, depthwise_conv2d, transpose_conv2d or fully_connected node with a random shape,
// window, padding, fused activation and values: float, or quantized with
// i8/u8/i16 input and output formats and per-channel weight fraction lengths
// (docs/numerics.md). The CPU executor's tests run each on both executors.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_RANDOM_INNER_PRODUCT_H
#define OPUC_TESTS_CPU_RANDOM_INNER_PRODUCT_H

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "opuc/ir/graph_builder.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::testing {

struct RandomCase {
  Graph graph;
  std::vector<HostTensor> inputs;
  std::string description;
};

class InnerProductDraw {
 public:
  explicit InnerProductDraw(uint32_t seed) : rng_(seed) {}

  /// `op`: kConv2D, kDepthwiseConv2D, kTransposeConv2D or kFullyConnected; `format`: kF32, or
  /// the quantized input format.
  RandomCase Make(OpKind op, DType format) {
    const bool quantized = format != DType::kF32;
    const int64_t h = Int(1, 12), w = Int(1, 12), ci = Int(1, 40);
    const int64_t kh = Int(1, 5), kw = Int(1, 5);
    const int64_t multiplier = op == OpKind::kDepthwiseConv2D && Int(0, 3) == 0 ? Int(2, 3) : 1;
    const int64_t co = op == OpKind::kDepthwiseConv2D ? ci * multiplier : Int(1, 40);
    const bool bias = Int(0, 4) != 0;
    std::vector<std::string> activations = {"none", "relu", "relu6", "relu_n1_to_1"};
    if (!quantized) activations.push_back("tanh");
    const std::string activation =
        activations[static_cast<size_t>(Int(0, static_cast<int64_t>(activations.size()) - 1))];

    Attributes attrs;
    attrs.Set("activation", AttrValue(activation));
    Shape in_shape{Int(1, 2), h, w, ci}, w_shape;
    std::ostringstream d;
    d << OpName(op) << ' ' << DTypeName(format) << " in " << ShapeToString(in_shape);
    if (op == OpKind::kTransposeConv2D) {
      // Draw the output, then the input the forward convolution makes of it.
      const std::vector<int64_t> strides{Int(1, 3), Int(1, 3)};
      const bool same = Int(0, 1) == 1 || kh > h || kw > w;
      const auto forward = [&](int64_t out, int64_t k, int64_t s) {
        return same ? (out + s - 1) / s : (out - k) / s + 1;
      };
      const int64_t n = Int(1, 2);
      in_shape = {n, forward(h, kh, strides[0]), forward(w, kw, strides[1]), ci};
      attrs.Set("strides", AttrValue(strides));
      attrs.Set("padding", AttrValue(std::string(same ? "same" : "valid")));
      attrs.Set("output_shape", AttrValue(std::vector<int64_t>{n, h, w, co}));
      w_shape = {co, kh, kw, ci};
      d.str("");
      d << OpName(op) << ' ' << DTypeName(format) << " in " << ShapeToString(in_shape) << " out "
        << h << 'x' << w << " window " << kh << 'x' << kw << " stride " << strides[0] << ','
        << strides[1] << (same ? " same" : " valid");
    } else if (op == OpKind::kFullyConnected) {
      in_shape = {Int(1, 20), ci};
      w_shape = {co, ci};
      d.str("");
      d << OpName(op) << ' ' << DTypeName(format) << " in " << ShapeToString(in_shape);
    } else {
      const std::vector<int64_t> strides{Int(1, 3), Int(1, 3)}, dilations{Int(1, 2), Int(1, 2)};
      const bool same = Int(0, 1) == 1;
      // valid padding needs the dilated window inside the input
      const bool fits = (kh - 1) * dilations[0] + 1 <= h && (kw - 1) * dilations[1] + 1 <= w;
      attrs.Set("strides", AttrValue(strides));
      attrs.Set("dilations", AttrValue(dilations));
      attrs.Set("padding", AttrValue(std::string(same || !fits ? "same" : "valid")));
      if (op == OpKind::kDepthwiseConv2D) attrs.Set("depth_multiplier", AttrValue(multiplier));
      w_shape = op == OpKind::kDepthwiseConv2D ? Shape{1, kh, kw, co} : Shape{co, kh, kw, ci};
      d << " window " << kh << 'x' << kw << " stride " << strides[0] << ',' << strides[1]
        << " dilation " << dilations[0] << ',' << dilations[1] << ' '
        << (same || !fits ? "same" : "valid");
      if (multiplier > 1) d << " multiplier " << multiplier;
    }
    d << " co " << co << ' ' << activation << (bias ? " bias" : "");

    GraphBuilder b("random_" + std::string(OpName(op)));
    RandomCase c;
    const TensorId x = b.Input("x", format, in_shape);
    const int weight_axis = op == OpKind::kDepthwiseConv2D ? 3 : 0;
    TensorId wt, bt = kNoTensor;
    if (quantized) {
      wt = b.Constant("w", DType::kI8, w_shape, Bytes(Ints<int8_t>(w_shape, -127, 127)));
      if (bias)
        bt = b.Constant("b", DType::kI32, {co}, Bytes(Ints<int32_t>({co}, -100000, 100000)));
    } else {
      wt = b.ConstantF32("w", w_shape, Floats(w_shape, -1, 1));
      if (bias) bt = b.ConstantF32("b", {co}, Floats({co}, -1, 1));
    }
    std::vector<TensorId> operands{x, wt};
    if (bias) operands.push_back(bt);
    const TensorId y = b.Op(op, "op", operands, attrs);
    b.Output(y);
    c.graph = std::move(b).Finish().value();
    if (quantized) {
      const std::vector<DType> formats{DType::kI8, DType::kU8, DType::kI16};
      const DType out_format = formats[static_cast<size_t>(Int(0, 2))];
      const int f_in = static_cast<int>(Int(0, format == DType::kI16 ? 12 : 7));
      std::vector<int32_t> f_w;
      for (int64_t o = 0; o < co; ++o) f_w.push_back(static_cast<int32_t>(Int(0, 9)));
      const int f_out = static_cast<int>(Int(0, out_format == DType::kI16 ? 12 : 6));
      c.graph.tensor(x).fixed_point = FixedPoint{{f_in}, -1};
      c.graph.tensor(wt).fixed_point = FixedPoint{f_w, weight_axis};
      c.graph.tensor(y).fixed_point = FixedPoint{{f_out}, -1};
      c.graph.tensor(y).dtype = out_format;
      d << " f_in " << f_in << " out " << DTypeName(out_format) << " f_out " << f_out;
      c.inputs.push_back(RandomInts(format, in_shape));
    } else {
      HostTensor in = HostTensor::Zeros(DType::kF32, in_shape).value();
      const std::vector<float> v = Floats(in_shape, -2, 2);
      std::copy(v.begin(), v.end(), in.data<float>());
      c.inputs.push_back(std::move(in));
    }
    c.description = d.str();
    return c;
  }

 private:
  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  static int64_t Count(const Shape& s) {
    int64_t n = 1;
    for (int64_t e : s) n *= e;
    return n;
  }
  std::vector<float> Floats(const Shape& s, float lo, float hi) {
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(static_cast<size_t>(Count(s)));
    for (float& x : v) x = u(rng_);
    return v;
  }
  template <typename T>
  std::vector<T> Ints(const Shape& s, int64_t lo, int64_t hi) {
    std::vector<T> v(static_cast<size_t>(Count(s)));
    for (T& x : v) x = static_cast<T>(Int(lo, hi));
    return v;
  }
  template <typename T>
  static ConstantData Bytes(const std::vector<T>& v) {
    return ConstantData::Copy(v.data(), v.size() * sizeof(T));
  }
  HostTensor RandomInts(DType format, const Shape& s) {
    HostTensor t = HostTensor::Zeros(format, s).value();
    for (int64_t i = 0; i < t.elements(); ++i) {
      if (format == DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(Int(-128, 127));
      if (format == DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(Int(0, 255));
      if (format == DType::kI16) t.data<int16_t>()[i] = static_cast<int16_t>(Int(-32768, 32767));
    }
    return t;
  }

  std::mt19937 rng_;
};

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_RANDOM_INNER_PRODUCT_H
