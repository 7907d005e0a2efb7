//===- tests/frontend/opug_robustness_test.cc - Corrupt input never crashes -===//
//
// Every single-byte corruption and every truncation of a small valid file
// must give an error or a graph that verifies: never a crash, and (under
// -DOPUC_SANITIZE=ON) never undefined behaviour.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include "frontend/corruption.h"
#include "frontend/test_graphs.h"
#include "opuc/ir/verifier.h"
#include "opuc/opug/opug.h"

namespace opuc {
namespace {

/// Whether the bytes read as a graph; an error must name the file.
bool ReadsAGraph(const std::vector<uint8_t>& bytes) {
  Expected<Graph> g = ReadOpug(bytes, "fuzz.opug");
  if (!g.ok()) {
    CHECK(g.status().message().rfind("fuzz.opug: ", 0) == 0);
    return false;
  }
  // ReadOpug verifies already; a second look guards against a reader that
  // forgets to.
  CHECK(Verify(*g).ok());
  return true;
}

std::vector<uint8_t> SmallModel() {
  Expected<std::vector<uint8_t>> bytes = WriteOpug(test::MakeSmallGraph());
  REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
  return std::move(bytes).value();
}

TEST_CASE("every single-byte corruption is an error or a valid graph") {
  const std::vector<uint8_t> model = SmallModel();
  REQUIRE(model.size() <= 2048);
  REQUIRE(ReadOpug(model, "fuzz.opug").ok());
  test::CheckSingleByteCorruptions(model, ReadsAGraph);
}

TEST_CASE("every truncation is an error") {
  // The writer ends every file with a table the verifier checks, so this
  // holds for any graph; try the larger test graph too.
  Expected<std::vector<uint8_t>> tiny = WriteOpug(test::MakeTinyGraph());
  REQUIRE(tiny.ok());
  for (const std::vector<uint8_t>& model : {SmallModel(), *tiny}) {
    const test::Outcomes outcomes = test::ReadTruncations(model, ReadsAGraph);
    CHECK(outcomes.errors == static_cast<int>(model.size()));
    CHECK(outcomes.graphs == 0);
  }
}

}  // namespace
}  // namespace opuc
