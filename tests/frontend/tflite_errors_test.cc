//===- tests/frontend/tflite_errors_test.cc - Files the importer rejects --===//
//
// Each error path with its whole message: the stage that finds it (header,
// verifier, index checks, tensor import, operator import) and the thing it
// names. tflite_file_test.cc has the file-level features that work.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cstring>

#include "frontend/tflite_test_util.h"

namespace opuc::test {
namespace {

TEST_CASE("the header and the FlatBuffers verifier come first") {
  TfliteBuilder b;
  std::vector<uint8_t> bytes = ReluAddModel(b);
  REQUIRE(ReadTflite(bytes, "t.tflite").ok());
  CHECK(ReadError({1, 2, 3}) == "t.tflite: 3 bytes is too short for a .tflite file (at least 8)");
  std::vector<uint8_t> renamed = bytes;
  std::memcpy(renamed.data() + 4, "TFL2", 4);
  CHECK(ReadError(renamed) ==
        "t.tflite: file identifier is \"TFL2\"; expected \"TFL3\" (not a"
        " .tflite file)");
  const std::vector<uint8_t> truncated(
      bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2));
  CHECK(ReadError(truncated).rfind("t.tflite: FlatBuffers verification failed in ", 0) == 0);
}

/// Points the offset field `field` of `table` (inside `bytes`) far past the end.
template <typename T>
void BreakOffset(std::vector<uint8_t>& bytes, const T* table, flatbuffers::voffset_t field) {
  const uint8_t* at = reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(field);
  REQUIRE(at != nullptr);
  const uint32_t far = 0x7ffffff0;
  std::memcpy(bytes.data() + (at - bytes.data()), &far, sizeof(far));
}

TEST_CASE("the search for the damage costs no more than one verification") {
  // Every subgraph is the same one, of about 0.9 M tables (1000 tensors
  // sharing one tensor whose sparsity has 900 dimensions sharing one): each
  // verifies alone, the 200 together are past the verifier's million. A
  // search verifying each subgraph afresh would visit 180 M tables; the
  // shared budget stops at the first that runs out.
  flatbuffers::FlatBufferBuilder fbb;
  const auto dim = tfl::CreateDimensionMetadata(fbb);
  const std::vector<flatbuffers::Offset<tfl::DimensionMetadata>> dims(900, dim);
  const auto sparsity = tfl::CreateSparsityParameters(fbb, 0, 0, fbb.CreateVector(dims));
  const auto tensor = tfl::CreateTensor(fbb, 0, tfl::TensorType::FLOAT32, 0, 0, 0, false, sparsity);
  const std::vector<flatbuffers::Offset<tfl::Tensor>> tensors(1000, tensor);
  const auto subgraph = tfl::CreateSubGraph(fbb, fbb.CreateVector(tensors));
  const std::vector<flatbuffers::Offset<tfl::SubGraph>> subgraphs(200, subgraph);
  fbb.Finish(tfl::CreateModel(fbb, 3, 0, fbb.CreateVector(subgraphs)), "TFL3");
  const std::vector<uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  CHECK(ReadError(bytes).rfind("t.tflite: FlatBuffers verification failed in subgraphs[1]", 0) ==
        0);
}

TEST_CASE("a verification failure names the damaged table") {
  TfliteBuilder b;
  std::vector<uint8_t> bytes = ReluAddModel(b);
  const tfl::Model* model = tfl::GetModel(bytes.data());
  SUBCASE("a tensor's name") {
    BreakOffset(bytes, model->subgraphs()->Get(0)->tensors()->Get(1), tfl::Tensor::VT_NAME);
    CHECK(ReadError(bytes) ==
          "t.tflite: FlatBuffers verification failed in subgraphs[0].tensors[1]"
          ": the file is truncated or corrupt (an offset, table, vector or string"
          " there lies outside the file)");
  }
  SUBCASE("an operator's inputs") {
    BreakOffset(bytes, model->subgraphs()->Get(0)->operators()->Get(1), tfl::Operator::VT_INPUTS);
    CHECK(ReadError(bytes).find("failed in subgraphs[0].operators[1]: ") != std::string::npos);
  }
  SUBCASE("the buffers vector") {
    BreakOffset(bytes, model, tfl::Model::VT_BUFFERS);
    CHECK(ReadError(bytes).find("failed in buffers: ") != std::string::npos);
  }
  SUBCASE("the description, a field the search does not walk") {
    BreakOffset(bytes, model, tfl::Model::VT_DESCRIPTION);
    CHECK(ReadError(bytes).find("failed in the Model table or one of its fields: ") !=
          std::string::npos);
  }
  SUBCASE("the root offset") {
    bytes[2] = 0x7f;
    CHECK(ReadError(bytes).find("failed in the root offset or the Model table's header: ") !=
          std::string::npos);
  }
}

TEST_CASE("model-level checks: schema version, subgraphs") {
  TfliteBuilder b;
  b.version = 2;
  const Status old = ReadTflite(ReluAddModel(b), "t.tflite").status();
  CHECK(old.code() == StatusCode::kUnsupported);
  CHECK(old.message() == "t.tflite: schema version is 2; opuc reads version 3");

  flatbuffers::FlatBufferBuilder fbb;
  tfl::FinishModelBuffer(fbb, tfl::CreateModel(fbb, 3));
  CHECK(ReadError(
            std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize())) ==
        "t.tflite: the model has no subgraphs; expected at least one");
}

