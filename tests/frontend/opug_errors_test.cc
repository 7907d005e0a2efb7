//===- tests/frontend/opug_errors_test.cc - Each check names its cause ----===//
//
// Bad graphs are the docs example with one edit (JSON goes through the same
// ReadOpug checks), or built with FlatBuffers directly where the JSON parser
// itself would refuse them, or to run without the parser (cross builds).
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include "frontend/test_graphs.h"
#include "opuc/opug/opug.h"
#include "opug_generated.h"

namespace opuc {
namespace {

/// kTwoNodeJson with the one occurrence of `from` replaced by `to`.
std::string Edit(const std::string& from, const std::string& to) {
  std::string text = test::kTwoNodeJson;
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "not in the example: ", from);
  REQUIRE_MESSAGE(text.find(from, at + 1) == std::string::npos, "twice in the example: ", from);
  return text.replace(at, from.size(), to);
}

Status ReadError(const std::string& text) {
  Expected<Graph> g = ReadOpugJson(text, "bad.opug.json");
  REQUIRE_MESSAGE(!g.ok(), "read a bad graph:\n", text);
  return g.status();
}

std::string Message(const std::string& from, const std::string& to) {
  return ReadError(Edit(from, to)).message();
}

const std::string kImage = R"("name": "image", "dtype": "F32", "shape": [1, 2, 2, 2])";
const std::string kWeights = R"("data": [0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 0, 63, 0, 0, 128, 191])";
const std::string kPadding =
    R"({ "name": "padding", "value_type": "StringAttr", "value": { "value": "same" } })";

TEST_CASE("buffers: size, index, buffer 0" * test::NeedsJsonReader()) {
  CHECK(Message(kWeights, R"("data": [0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 0, 63])") ==
        "bad.opug.json: tensor 1 'mix/w': buffer 1 holds 12 bytes; shape [2,1,1,2] f32 "
        "needs 16");
  CHECK(Message(R"("buffer": 1)", R"("buffer": 7)") ==
        "bad.opug.json: tensor 1 'mix/w': buffer 7 is out of range (the graph has 2 buffers)");
  CHECK(Message("    {},\n", "    { \"data\": [1] },\n") ==
        "bad.opug.json: buffer 0 holds 1 bytes; it must be empty (buffer 0 means \"no data\")");
}

TEST_CASE("tensors: dtype, extents, element counts, fixed points" * test::NeedsJsonReader()) {
  CHECK(Message(R"("name": "image", "dtype": "F32")", R"("name": "image", "dtype": 9)") ==
        "bad.opug.json: tensor 0 'image': dtype 9 is unknown (expected 0..5)");
  CHECK(Message(kImage, R"("name": "image", "shape": [1, -2, 2, 2])") ==
        "bad.opug.json: tensor 0 'image': shape [1,-2,2,2] has a negative extent");
  // 2^40 · 2^40 elements overflow int64; 2^62 elements fit but 2^64 bytes do not.
  CHECK(Message(kImage, R"("name": "image", "shape": [1099511627776, 1099511627776])") ==
        "bad.opug.json: tensor 0 'image': shape [1099511627776,1099511627776] f32 has too "
        "many elements to address");
  CHECK(Message(kImage, R"("name": "image", "shape": [4611686018427387904])") ==
        "bad.opug.json: tensor 0 'image': shape [4611686018427387904] f32 has too many "
        "elements to address");
  CHECK(Message(kImage, kImage + R"(, "fixed_point": { "fraction_bits": [7, 7] })") ==
        "bad.opug.json: tensor 0 'image': fixed_point has 2 fraction_bits; expected 1 for "
        "the whole tensor (axis -1)");
  CHECK(Message(kImage, kImage + R"(, "fixed_point": { "fraction_bits": [7, 7, 7], "axis": 3 })") ==
        "bad.opug.json: tensor 0 'image': fixed_point has 3 fraction_bits; expected 2 "
        "(extent of axis 3)");
  CHECK(Message(kImage, kImage + R"(, "fixed_point": { "fraction_bits": [7], "axis": 4 })") ==
        "bad.opug.json: tensor 0 'image': fixed_point axis 4 is out of range for shape "
        "[1,2,2,2]");
}

TEST_CASE("nodes: op names, tensor indices, attributes" * test::NeedsJsonReader()) {
  CHECK(Message(R"("op": "relu")", R"("op": "max_pool")") ==
        "bad.opug.json: node 1 'act': unknown op 'max_pool'");
  CHECK(Message(R"("inputs": [2])", R"("inputs": [9])") ==
        "bad.opug.json: node 1 'act': input 0 is tensor 9, which is out of range (4 tensors; "
        "-1 marks absent)");
  CHECK(Message(R"("inputs": [0, 1, -1])", R"("inputs": [0, 1, -2])") ==
        "bad.opug.json: node 0 'mix': input 2 is tensor -2, which is out of range (4 tensors; "
        "-1 marks absent)");
  CHECK(Message(R"("outputs": [3] })", R"("outputs": [-1] })") ==
        "bad.opug.json: node 1 'act': output 0 is tensor -1, which is out of range (4 tensors)");
  CHECK(Message(kPadding, kPadding + ", " + kPadding) ==
        "bad.opug.json: node 0 'mix': attribute 1 'padding' appears twice");
}

TEST_CASE("the graph: version, inputs and outputs" * test::NeedsJsonReader()) {
  const Status version = ReadError(Edit(R"("version": 1)", R"("version": 2)"));
  CHECK(version.code() == StatusCode::kUnsupported);
  CHECK(version.message() == "bad.opug.json: format version 2 is newer than this opuc reads (1)");
  CHECK(Message("\"outputs\": [3],\n  \"metadata\"", "\"outputs\": [4],\n  \"metadata\"") ==
        "bad.opug.json: graph: output 0 is tensor 4, which is out of range (4 tensors)");
  CHECK(Message("\"inputs\": [0],\n", "\"inputs\": [-1],\n") ==
        "bad.opug.json: graph: input 0 is tensor -1, which is out of range (4 tensors)");
}

// These pass our checks and are caught by Verify(graph); the messages are the
// verifier's, prefixed with the source.
TEST_CASE("Verify runs last and its messages name the source" * test::NeedsJsonReader()) {
  const auto verify_error = [](const std::string& from, const std::string& to) {
    const std::string m = Message(from, to);
    CHECK(m.rfind("bad.opug.json: ", 0) == 0);
    return m;
  };
  const std::string shape =
      verify_error(R"("name": "mix/out", "dtype": "F32", "shape": [1, 2, 2, 2])",
                   R"("name": "mix/out", "dtype": "F32", "shape": [1, 2, 2, 3])");
  CHECK(shape.find("mix") != std::string::npos);
  CHECK(shape.find("[1,2,2,3]") != std::string::npos);
  CHECK(verify_error(R"("name": "act/out")", R"("name": "image")").find("image") !=
        std::string::npos);
  // A floats value where conv2d declares a string: the FloatsAttr was read.
  const std::string floats = verify_error(
      kPadding,
      R"({ "name": "padding", "value_type": "FloatsAttr", "value": { "values": [0.5, 2] } })");
  CHECK(floats.find("padding") != std::string::npos);
  CHECK(floats.find("floats") != std::string::npos);
  CHECK(floats.find("0.5") != std::string::npos);
}

/// A one-node graph (relu of tensor 0 into tensor 1) whose only attribute has
/// union type `type` and an IntAttr table as its value.
std::vector<uint8_t> GraphWithAttrType(opug::AttrValue type) {
  namespace fb = ::opuc::opug;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors = {fb::CreateTensorDirect(fbb, "a"),
                                                          fb::CreateTensorDirect(fbb, "b")};
  const auto value = fb::CreateIntAttr(fbb, 3).Union();
  std::vector<flatbuffers::Offset<fb::Attr>> attrs = {
      fb::CreateAttr(fbb, fbb.CreateString("x"), type, value)};
  const std::vector<int32_t> in = {0}, out = {1};
  std::vector<flatbuffers::Offset<fb::Node>> nodes = {
      fb::CreateNodeDirect(fbb, "relu", "n", &in, &out, &attrs)};
  fb::FinishGraphBuffer(fbb,
                        fb::CreateGraphDirect(fbb, 1, "g", &tensors, nullptr, &nodes, &in, &out));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

TEST_CASE("attribute union types the JSON parser would refuse") {
  // The builder works: with a valid type the graph fails only in Verify.
  const auto message = [](opug::AttrValue type) {
    return ReadOpug(GraphWithAttrType(type), "g.opug").status().message();
  };
  CHECK(message(opug::AttrValue::IntAttr).find("'x'") != std::string::npos);
  CHECK(message(opug::AttrValue::NONE) == "g.opug: node 0 'n': attribute 0 'x' has no value type");
  CHECK(message(static_cast<opug::AttrValue>(9)) ==
        "g.opug: node 0 'n': attribute 0 'x' has value type 9, which is unknown (expected 1..6)");
}

/// A graph whose only tensor, f32 of `shape`, is a constant: buffer 1 of `bytes` bytes.
std::vector<uint8_t> GraphWithConstant(const std::vector<int64_t>& shape, size_t bytes) {
  namespace fb = ::opuc::opug;
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<uint8_t> data(bytes);
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers = {fb::CreateBuffer(fbb),
                                                          fb::CreateBufferDirect(fbb, &data)};
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors = {
      fb::CreateTensorDirect(fbb, "w", fb::DType::F32, &shape, 0, /*buffer=*/1)};
  fb::FinishGraphBuffer(fbb, fb::CreateGraphDirect(fbb, 1, "g", &tensors, &buffers));
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// Sizes are counted in 64 bits everywhere: with a 32-bit size_t (armhf),
// 2^32 + 4 bytes must not pass for 4, nor 2^34 for 0.
TEST_CASE("byte counts past 32 bits are not truncated") {
  const auto message = [](const std::vector<int64_t>& shape, size_t bytes) {
    return ReadOpug(GraphWithConstant(shape, bytes), "g.opug").status().message();
  };
  CHECK(message({1073741825}, 4) ==
        "g.opug: tensor 0 'w': buffer 1 holds 4 bytes; shape [1073741825] f32 needs 4294967300");
  CHECK(message({1073741824, 4}, 0) ==
        "g.opug: tensor 0 'w': buffer 1 holds 0 bytes; shape [1073741824,4] f32 needs "
        "17179869184");
  CHECK(message({1099511627776, 1099511627776}, 0) ==
        "g.opug: tensor 0 'w': shape [1099511627776,1099511627776] f32 has too many elements "
        "to address");
  CHECK(ReadOpug(GraphWithConstant({2, 2}, 16), "g.opug").ok());
}

TEST_CASE("binary framing: a verification failure names the damaged table") {
  namespace fb = ::opuc::opug;
  std::vector<uint8_t> bytes = WriteOpug(test::MakeSmallGraph()).value();
  const fb::Graph* root = fb::GetGraph(bytes.data());
  REQUIRE(root->nodes()->Get(1)->attrs() != nullptr);  // the max pool's
  // Node 1's first attribute's name now points far past the end of the file.
  const auto* attr = root->nodes()->Get(1)->attrs()->Get(0);
  const uint8_t* field =
      reinterpret_cast<const flatbuffers::Table*>(attr)->GetAddressOf(fb::Attr::VT_NAME);
  REQUIRE(field != nullptr);
  const uint32_t far = 0x7ffffff0;
  std::memcpy(bytes.data() + (field - bytes.data()), &far, sizeof(far));
  CHECK(ReadOpug(bytes, "x.opug").status().message() ==
        "x.opug: FlatBuffers verification failed in nodes[1].attrs[0]: the file is truncated or"
        " corrupt (an offset, table, vector or string there lies outside the file)");
}

TEST_CASE("binary framing: length, identifier, verifier") {
  CHECK(ReadOpug(std::vector<uint8_t>{1, 2, 3}, "x.opug").status().message() ==
        "x.opug: 3 bytes is too short for a .opug file (at least 8)");
  CHECK(
      ReadOpug(std::vector<uint8_t>{8, 0, 0, 0, 'T', 'F', 'L', '3'}, "x.opug").status().message() ==
      "x.opug: file identifier is \"TFL3\"; expected \"OPUG\" (not a .opug file)");
  // A root offset that points past the end.
  CHECK(ReadOpug(std::vector<uint8_t>{0xF0, 0, 0, 0, 'O', 'P', 'U', 'G', 0, 0, 0, 0}, "x.opug")
            .status()
            .message() ==
        "x.opug: FlatBuffers verification failed in the root offset or the Graph table's header"
        ": the file is truncated or corrupt (an offset, table, vector or string there lies"
        " outside the file)");
}

}  // namespace
}  // namespace opuc
