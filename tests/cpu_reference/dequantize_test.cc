// dequantize: f16 bits to their exact float value; i8 with a fixed point.
#include <cmath>
#include <cstring>

#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST_CASE("dequantize f16 -> f32, normal, subnormal, signed zero, inf and NaN") {
  // Half: sign 1 bit, exponent 5 bits (bias 15), fraction 10 bits.
  //   0x3C00 = 2^0 * 1.0 = 1            0xC000 = -2^1 = -2
  //   0x3555 = 2^-2 * (1 + 341/1024) = 1365/4096 = 0.333251953125
  //   0x7BFF = 2^15 * (1 + 1023/1024) = 65504 (the largest half)
  //   0x0400 = 2^-14 (the smallest normal)
  //   0x03FF = 1023 * 2^-24 (the largest subnormal), 0x0001 = 2^-24 (the smallest)
  //   0x8001 = -2^-24
  OpRun r = RunOp(OpKind::kDequantize, {Halves({10}, {0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0400,
                                                      0x03FF, 0x0001, 0x8001, 0x0000, 0x8000})});
  REQUIRE(r.status.ok());
  CHECK(r.dtype == DType::kF32);
  const std::vector<float> expected = {1.0f,
                                       -2.0f,
                                       1365.0f / 4096.0f,
                                       65504.0f,
                                       std::ldexp(1.0f, -14),
                                       std::ldexp(1023.0f, -24),
                                       std::ldexp(1.0f, -24),
                                       -std::ldexp(1.0f, -24),
                                       0.0f,
                                       -0.0f};
  CHECK(r.values == expected);
  // 2^-24 as a float: exponent -24 + 127 = 103 = 0x67, fraction 0 -> 0x33800000.
  CHECK(Bits(r.values[6]) == 0x33800000u);
  // Signed zeros keep their sign bit.
  CHECK(Bits(r.values[8]) == 0x00000000u);
  CHECK(Bits(r.values[9]) == 0x80000000u);
}

TEST_CASE("dequantize f16 infinities and NaNs") {
  // 0x7C00 = +inf, 0xFC00 = -inf; 0x7E00 is the quiet NaN (fraction MSB set),
  // which becomes 0x7FC00000 (fraction moved up 13 bits); 0xFD01 is a negative
  // signalling NaN with payload 0x101, which becomes 0xFFA02000.
  OpRun r = RunOp(OpKind::kDequantize, {Halves({4}, {0x7C00, 0xFC00, 0x7E00, 0xFD01})});
  REQUIRE(r.status.ok());
  CHECK(std::isinf(r.values[0]));
  CHECK(r.values[0] > 0);
  CHECK(std::isinf(r.values[1]));
  CHECK(r.values[1] < 0);
  CHECK(Bits(r.values[2]) == 0x7FC00000u);
  CHECK(Bits(r.values[3]) == 0xFFA02000u);
}

TEST_CASE("dequantize i8 uses the input's fixed point, per tensor and per channel") {
  GraphBuilder b("dq");
  const TensorId q = b.Input("q", DType::kI8, {2, 2});
  b.Output(b.Op(OpKind::kDequantize, "dq", {q}));
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  const HostTensor input = ToHost(Ints(DType::kI8, {2, 2}, {64, -128, 127, 3}));

  SUBCASE("per tensor, f = 6: q / 64") {
    graph->tensor(q).fixed_point = {{6}, -1};
    auto out = RunReference(*graph, {input});
    REQUIRE(out.ok());
    // 64/64 = 1, -128/64 = -2, 127/64 = 1.984375, 3/64 = 0.046875.
    CHECK(ToFloats(out->front()) == std::vector<float>{1, -2, 1.984375f, 0.046875f});
  }
  SUBCASE("per channel along axis 1, f = [0, 2]") {
    graph->tensor(q).fixed_point = {{0, 2}, 1};
    auto out = RunReference(*graph, {input});
    REQUIRE(out.ok());
    // Column 0 unscaled (64, 127); column 1 divided by 4 (-32, 0.75).
    CHECK(ToFloats(out->front()) == std::vector<float>{64, -32, 127, 0.75f});
  }
  SUBCASE("without a fixed point the scale is unknown") {
    auto out = RunReference(*graph, {input});
    REQUIRE_FALSE(out.ok());
    CHECK(out.status().code() == StatusCode::kUnsupported);
    CHECK(Contains(out.status().message(), "node 0 'dq' (dequantize)"));
  }
}

}  // namespace
}  // namespace opuc
