//===- tests/cpu/integer_chain_test.cc - Quantized chains as one kernel -===//
//
// A random quantized conv2d, depthwise_conv2d or fully_connected
// (random_inner_product.h), or an argument, followed by one to four
// elementwise steps (relu, relu6, relu_n1_to_1, add, sub, mul, prelu,
// lookup_table with a random table), each
// with its own output format (i8, u8, i16) and fraction length, an operand
// of the output's shape, one per channel or one value, on either side, and
// a fused activation; half the chains from an argument end in a mean over
// a run of axes: FuseOps makes each one function, which the CPU
// executor runs as one kernel (checked), and it gives the integer
// reference's bytes on the unfused graph. Fraction lengths mostly stay near
// the value's, sometimes anywhere in their range, and in a third of the
// cases often at either end: shifts beyond 30 and sums beyond int32 take
// the int64 steps (counted: both kinds occur).
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "fused_match.h"
#include "integer_chain.h"
#include "opuc/cpu/executor.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/fusion/fuse_mutator.h"
#include "random_inner_product.h"
#include "same_as_reference.h"

namespace opuc {
namespace {

constexpr OpKind kSteps[] = {OpKind::kRelu,  OpKind::kRelu6,      OpKind::kReluN1To1,
                             OpKind::kAdd,   OpKind::kSub,        OpKind::kMul,
                             OpKind::kPRelu, OpKind::kLookupTable};
const char* const kActivations[] = {"none", "relu", "relu6", "relu_n1_to_1"};

/// Appends random steps to `c`'s graph after `value` (an i8/u8/i16 tensor
/// with one fraction length), each other operand a new argument.
/// `extreme`: half the fraction lengths at either end of their range.
void AppendSteps(testing::RandomCase& c, TensorId value, bool extreme, testing::Draw& draw) {
  Graph& g = c.graph;
  const Shape shape = g.tensor(value).shape;
  const auto fraction = [&](int near, DType format, int hi) {
    const int top = format == DType::kI16 ? 23 : hi;
    if (extreme && draw.Int(0, 1) == 0) return draw.Int(0, 1) == 0 ? -8 : top;
    if (draw.Int(0, 4) == 0) return static_cast<int>(draw.Int(-8, top));
    return std::clamp(near + static_cast<int>(draw.Int(-4, 4)), -8, top);
  };
  const int64_t steps = draw.Int(1, 4);
  for (int64_t k = 0; k < steps; ++k) {
    const OpKind op = kSteps[draw.Int(0, 7)];
    const int f_value = g.tensor(value).fixed_point.fraction_bits[0];
    Node node;
    node.op = op;
    node.name = "step" + std::to_string(k);
    node.inputs = {value};
    if (op == OpKind::kAdd || op == OpKind::kSub || op == OpKind::kMul || op == OpKind::kPRelu) {
      const int64_t form = draw.Int(0, 2);
      const Shape other_shape = form == 0 ? shape : form == 1 ? Shape{shape.back()} : Shape{};
      Tensor other;
      other.name = "other" + std::to_string(k);
      other.dtype = op == OpKind::kPRelu ? DType::kI8 : testing::kIntegerFormats[draw.Int(0, 2)];
      other.shape = other_shape;
      other.fixed_point = FixedPoint{{fraction(op == OpKind::kPRelu ? 6 : f_value, other.dtype,
                                               op == OpKind::kPRelu ? 23 : 15)},
                                     -1};
      const TensorId o = g.AddTensor(other);
      g.inputs.push_back(o);
      c.inputs.push_back(draw.Values(other.dtype, other_shape));
      if (op != OpKind::kPRelu) {
        if (draw.Int(0, 1) == 1)
          node.inputs.insert(node.inputs.begin(), o);
        else
          node.inputs.push_back(o);
        node.attrs.Set("activation", AttrValue(std::string(kActivations[draw.Int(0, 3)])));
      } else {
        node.inputs.push_back(o);
      }
    }
    Tensor result;
    result.name = "value" + std::to_string(k);
    result.dtype = testing::kIntegerFormats[draw.Int(0, 2)];
    if (op == OpKind::kLookupTable) {  // a random table in the result's format
      Tensor table;
      table.name = "table" + std::to_string(k);
      table.dtype = result.dtype;
      table.shape = {g.tensor(value).dtype == DType::kI16 ? 257 : 256};
      const TensorId t = g.AddTensor(table);
      g.inputs.push_back(t);
      c.inputs.push_back(draw.Values(table.dtype, table.shape));
      node.inputs.push_back(t);
    }
    result.shape = shape;
    result.fixed_point = FixedPoint{{fraction(f_value, result.dtype, 15)}, -1};
    value = g.AddTensor(result);
    node.outputs = {value};
    g.AddNode(node);
  }
  g.outputs = {value};
}

/// A mean over a random run of the value's axes after the chain's last value.
void AppendMean(testing::RandomCase& c, testing::Draw& draw) {
  Graph& g = c.graph;
  const TensorId value = g.outputs[0];
  const auto rank = static_cast<int64_t>(g.tensor(value).shape.size());
  const int64_t first = draw.Int(0, rank - 1), end = draw.Int(first + 1, rank);
  std::vector<int64_t> axes;
  for (int64_t d = first; d < end; ++d) axes.push_back(d);
  Node node;
  node.op = OpKind::kMean;
  node.name = "mean";
  node.inputs = {value};
  node.attrs.Set("axes", AttrValue(axes));
  node.attrs.Set("keep_dims", AttrValue(draw.Int(0, 1) == 1));
  Tensor result;
  result.name = "mean";
  result.dtype = testing::kIntegerFormats[draw.Int(0, 2)];
  result.fixed_point = FixedPoint{
      {std::clamp(g.tensor(value).fixed_point.fraction_bits[0] + static_cast<int>(draw.Int(-2, 2)),
                  -8, 15)},
      -1};
  const Shape& in = g.tensor(value).shape;
  for (int64_t d = 0; d < rank; ++d)
    if (d < first || d >= end)
      result.shape.push_back(in[static_cast<size_t>(d)]);
    else if (node.attrs.GetBool("keep_dims"))
      result.shape.push_back(1);
  const TensorId out = g.AddTensor(result);
  node.outputs = {out};
  g.AddNode(node);
  g.outputs = {out};
}

TEST_CASE("quantized elementwise chains run as one kernel with the integer reference's bytes") {
  testing::Draw draw(21);
  testing::InnerProductDraw products(22);
  const OpKind heads[] = {OpKind::kConv2D, OpKind::kDepthwiseConv2D, OpKind::kFullyConnected};
  int64_t int32_steps = 0, int64_steps = 0, tables = 0, injective = 0, means = 0;
  for (int i = 0; i < 480; ++i) {
    CAPTURE(i);
    testing::RandomCase c;
    TensorId value;
    if (i % 4 == 3) {  // an injective chain from an argument
      Tensor x;
      x.name = "x";
      x.dtype = testing::kIntegerFormats[draw.Int(0, 2)];
      x.shape = {1, draw.Int(1, 9), draw.Int(1, 9), draw.Int(1, 40)};
      x.fixed_point = FixedPoint{{static_cast<int32_t>(draw.Int(0, 8))}, -1};
      value = c.graph.AddTensor(x);
      c.graph.name = "chain";
      c.graph.inputs = {value};
      c.inputs.push_back(draw.Values(x.dtype, x.shape));
    } else {
      c = products.Make(heads[i % 3], testing::kIntegerFormats[draw.Int(0, 2)]);
      value = c.graph.outputs[0];
    }
    AppendSteps(c, value, /*extreme=*/i % 3 == 2, draw);
    if (i % 8 == 7) AppendMean(c, draw);  // half the injective chains end in a reduction
    if (i % 4 == 3 && c.graph.nodes.size() < 2) continue;  // one op is no function
    CAPTURE(c.description);
    Expected<std::vector<HostTensor>> want = RunReference(c.graph, c.inputs);
    REQUIRE_MESSAGE(want.ok(), want.status().ToString());

    Graph g = c.graph;
    REQUIRE(FuseOps(g, FuseOptions()).ok());
    REQUIRE(g.nodes.size() == 1);
    const Graph& body = *g.nodes[0].body;
    const std::optional<cpu::FusedTail> tail = cpu::MatchFusedTail(body);
    REQUIRE(tail.has_value());
    CHECK(tail->integer);
    injective += !tail->inner_product;
    means += tail->mean;
    // Which steps leave the int32 lanes (the operands' formats decide, not their values).
    std::vector<HostTensor> formats;
    for (TensorId t : tail->others)
      formats.push_back(
          t == kNoTensor ? HostTensor()
                         : HostTensor::Zeros(body.tensor(t).dtype, body.tensor(t).shape).value());
    std::vector<const HostTensor*> others;
    for (size_t k = 0; k < formats.size(); ++k)
      others.push_back(tail->others[k] == kNoTensor ? nullptr : &formats[k]);
    Expected<cpu::IntegerChain> chain = cpu::IntegerChain::Make(body, *tail, others, nullptr);
    REQUIRE_MESSAGE(chain.ok(), chain.status().ToString());
    for (const cpu::IntegerChain::Step& s : chain->steps()) {
      ++(s.int32 ? int32_steps : int64_steps);
      tables += s.op == OpKind::kLookupTable;
    }

    Expected<std::vector<HostTensor>> got = RunCpu(g, c.inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    const HostTensor& a = got->front();
    const HostTensor& b = want->front();
    REQUIRE(a.type() == b.type());
    CHECK(std::memcmp(a.raw(), b.raw(), a.bytes()) == 0);
  }
  CHECK(injective > 60);
  CHECK(int32_steps > 200);
  CHECK(int64_steps > 20);
  CHECK(tables > 50);
  CHECK(means > 30);
  MESSAGE(injective, " injective chains (", means, " ending in a mean); steps in int32 ",
          int32_steps, " (", tables, " tables), in int64 ", int64_steps);
}

}  // namespace
}  // namespace opuc