TEST_CASE("indices out of range are found before the import") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::ADD, {x, 99}, {y});
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: subgraph 0: operator 0: input 1 is tensor 99, which is out of"
        " range (2 tensors; -1 marks absent)");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {2});
  const int32_t w = c.Float("w", {2}, {1, 2});
  c.SetBuffer(w, 42);
  const int32_t y2 = c.Tensor("y", {2});
  c.Op(Op::ADD, {x2, w}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: subgraph 0: tensor 1 'w': buffer 42 is out of range (2"
        " buffers)");

  TfliteBuilder e;
  const int32_t x3 = e.Input("x", {2});
  e.Output(x3);
  e.Output(-1);
  CHECK(ImportError(e) ==
        "t.tflite: subgraph 0: graph output 1 is tensor -1, which is out of"
        " range (1 tensors)");
}

TEST_CASE("unknown operators are errors naming index, name and code") {
  const auto one_op = [](int32_t code_value) {
    TfliteBuilder b;
    const int32_t x = b.Input("x", {2});
    const int32_t y = b.Tensor("y", {2});
    b.Op(Op::RELU, {x}, {y});
    b.Op(static_cast<Op>(code_value), {y}, {b.Tensor("z", {2})});
    b.Output(2);
    return ImportError(b);
  };
  CHECK(one_op(static_cast<int32_t>(Op::SQUEEZE)) ==
        "t.tflite: operator 1 (SQUEEZE): opuc does not import SQUEEZE (builtin code 43);"
        " docs/tflite-importer.md lists the operators it does");
  // Past 127 the legacy byte says 127 and the int holds the code.
  CHECK(one_op(static_cast<int32_t>(Op::GELU)) ==
        "t.tflite: operator 1 (GELU): opuc does not import GELU (builtin code 150);"
        " docs/tflite-importer.md lists the operators it does");
  CHECK(one_op(400) ==
        "t.tflite: operator 1 (BUILTIN_400): opuc does not import BUILTIN_400"
        " (builtin code 400); docs/tflite-importer.md lists the operators it does");

  TfliteBuilder c;
  const int32_t x = c.Input("x", {2});
  const int32_t y = c.Tensor("y", {2});
  c.Custom("Frobnicate", {x}, {y}, {});
  c.Output(y);
  const Status custom = ReadTflite(c.Finish(), "t.tflite").status();
  CHECK(custom.code() == StatusCode::kUnsupported);
  CHECK(custom.message() ==
        "t.tflite: operator 0 (CUSTOM:Frobnicate): custom operator"
        " 'Frobnicate' is unknown; opuc imports the custom operator"
        " Convolution2DTransposeBias only");
}

