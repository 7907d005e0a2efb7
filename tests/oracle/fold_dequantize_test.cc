// FoldDequantize on real models: the DEQUANTIZE counts of environment.md §3,
// and the folded copy computes exactly what the original computes (float16
// to float32 is exact, so opuc's reference gives identical bits).
#include "oracle/fold_dequantize.h"

#include <doctest/doctest.h>

#include <cstring>

#include "frontend/model_cache.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/tflite.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

TfliteImport Import(const std::vector<uint8_t>& bytes, const std::string& name) {
  Expected<TfliteImport> imported = ReadTflite(bytes, name);
  REQUIRE_MESSAGE(imported.ok(), imported.status().ToString());
  return std::move(imported).value();
}

TEST_CASE("the oracle's models lose every DEQUANTIZE") {
  struct Count {
    const char* model;
    int dequantize;  // environment.md §3
  };
  for (const Count& c : {Count{"face_detection_short_range", 74}, Count{"hand_landmark_lite", 102},
                         Count{"hand_landmark_full", 102}}) {
    CAPTURE(c.model);
    const std::string file = std::string(c.model) + ".tflite";
    Expected<oracle::FoldedModel> folded = oracle::FoldDequantize(test::ReadModel(file), file);
    REQUIRE_MESSAGE(folded.ok(), folded.status().ToString());
    CHECK(folded->folded == c.dequantize);
    const TfliteImport imported = Import(folded->bytes, file);
    CHECK(imported.source_operators.count("DEQUANTIZE") == 0);
    const TfliteImport original = Import(test::ReadModel(file), file);
    std::map<std::string, int> expected = original.source_operators;
    expected.erase("DEQUANTIZE");
    CHECK(imported.source_operators == expected);
  }
}

TEST_CASE("the folded face detector computes the same bits") {
  const std::string file = "face_detection_short_range.tflite";
  const std::vector<uint8_t> bytes = test::ReadModel(file);
  Expected<oracle::FoldedModel> folded = oracle::FoldDequantize(bytes, file);
  REQUIRE(folded.ok());
  const Graph original = Import(bytes, file).graph;
  const Graph copy = Import(folded->bytes, file).graph;
  Expected<std::vector<HostTensor>> inputs = RandomInputs(original, 7);
  REQUIRE(inputs.ok());
  Expected<std::vector<HostTensor>> a = RunReference(original, *inputs);
  Expected<std::vector<HostTensor>> b = RunReference(copy, *inputs);
  REQUIRE_MESSAGE(a.ok(), a.status().ToString());
  REQUIRE_MESSAGE(b.ok(), b.status().ToString());
  REQUIRE(a->size() == b->size());
  for (size_t i = 0; i < a->size(); ++i) {
    REQUIRE((*a)[i].type() == (*b)[i].type());
    CHECK(std::memcmp((*a)[i].raw(), (*b)[i].raw(), (*a)[i].bytes()) == 0);
  }
}

TEST_CASE("a corrupted model is an error naming it") {
  std::vector<uint8_t> bytes = test::ReadModel("face_detection_short_range.tflite");
  bytes.resize(bytes.size() / 2);
  Expected<oracle::FoldedModel> folded = oracle::FoldDequantize(bytes, "half.tflite");
  REQUIRE_FALSE(folded.ok());
  CHECK(folded.status().message() == "half.tflite: not a valid TFLite FlatBuffer");
}

}  // namespace
}  // namespace opuc
