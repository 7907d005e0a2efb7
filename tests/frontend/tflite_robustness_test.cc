//===- tests/frontend/tflite_robustness_test.cc - Corrupt .tflite never crashes -===//
//
// Every single-byte corruption and every truncation of a small model that
// uses most of what the importer reads, and seeded random corruption of a
// real model: each gives an error or a graph that verifies; never a crash
// and (under -DOPUC_SANITIZE=ON) never undefined behaviour.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "frontend/corruption.h"
#include "frontend/model_cache.h"
#include "frontend/tflite_test_util.h"
#include "opuc/ir/verifier.h"

namespace opuc::test {
namespace {

using tfl::Padding;

/// Whether the bytes import as a graph; an error must name the file.
bool ImportsAGraph(const std::vector<uint8_t>& bytes) {
  Expected<TfliteImport> m = ReadTflite(bytes, "fuzz.tflite");
  if (!m.ok()) {
    CHECK(m.status().message().rfind("fuzz.tflite: ", 0) == 0);
    return false;
  }
  CHECK(Verify(m->graph).ok());
  return true;
}

/// Sparse f16 weights → DENSIFY → DEQUANTIZE → CONV_2D (fused RELU) → PAD
/// → DEPTHWISE_CONV_2D → RESHAPE (shape tensor) / CONCATENATION → MEAN,
/// plus the custom transposed convolution and a resize.
std::vector<uint8_t> SmallModel() {
  TfliteBuilder b;
  b.metadata = {{"min_runtime_version", {'2', '.', '2', 0}}};
  const int32_t x = b.Input("x", {1, 4, 4, 2});
  TfliteSparsity csr;
  csr.traversal_order = {0, 1, 2, 3};
  csr.dims = {{true, 2, {}, {}},
              {true, 1, {}, {}},
              {true, 1, {}, {}},
              {false, 0, {0, 1, 3}, {1, 0, 1}, tfl::SparseIndexVector::Uint8Vector}};
  const uint16_t one = HalfBits(1.0f);
  const int32_t ws = b.SparseHalf("ws", {2, 1, 1, 2}, {one, one, one}, csr);
  const int32_t wh = b.Tensor("wh", {2, 1, 1, 2}, tfl::TensorType::FLOAT16);
  const int32_t w = b.Tensor("w", {2, 1, 1, 2});
  const int32_t conv = b.Tensor("conv", {1, 4, 4, 2});
  b.Op(Op::DENSIFY, {ws}, {wh});
  b.Op(Op::DEQUANTIZE, {wh}, {w});
  b.Op(Op::CONV_2D, {x, w, -1}, {conv}, b.Conv2D(Padding::SAME, 1, 1, Act::RELU));
  const int32_t pads = b.Int32("pads", {4, 2}, {0, 0, 1, 1, 1, 1, 0, 0});
  const int32_t padded = b.Tensor("padded", {1, 6, 6, 2});
  b.Op(Op::PAD, {conv, pads}, {padded});
  const int32_t dw = b.Float("dw", {1, 3, 3, 2}, std::vector<float>(18, 0.5f));
  const int32_t dconv = b.Tensor("dconv", {1, 4, 4, 2});
  b.Op(Op::DEPTHWISE_CONV_2D, {padded, dw}, {dconv}, b.DepthwiseConv2D(Padding::VALID, 1, 1, 1));
  const int32_t shape = b.Int32("shape", {3}, {1, -1, 2});
  const int32_t flat = b.Tensor("flat", {1, 16, 2});
  b.Op(Op::RESHAPE, {dconv, shape}, {flat});
  const int32_t cat = b.Tensor("cat", {1, 32, 2});
  b.Op(Op::CONCATENATION, {flat, flat}, {cat}, b.Concatenation(1));
  const int32_t axes = b.Int32("axes", {1}, {1});
  const int32_t mean = b.Tensor("mean", {1, 1, 2}, tfl::TensorType::FLOAT32);
  b.Op(Op::MEAN, {cat, axes}, {mean}, b.Reducer(true));
  const int32_t tw = b.Float("tw", {1, 2, 2, 2}, std::vector<float>(8, 0.25f));
  const int32_t tb = b.Float("tb", {1}, {0.0f});
  const int32_t up = b.Tensor("up", {1, 8, 8, 1});
  const int32_t params[3] = {1, 2, 2};
  std::vector<uint8_t> custom(12);
  std::memcpy(custom.data(), params, 12);
  b.Custom("Convolution2DTransposeBias", {dconv, tw, tb}, {up}, custom);
  const int32_t size = b.Int32("size", {2}, {4, 4});
  const int32_t down = b.Tensor("down", {1, 4, 4, 1});
  b.Op(Op::RESIZE_BILINEAR, {up, size}, {down}, b.ResizeBilinear(false, true));
  b.Output(mean);
  b.Output(down);
  return b.Finish();
}

TEST_CASE("the small model imports whole") {
  Expected<TfliteImport> m = ReadTflite(SmallModel(), "small.tflite");
  REQUIRE_MESSAGE(m.ok(), m.status().ToString());
  CHECK(m->graph.nodes.size() == 10);
}

TEST_CASE("every single-byte corruption of a .tflite is an error or a valid graph") {
  const std::vector<uint8_t> model = SmallModel();
  REQUIRE(model.size() <= 4096);
  CheckSingleByteCorruptions(model, ImportsAGraph);
}

TEST_CASE("every truncation of a .tflite is an error or a valid graph") {
  const std::vector<uint8_t> model = SmallModel();
  const Outcomes outcomes = ReadTruncations(model, ImportsAGraph);
  MESSAGE(outcomes.errors, " errors, ", outcomes.graphs, " graphs of ", model.size());
  CHECK(outcomes.errors > 0);
}

TEST_CASE("seeded random corruption of face_detection_short_range") {
  const std::vector<uint8_t> model = ReadModel("face_detection_short_range.tflite");
  REQUIRE(ReadTflite(model, "fuzz.tflite").ok());
  // 200 trials of 16 bytes each: 3200 corrupted bytes. Most land in weights
  // (harmless); the rest hit tables, vectors and offsets.
  std::mt19937 rng(20261122);
  std::uniform_int_distribution<size_t> position(0, model.size() - 1);
  std::uniform_int_distribution<int> value(0, 255);
  Outcomes outcomes;
  std::vector<uint8_t> bytes;
  for (int trial = 0; trial < 200; ++trial) {
    bytes = model;
    for (int k = 0; k < 16; ++k) bytes[position(rng)] = static_cast<uint8_t>(value(rng));
    INFO("trial ", trial);
    ++(ImportsAGraph(bytes) ? outcomes.graphs : outcomes.errors);
  }
  MESSAGE(outcomes.errors, " errors, ", outcomes.graphs, " graphs of 200 trials");
  CHECK(outcomes.errors + outcomes.graphs == 200);
}

}  // namespace
}  // namespace opuc::test