TEST_CASE("tensor errors name the operator, the input and the tensor") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2, 2});
  const int32_t w = b.Float("w", {2, 2}, {1, 2, 3});  // 12 bytes for 4 floats
  const int32_t y = b.Tensor("y", {2, 2});
  b.Op(Op::ADD, {x, w}, {y});
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (ADD): input 1 (rhs): tensor 1 'w': buffer 1"
        " holds 12 bytes; shape [2,2] FLOAT32 needs 4 × 4");

  TfliteBuilder c;
  c.Output(c.Input("x", {2}, tfl::TensorType::UINT8));
  const Status u8 = ReadTflite(c.Finish(), "t.tflite").status();
  CHECK(u8.code() == StatusCode::kUnsupported);
  CHECK(u8.message() ==
        "t.tflite: graph input 0: tensor 0 'x': type UINT8 is not supported"
        " (opuc imports FLOAT32, FLOAT16 and INT32 tensors)");

  TfliteBuilder n;  // a type code the schema does not know (the verifier lets enums pass)
  n.Output(n.Input("x", {2}, static_cast<tfl::TensorType>(-5)));
  CHECK(ReadTflite(n.Finish(), "t.tflite").status().message() ==
        "t.tflite: graph input 0: tensor 0 'x': type code -5 (no TFLite type) is not supported"
        " (opuc imports FLOAT32, FLOAT16 and INT32 tensors)");

  TfliteBuilder e;
  const int32_t q = e.Input("x", {2});
  e.SetQuantization(q, {0.5f}, {3});
  e.Output(q);
  CHECK(ImportError(e) ==
        "t.tflite: graph input 0: tensor 0 'x': has quantization parameters"
        " (scale, zero_point); opuc imports float models and quantizes them"
        " itself");

  TfliteBuilder v;
  const int32_t state = v.Input("state", {2});
  v.SetVariable(state);
  v.Output(state);
  CHECK(ImportError(v) ==
        "t.tflite: graph input 0: tensor 0 'state': is a variable tensor;"
        " opuc imports stateless models only");
}

TEST_CASE("dataflow errors: order, outputs written twice, constants written") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t a = b.Tensor("a", {2});
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::RELU, {a}, {y});  // reads a before anything writes it
  b.Op(Op::RELU, {x}, {a});
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (RELU): input 0 (input): tensor 1 'a' is neither"
        " a graph input, a constant, nor the output of an earlier operator"
        " (operators must be in topological order)");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {2});
  const int32_t y2 = c.Tensor("y", {2});
  c.Op(Op::RELU, {x2}, {y2});
  c.Op(Op::RELU6, {x2}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 1 (RELU6): tensor 1 'y' is already defined (a graph"
        " input, a constant or an earlier operator's output); an output must"
        " be new");

  TfliteBuilder e;
  const int32_t x3 = e.Input("x", {2});
  const int32_t k = e.Float("k", {2}, {1, 2});
  e.Op(Op::RELU, {x3}, {k});
  e.Output(k);
  CHECK(ImportError(e) ==
        "t.tflite: operator 0 (RELU): tensor 1 'k' has constant data; an"
        " operator cannot write it");

  TfliteBuilder f;
  const int32_t x4 = f.Input("x", {2});
  f.Tensor("nowhere", {2});
  f.Output(x4);
  f.Output(1);
  CHECK(ImportError(f) ==
        "t.tflite: graph output 1: tensor 1 'nowhere' is neither a graph input,"
        " a constant, nor the output of an earlier operator (operators must be"
        " in topological order)");
}

TEST_CASE("operand counts are checked per operator") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::ADD, {x}, {y});
  b.Output(y);
  CHECK(ImportError(b) == "t.tflite: operator 0 (ADD): has 1 inputs; expected 2 (lhs, rhs)");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {2});
  const int32_t y2 = c.Tensor("y", {2});
  const int32_t z2 = c.Tensor("z", {2});
  c.Op(Op::RELU, {x2}, {y2, z2});
  c.Output(y2);
  CHECK(ImportError(c) == "t.tflite: operator 0 (RELU): has 2 outputs; expected 1");
}

}  // namespace
}  // namespace opuc::test
