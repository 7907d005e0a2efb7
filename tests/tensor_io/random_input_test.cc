// SplitMix64 against its published first outputs, and inputs drawn from it.
#include "opuc/tensor_io/random_input.h"

#include <doctest/doctest.h>

#include "opuc/ir/graph_builder.h"

namespace opuc {
namespace {

TEST_CASE("SplitMix64 from seed 0 gives the published sequence") {
  // The reference implementation's first outputs for state 0.
  SplitMix64 rng(0);
  CHECK(rng.Next() == 0xE220A8397B1DCDAFull);
  CHECK(rng.Next() == 0x6E789E6AA1B965F4ull);
  CHECK(rng.Next() == 0x06C45D188009454Full);
}

TEST_CASE("f32 tensors take the top 24 bits, scaled exactly into -1 <= x < 1") {
  // Top 24 bits: 0xE220A8 = 14819496 and 0x6E789E = 7239838; minus 2^23 = 8388608
  // and divided by 2^23.
  Expected<HostTensor> t = RandomTensor(DType::kF32, {2}, 0);
  REQUIRE(t.ok());
  CHECK(t->data<float>()[0] == 6430888.0f / 8388608.0f);
  CHECK(t->data<float>()[1] == -1148770.0f / 8388608.0f);
}

TEST_CASE("integer tensors take the top bits over the dtype's full range") {
  // i8: top byte 0xE2 = 226 - 128 = 98; 0x6E = 110 - 128 = -18.
  Expected<HostTensor> t = RandomTensor(DType::kI8, {2}, 0);
  REQUIRE(t.ok());
  CHECK(t->data<int8_t>()[0] == 98);
  CHECK(t->data<int8_t>()[1] == -18);
  CHECK(RandomTensor(DType::kF16, {2}, 0).status().code() == StatusCode::kUnsupported);
}

TEST_CASE("each graph input depends only on the seed and its position") {
  GraphBuilder b("two");
  const TensorId x = b.Input("x", DType::kF32, {3});
  const TensorId y = b.Input("y", DType::kF32, {3});
  b.Output(b.Op(OpKind::kAdd, "sum", {x, y}));
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  Expected<std::vector<HostTensor>> inputs = RandomInputs(*graph, 5);
  REQUIRE(inputs.ok());
  REQUIRE(inputs->size() == 2);
  CHECK(InputSeed(5, 0) == 5);
  CHECK(InputSeed(5, 1) == 5 + 0x9E3779B97F4A7C15ull);
  Expected<HostTensor> second = RandomTensor(DType::kF32, {3}, InputSeed(5, 1));
  REQUIRE(second.ok());
  for (int i = 0; i < 3; ++i) {
    CHECK((*inputs)[1].data<float>()[i] == second->data<float>()[i]);
    CHECK((*inputs)[0].data<float>()[i] >= -1.0f);
    CHECK((*inputs)[0].data<float>()[i] < 1.0f);
  }
}

}  // namespace
}  // namespace opuc
