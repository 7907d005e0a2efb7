// Whole quantized graphs on the reference executor: f32 inputs through
// quantize, i8 inputs, dequantize at the end (docs/numerics.md §7), and the
// verifier's fixed-point rules on the same graphs.
#include <cmath>
#include <limits>

#include "integer_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// quantize of an f32 input [n] to i8 at f (or without a fixed point).
QRun RunQuantize(std::vector<float> x, std::optional<int> f) {
  GraphBuilder b("quantize");
  const auto n = static_cast<int64_t>(x.size());
  const TensorId in = b.Input("x", DType::kF32, {n});
  const TensorId q = b.Op(OpKind::kQuantize, "q", {in});
  b.Output(q);
  QRun run;
  Expected<Graph> g = std::move(b).Finish();
  REQUIRE(g.ok());
  if (f) g->tensor(q).fixed_point = {{*f}, -1};
  run.verified = Verify(*g);
  HostTensor host = HostTensor::Zeros(DType::kF32, {n}).value();
  for (size_t i = 0; i < x.size(); ++i) host.data<float>()[i] = x[i];
  Expected<std::vector<HostTensor>> out = RunReference(*g, {host});
  if (!out.ok()) {
    run.status = out.status();
    return run;
  }
  for (int64_t i = 0; i < n; ++i) run.values.push_back(out->front().data<int8_t>()[i]);
  return run;
}

TEST_CASE("E24: quantize graph inputs at f = 7, non-finite values included") {
  const float inf = std::numeric_limits<float>::infinity();
  // float32(0.7) * 128 = 89.6 -> 90; -64.5 -> -64 (tie up); 128 -> 127; -128; +inf, -inf, NaN.
  QRun r = RunQuantize({0.7f, -0.50390625f, 1.0f, -1.0f, inf, -inf, std::nanf("")}, 7);
  CHECK(Ok(r) == Q8{90, -64, 127, -128, 127, -128, 0});
}

TEST_CASE("E4 and E5 through quantize") {
  // E4 at f 7: [0.5, -1.0, 0.3, 1.2] -> [64, -128, 38, 127]; float32(0.3) * 128 = 38.4000006.
  CHECK(Ok(RunQuantize({0.5f, -1.0f, 0.3f, 1.2f}, 7)) == Q8{64, -128, 38, 127});
  // E5 at f 8: 2.5 -> 3, -2.5 -> -2, -0.5 -> 0.
  CHECK(Ok(RunQuantize({0.009765625f, -0.009765625f, -0.001953125f}, 8)) == Q8{3, -2, 0});
  // f -8 and 15: 32 512 / 256 = 127, 32 640 / 256 = 127.5 -> 128 -> 127; 127 * 2^-15 -> 127.
  CHECK(Ok(RunQuantize({32512.0f, 32640.0f, -40000.0f}, -8)) == Q8{127, 127, -128});
  CHECK(Ok(RunQuantize({0.003875732421875f}, 15)) == Q8{127});
}

TEST_CASE("quantize: a missing or out-of-range fixed point names the tensor") {
  // Without any fixed point the graph is not quantized for the verifier; the kernel still
  // needs the output's f.
  QRun r = RunQuantize({1.0f}, std::nullopt);
  CHECK(r.verified.ok());
  CHECK(Contains(r.status.message(), "output (tensor 'q') is i8 without a fixed point"));
  r = RunQuantize({1.0f}, 16);
  CHECK(Contains(r.verified.message(), "tensor 1 'q': fraction length 16 is out of range"));
  CHECK(Contains(r.status.message(), "output (tensor 'q') has fraction length 16"));
}

/// x f32 [1,1,1,2] -> quantize (f 5) -> conv2d (E9's weights, f_w 6) -> c (f 4) ->
/// dequantize -> y f32. With `i8_input` the graph starts at an i8 input instead.
Expected<Graph> E9Graph(bool i8_input) {
  GraphBuilder b("e9");
  TensorId x = b.Input("x", i8_input ? DType::kI8 : DType::kF32, {1, 1, 1, 2});
  const TensorId q = i8_input ? x : b.Op(OpKind::kQuantize, "q", {x});
  const int8_t w[2] = {117, 32};
  const TensorId wt = b.Constant("w", DType::kI8, {1, 1, 1, 2}, ConstantData::Copy(w, 2));
  const TensorId c = b.Op(OpKind::kConv2D, "c", {q, wt});
  b.Output(b.Op(OpKind::kDequantize, "y", {c}));
  OPUC_ASSIGN_OR_RETURN(Graph g, std::move(b).Finish());
  g.tensor(q).fixed_point = {{5}, -1};
  g.tensor(wt).fixed_point = {{6}, 0};
  g.tensor(c).fixed_point = {{4}, -1};
  return g;
}

TEST_CASE("E9 end to end: f32 -> quantize -> conv2d -> dequantize") {
  Expected<Graph> g = E9Graph(false);
  REQUIRE(g.ok());
  CHECK(Verify(*g).ok());
  // x = [10, 2] * 2^-5 -> q = [10, 2]; acc = 1234 -> 10 at f 4 -> 10 / 16 = 0.625.
  HostTensor x = HostTensor::Zeros(DType::kF32, {1, 1, 1, 2}).value();
  x.data<float>()[0] = 0.3125f;
  x.data<float>()[1] = 0.0625f;
  Expected<std::vector<HostTensor>> y = RunReference(*g, {x});
  REQUIRE(y.ok());
  CHECK(y->front().data<float>()[0] == 0.625f);
}

TEST_CASE("E9 end to end from an i8 graph input") {
  Expected<Graph> g = E9Graph(true);
  REQUIRE(g.ok());
  CHECK(Verify(*g).ok());
  HostTensor x = HostTensor::Zeros(DType::kI8, {1, 1, 1, 2}).value();
  x.data<int8_t>()[0] = 10;
  x.data<int8_t>()[1] = 2;
  Expected<std::vector<HostTensor>> y = RunReference(*g, {x});
  REQUIRE(y.ok());
  CHECK(y->front().data<float>()[0] == 0.625f);
}

TEST_CASE("E25: dequantize is exact") {
  GraphBuilder b("dq");
  const TensorId x = b.Input("x", DType::kI8, {2});
  b.Output(b.Op(OpKind::kDequantize, "y", {x}));
  Expected<Graph> g = std::move(b).Finish();
  REQUIRE(g.ok());
  g->tensor(x).fixed_point = {{5}, -1};
  CHECK(Verify(*g).ok());
  HostTensor in = HostTensor::Zeros(DType::kI8, {2}).value();
  in.data<int8_t>()[0] = -77;  // -77 / 32 = -2.40625
  in.data<int8_t>()[1] = 127;  // 127 / 32 = 3.96875
  Expected<std::vector<HostTensor>> y = RunReference(*g, {in});
  REQUIRE(y.ok());
  CHECK(y->front().data<float>()[0] == -2.40625f);
  CHECK(y->front().data<float>()[1] == 3.96875f);
}

TEST_CASE("the verifier names the i8 tensor of a quantized graph without a fixed point") {
  Expected<Graph> g = E9Graph(false);
  REQUIRE(g.ok());
  g->tensor(1).fixed_point = {};  // the quantize output 'q'
  const Status s = Verify(*g);
  CHECK(Contains(s.message(), "tensor 1 'q': i8 tensor of a quantized graph has no fixed point"));
}

}  // namespace
}  // namespace opuc
