//===- tests/frontend/tflite_file_test.cc - File-level features of .tflite -===//
//
// What the importer does with the file as a whole: old and new operator
// codes, buffers stored after the FlatBuffer, unique IR names, the model's
// metadata, and constants that view the loaded buffer.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "frontend/tflite_test_util.h"

namespace opuc::test {
namespace {

TEST_CASE("operator codes: the legacy byte alone, or the larger of the two") {
  // Old converters set only the byte (slot 0); builtin_code (slot 3) reads 0.
  TfliteBuilder legacy;
  legacy.legacy_opcodes = true;
  Expected<TfliteImport> m = ReadTflite(ReluAddModel(legacy), "t.tflite");
  REQUIRE_MESSAGE(m.ok(), m.status().ToString());
  CHECK(m->source_operators == std::map<std::string, int>{{"ADD", 1}, {"RELU", 1}});
}

TEST_CASE("buffers stored after the FlatBuffer (offset and size)") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t w = b.External("w", {2}, tfl::TensorType::FLOAT32, /*offset=*/4096, /*size=*/8);
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::ADD, {x, w}, {y});
  b.Output(y);
  std::vector<uint8_t> bytes = b.Finish();
  REQUIRE(bytes.size() < 4096);
  std::vector<uint8_t> short_file = bytes;
  bytes.resize(4096);
  const float values[2] = {1.5f, -3.0f};
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(values),
               reinterpret_cast<const uint8_t*>(values) + 8);
  Expected<TfliteImport> m = ReadTflite(bytes, "t.tflite");
  REQUIRE_MESSAGE(m.ok(), m.status().ToString());
  const Tensor& weights = m->graph.tensor(TensorNamed(m->graph, "w"));
  REQUIRE(weights.constant);
  CHECK(weights.constant->As<float>()[0] == 1.5f);
  CHECK(weights.constant->As<float>()[1] == -3.0f);

  CHECK(ReadError(short_file) == "t.tflite: buffer 1 spans bytes 4096..+8 outside the file (" +
                                     std::to_string(short_file.size()) + " bytes)");
}

TEST_CASE("IR names are unique: repeated and empty names get the tensor index") {
  TfliteBuilder b;
  const int32_t x = b.Input("t", {2});
  const int32_t a = b.Tensor("t", {2});
  const int32_t c = b.Tensor("", {2});
  b.Op(Op::RELU, {x}, {a});
  b.Op(Op::RELU, {a}, {c});
  b.Output(c);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.tensors.size() == 3);
  CHECK(m.graph.tensors[0].name == "t");
  CHECK(m.graph.tensors[1].name == "t_1");
  CHECK(m.graph.tensors[2].name == "tensor_2");
  CHECK(m.graph.nodes[1].name == "tensor_2");
}

TEST_CASE("metadata: description and text entries, binary ones by size") {
  TfliteBuilder b;
  b.description = "MLIR Converted.";
  b.metadata = {{"min_runtime_version", {'2', '.', '2', '.', '0', 0, 0, 0}},
                {"blob", {0x01, 0xff, 0x00}}};
  Expected<TfliteImport> m = ReadTflite(ReluAddModel(b), "t.tflite");
  REQUIRE(m.ok());
  CHECK(m->graph.name == "main");
  const std::vector<std::pair<std::string, std::string>> want = {
      {"source_format", "tflite"},
      {"tflite.description", "MLIR Converted."},
      {"tflite.min_runtime_version", "2.2.0"},
      {"tflite.blob", "<3 bytes, not text>"}};
  CHECK(m->graph.metadata == want);
}

TEST_CASE("constants view the loaded buffer when it is aligned, and copy otherwise") {
  TfliteBuilder b;
  const std::vector<uint8_t> bytes = ReluAddModel(b);
  // An aligned buffer the test owns: constants must point into it.
  std::shared_ptr<uint8_t> aligned(static_cast<uint8_t*>(std::aligned_alloc(16, 4096)),
                                   [](uint8_t* p) { std::free(p); });
  REQUIRE(bytes.size() <= 4096);
  std::memcpy(aligned.get(), bytes.data(), bytes.size());
  Expected<TfliteImport> m = ReadTflite(aligned, aligned.get(), bytes.size(), "t.tflite");
  REQUIRE(m.ok());
  const ConstantData& c = *m->graph.tensor(TensorNamed(m->graph, "c")).constant;
  CHECK(c.data() >= aligned.get());
  CHECK(c.data() < aligned.get() + bytes.size());
  CHECK(c.IsAligned(16));
  CHECK(c.As<float>()[1] == 2.0f);
  // Misaligned by one byte: read from an aligned copy, so still correct.
  std::shared_ptr<uint8_t> shifted(static_cast<uint8_t*>(std::aligned_alloc(16, 4112)),
                                   [](uint8_t* p) { std::free(p); });
  std::memcpy(shifted.get() + 1, bytes.data(), bytes.size());
  Expected<TfliteImport> copy = ReadTflite(shifted, shifted.get() + 1, bytes.size(), "t.tflite");
  REQUIRE(copy.ok());
  const ConstantData& c2 = *copy->graph.tensor(TensorNamed(copy->graph, "c")).constant;
  CHECK(c2.IsAligned(16));
  CHECK(c2.As<float>()[1] == 2.0f);
}

}  // namespace
}  // namespace opuc::test
