// Seeded random IR graphs (random_ir_graph.h).
#include "fusion/random_ir_graph.h"

#include <string>
#include <vector>

#include "fusion/random_dag.h"
#include "pass/pass_test_util.h"

namespace opuc::testing {
namespace {

const Shape kShape = {1, 4, 4, 4};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed), b_("random") {}

  Graph Run(int steps) {
    values_.push_back(b_.Input("x0", DType::kF32, kShape));
    if (rng_.Chance(50)) values_.push_back(b_.Input("x1", DType::kF32, kShape));
    for (int i = 0; i < steps; ++i) values_.push_back(Step());
    b_.Output(values_.back());
    for (size_t i = 1; i + 1 < values_.size(); ++i)
      if (rng_.Chance(4)) b_.Output(values_[i]);
    return Build(std::move(b_));
  }

 private:
  /// Mostly one of the last few values, sometimes one far back (diamonds).
  TensorId Pick() {
    const auto n = static_cast<int32_t>(values_.size());
    if (rng_.Chance(15)) return values_[static_cast<size_t>(rng_.Below(n))];
    return values_[static_cast<size_t>(n - 1 - rng_.Below(std::min(n, 3)))];
  }
  std::string Name(const char* op) { return std::string(op) + "_" + std::to_string(++count_); }
  TensorId Const(Shape shape) {
    const auto elements = static_cast<size_t>(*NumElements(shape));
    std::vector<float> values(elements);
    for (float& v : values) v = static_cast<float>(rng_.Below(2001) - 1000) / 1000.0f;
    return b_.ConstantF32(Name("c"), std::move(shape), values);
  }
  TensorId Unary(OpKind op, TensorId in) { return b_.Op(op, Name(OpName(op).data()), {in}); }
  TensorId Binary(OpKind op, TensorId a, TensorId c) {
    return b_.Op(op, Name(OpName(op).data()), {a, c});
  }
  TensorId Conv1x1(TensorId in, int64_t channels_in) {
    std::vector<TensorId> inputs = {in, Const({4, 1, 1, channels_in})};
    if (rng_.Chance(50)) inputs.push_back(Const({4}));
    return b_.Op(OpKind::kConv2D, Name("conv"), inputs);
  }
  TensorId Pool(OpKind op, TensorId in, const char* padding) {
    return b_.Op(op, Name(OpName(op).data()), {in},
                 Attrs({{"filter", Ints({3, 3})}, {"padding", Str(padding)}}));
  }

  TensorId Step() {
    constexpr OpKind kUnary[] = {OpKind::kRelu, OpKind::kTanh, OpKind::kSigmoid, OpKind::kRelu6,
                                 OpKind::kHardSwish};
    constexpr OpKind kBinary[] = {OpKind::kAdd, OpKind::kSub, OpKind::kMul};
    const TensorId a = Pick();
    switch (rng_.Below(12)) {
      case 0:
      case 1: return Unary(kUnary[rng_.Below(5)], a);
      case 2: return Binary(kBinary[rng_.Below(3)], a, Pick());
      case 3: return Binary(OpKind::kMul, a, Const({}));            // a simple constant
      case 4: return Binary(OpKind::kAdd, a, Const({1, 1, 1, 4}));  // per channel
      case 5: return Conv1x1(a, 4);
      case 6:
        return b_.Op(OpKind::kDepthwiseConv2D, Name("dw"), {a, Const({1, 3, 3, 4})},
                     Attrs({{"padding", Str("same")}}));
      case 7: return Pool(rng_.Chance(50) ? OpKind::kMaxPool2D : OpKind::kAvgPool2D, a, "same");
      case 8:
        return rng_.Chance(50) ? Unary(OpKind::kSoftmax, a)
                               : Conv1x1(b_.Op(OpKind::kConcat, Name("cat"), {a, Pick()},
                                               Attrs({{"axis", int64_t{-1}}})),
                                         8);
      case 9: {
        TensorId m = b_.Op(OpKind::kMean, Name("mean"), {a},
                           Attrs({{"axes", Ints({1, 2})}, {"keep_dims", true}}));
        return Binary(OpKind::kAdd, Pick(), m);  // broadcast back
      }
      case 10: {
        TensorId flat =
            b_.Op(OpKind::kReshape, Name("flat"), {a}, Attrs({{"new_shape", Ints({1, 16, 4})}}));
        if (rng_.Chance(50)) flat = Unary(OpKind::kRelu, flat);
        return b_.Op(OpKind::kReshape, Name("back"), {flat}, Attrs({{"new_shape", Ints(kShape)}}));
      }
      default: {
        TensorId padded = b_.Op(OpKind::kPad, Name("pad"), {a},
                                Attrs({{"pads", Ints({0, 0, 1, 1, 1, 1, 0, 0})}}));
        return Pool(OpKind::kMaxPool2D, padded, "valid");
      }
    }
  }

  Rng rng_;
  GraphBuilder b_;
  std::vector<TensorId> values_;
  int count_ = 0;
};

}  // namespace

Graph RandomIrGraph(int steps, uint64_t seed) { return Generator(seed).Run(steps); }

}  // namespace opuc::testing
