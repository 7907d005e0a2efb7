//===- tests/frontend/opug_json_test.cc - The hand-written JSON form ------===//
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "frontend/test_graphs.h"
#include "opuc/opug/opug.h"

namespace opuc {
namespace {

using test::kTwoNodeJson;

TEST_CASE("the two-node example parses with defaults filled in" * test::NeedsJsonReader()) {
  Expected<Graph> g = ReadOpugJson(kTwoNodeJson, "two.opug.json");
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  CHECK(g->name == "two_nodes");
  REQUIRE(g->tensors.size() == 4);
  CHECK(g->tensors[0].name == "image");
  CHECK(g->tensors[0].shape == Shape{1, 2, 2, 2});
  CHECK(g->tensors[1].shape == Shape{2, 1, 1, 2});
  CHECK(g->tensors[2].shape == Shape{1, 2, 2, 2});
  CHECK(g->tensors[3].shape == Shape{1, 2, 2, 2});
  for (const Tensor& t : g->tensors) CHECK(t.dtype == DType::kF32);
  CHECK_FALSE(g->tensors[0].is_constant());

  // Little-endian IEEE-754: 1.0f = 0x3F800000, 2.0f = 0x40000000,
  // 0.5f = 0x3F000000, -1.0f = 0xBF800000.
  const ConstantData& w = *g->tensors[1].constant;
  REQUIRE(w.size() == 16);
  CHECK(w.As<float>()[0] == 1.0f);
  CHECK(w.As<float>()[1] == 2.0f);
  CHECK(w.As<float>()[2] == 0.5f);
  CHECK(w.As<float>()[3] == -1.0f);
  CHECK(w.IsAligned(16));

  REQUIRE(g->nodes.size() == 2);
  const Node& conv = g->nodes[0];
  CHECK(conv.op == OpKind::kConv2D);
  CHECK(conv.name == "mix");
  CHECK(conv.inputs == std::vector<TensorId>{0, 1, kNoTensor});
  CHECK(conv.outputs == std::vector<TensorId>{2});
  // Given: padding. Filled in from the registry: activation, dilations, strides.
  CHECK(conv.attrs.size() == 4);
  CHECK(conv.attrs.GetString("padding") == "same");
  CHECK(conv.attrs.GetString("activation") == "none");
  CHECK(conv.attrs.GetInts("strides") == std::vector<int64_t>{1, 1});
  CHECK(conv.attrs.GetInts("dilations") == std::vector<int64_t>{1, 1});
  CHECK(g->nodes[1].op == OpKind::kRelu);
  CHECK(g->nodes[1].attrs.empty());
  CHECK(g->inputs == std::vector<TensorId>{0});
  CHECK(g->outputs == std::vector<TensorId>{3});
  CHECK(g->metadata ==
        std::vector<std::pair<std::string, std::string>>{{"author", "docs/graph-format.md"}});
}

TEST_CASE("docs/graph-format.md shows exactly the tested example") {
  std::ifstream file(OPUC_SOURCE_DIR "/docs/graph-format.md");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const std::string open = "```json\n";
  const size_t begin = doc.find(open);
  REQUIRE(begin != std::string::npos);
  const size_t end = doc.find("```", begin + open.size());
  REQUIRE(end != std::string::npos);
  CHECK(doc.substr(begin + open.size(), end - begin - open.size()) == kTwoNodeJson);
}

TEST_CASE("FlatBuffers' lenient JSON is accepted: comments, bare keys" * test::NeedsJsonReader()) {
  const char* text = R"(// an empty graph
    /* block */ { version: 1, name: "empty", tensors: [], nodes: [], })";
  Expected<Graph> g = ReadOpugJson(text, "empty.opug.json");
  REQUIRE_MESSAGE(g.ok(), g.status().ToString());
  CHECK(g->name == "empty");
  CHECK(g->tensors.empty());
}

TEST_CASE("parser errors carry the source name, line and column" * test::NeedsJsonReader()) {
  std::string text = kTwoNodeJson;
  const std::string from = R"("shape": [2, 1, 1, 2])";
  text.replace(text.find(from), from.size(), R"("shapes": [2, 1, 1, 2])");
  Expected<Graph> g = ReadOpugJson(text, "bad.opug.json");
  REQUIRE_FALSE(g.ok());
  CHECK(g.status().code() == StatusCode::kInvalidArgument);
  // The misspelt key is on line 6 of the example (tensor "mix/w").
  CHECK(g.status().message().rfind("bad.opug.json: line 6, column ", 0) == 0);
  CHECK(g.status().message().find("unknown field: shapes") != std::string::npos);

  Expected<Graph> missing = ReadOpugJson(R"({ "tensors": [ { "dtype": "F32" } ] })", "m.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() ==
        "m.json: line 1, column 35: required field is missing: name in Tensor");
}

TEST_CASE("only a JSON object is read" * test::NeedsJsonReader()) {
  for (const char* text : {"", "   ", "[1, 2]", "include \"other.fbs\"; {}",
                           "table T { a:int; } root_type T; { a: 1 }"}) {
    INFO("text: ", text);
    Expected<Graph> g = ReadOpugJson(text, "x.json");
    REQUIRE_FALSE(g.ok());
    CHECK(g.status().message() == "x.json: expected a JSON object starting with '{'");
  }
  Expected<Graph> nul = ReadOpugJson(std::string_view("{ }\0{", 5), "x.json");
  REQUIRE_FALSE(nul.ok());
  CHECK(nul.status().message() == "x.json: byte 3 is NUL; expected JSON text");
}

TEST_CASE("without FlatBuffers' parser, ReadOpugJson says so" *
          doctest::skip(OpugJsonReaderAvailable())) {
  Expected<Graph> g = ReadOpugJson(kTwoNodeJson, "two.opug.json");
  REQUIRE_FALSE(g.ok());
  CHECK(g.status().code() == StatusCode::kUnsupported);
  CHECK(g.status().message() ==
        "two.opug.json: cannot read the JSON form: this opuc was built without FlatBuffers' "
        "parser (OPUC_WITH_FLATBUFFERS_PARSER=OFF); use the binary .opug");
  // Writing needs no parser.
  CHECK(OpugToJson(test::MakeTinyGraph()).ok());
}

}  // namespace
}  // namespace opuc
