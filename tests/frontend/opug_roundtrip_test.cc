//===- tests/frontend/opug_roundtrip_test.cc - Graph → .opug → Graph ------===//
#include <doctest/doctest.h>

#include <cstring>

#include "frontend/test_graphs.h"
#include "opuc/file_io/aligned_bytes.h"
#include "opuc/ir/verifier.h"
#include "opuc/opug/opug.h"

namespace opuc {
namespace {

using test::CheckSameGraph;
using test::MakeTinyGraph;

bool PointsInto(const ConstantData& c, const AlignedBytes& buffer) {
  const uint8_t* begin = buffer.data();
  return c.data() >= begin && c.data() + c.size() <= begin + buffer.size;
}

TEST_CASE("the test graph is what its comment says") {
  const Graph g = MakeTinyGraph();
  REQUIRE(Verify(g).ok());
  CHECK(g.tensors.size() == 10);
  CHECK(g.nodes.size() == 7);
  CHECK(g.ConstantBytes() == 4 * 3 * 3 * 2 * 4 + 4 * 4);  // 288 + 16
  // AddNode filled in the defaults: conv2d declares four attributes.
  CHECK(g.nodes[0].attrs.size() == 4);
  CHECK(g.nodes[0].attrs.GetInts("dilations") == std::vector<int64_t>{1, 1});
  CHECK(g.nodes[0].attrs.GetString("activation") == "none");
}

TEST_CASE("binary round trip gives an equal graph") {
  const Graph g = MakeTinyGraph();
  Expected<std::vector<uint8_t>> bytes = WriteOpug(g);
  REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
  CHECK(bytes->size() % 16 == 0);
  CHECK(std::memcmp(bytes->data() + 4, "OPUG", 4) == 0);
  Expected<Graph> back = ReadOpug(*bytes, "tiny.opug");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CheckSameGraph(g, *back);
  CHECK(back->tensor(1).fixed_point == FixedPoint{{7, 6, 7, 5}, 0});
  CHECK(back->nodes[5].attrs.GetFloat("beta") == 1.0 / 3.0);
  CHECK(back->nodes[6].attrs.GetBool("keep_dims") == true);
}

TEST_CASE("writing is deterministic") {
  Expected<std::vector<uint8_t>> first = WriteOpug(MakeTinyGraph());
  Expected<std::vector<uint8_t>> second = WriteOpug(MakeTinyGraph());
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(*first == *second);
  // And a graph read back writes the same bytes again.
  Expected<Graph> back = ReadOpug(*first, "tiny.opug");
  REQUIRE(back.ok());
  Expected<std::vector<uint8_t>> third = WriteOpug(*back);
  REQUIRE(third.ok());
  CHECK(*first == *third);
}

TEST_CASE("constants read back are aligned views into the loaded buffer") {
  Expected<std::vector<uint8_t>> bytes = WriteOpug(MakeTinyGraph());
  REQUIRE(bytes.ok());
  Expected<AlignedBytes> buffer = CopyAligned(bytes->data(), bytes->size());
  REQUIRE(buffer.ok());
  Expected<Graph> back = ReadOpug(buffer->owner, buffer->data(), buffer->size, "tiny.opug");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  for (TensorId id : {1, 2}) {
    const ConstantData& c = *back->tensor(id).constant;
    CHECK(PointsInto(c, *buffer));
    CHECK(c.IsAligned(16));
  }
  // The first weight is 0/8 - 4 = -4.0f and the last bias is 0.0f.
  CHECK(back->tensor(1).constant->As<float>()[0] == -4.0f);
  CHECK(back->tensor(1).constant->As<float>()[71] == 71.0f / 8.0f - 4.0f);
  CHECK(back->tensor(2).constant->As<float>()[1] == -1.0f);

  // The graph keeps the buffer alive after every other owner lets go.
  std::weak_ptr<uint8_t> watch = buffer->owner;
  buffer = CopyAligned(nullptr, 0);
  CHECK_FALSE(watch.expired());
  back = Expected<Graph>(Graph());
  CHECK(watch.expired());
}

TEST_CASE("a misaligned input buffer is copied once, then viewed") {
  Expected<std::vector<uint8_t>> bytes = WriteOpug(MakeTinyGraph());
  REQUIRE(bytes.ok());
  std::vector<uint8_t> shifted(bytes->size() + 1);
  std::memcpy(shifted.data() + 1, bytes->data(), bytes->size());
  Expected<Graph> back = ReadOpug(nullptr, shifted.data() + 1, bytes->size(), "shifted.opug");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CheckSameGraph(MakeTinyGraph(), *back);
  const ConstantData& w = *back->tensor(1).constant;
  CHECK(w.IsAligned(16));
  CHECK_FALSE((w.data() >= shifted.data() && w.data() < shifted.data() + shifted.size()));
}

TEST_CASE("JSON round trip gives an equal graph, doubles exact" * test::NeedsJsonReader()) {
  const Graph g = MakeTinyGraph();
  Expected<std::string> json = OpugToJson(g);
  REQUIRE_MESSAGE(json.ok(), json.status().ToString());
  CHECK(json->find("\"value\": 0.3333333333333333 }") != std::string::npos);
  Expected<Graph> back = ReadOpugJson(*json, "tiny.opug.json");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CheckSameGraph(g, *back);
  CHECK(back->nodes[5].attrs.GetFloat("beta") == 1.0 / 3.0);
  // JSON → binary gives the bytes the binary writer gives for the same graph.
  CHECK(WriteOpug(*back).value() == WriteOpug(g).value());
  // Constants from JSON are aligned too (the parser honours force_align).
  CHECK(back->tensor(1).constant->IsAligned(16));
}

TEST_CASE("attribute values at the edges survive both forms") {
  Graph g = test::MakeSmallGraph();
  Attributes& softmax = g.nodes[2].attrs;
  for (double beta : {1e-300, 0.1f + 0.0, 123456789.125, 5e-324}) {
    softmax.Set("beta", beta);
    INFO("beta = ", beta);
    Expected<std::vector<uint8_t>> bytes = WriteOpug(g);
    REQUIRE(bytes.ok());
    CHECK(ReadOpug(*bytes, "g.opug")->nodes[2].attrs.GetFloat("beta") == beta);
    if (!OpugJsonReaderAvailable()) continue;
    Expected<Graph> from_json = ReadOpugJson(OpugToJson(g).value(), "g.opug.json");
    REQUIRE_MESSAGE(from_json.ok(), from_json.status().ToString());
    CHECK(from_json->nodes[2].attrs.GetFloat("beta") == beta);
  }
}

TEST_CASE("writers refuse a graph that does not verify") {
  Graph g = MakeTinyGraph();
  g.tensor(3).shape = {1, 4, 4, 5};  // conv1 computes [1,4,4,4]
  Expected<std::vector<uint8_t>> bytes = WriteOpug(g);
  REQUIRE_FALSE(bytes.ok());
  CHECK(bytes.status().message().find("conv1") != std::string::npos);
  CHECK_FALSE(OpugToJson(g).ok());
}

}  // namespace
}  // namespace opuc
