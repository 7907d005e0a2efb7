// ReadTfliteOperators: a model's operator list, verified, without an import;
// the operators opuc has no converter for are named.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "frontend/tflite_builder.h"
#include "opuc/frontend/tflite.h"

namespace opuc {
namespace {

TEST_CASE("ReadTfliteOperators counts every operator and names the unknown ones") {
  const std::vector<uint8_t> bytes = test::ModelWithUnknownOps();
  Expected<TfliteOperators> ops = ReadTfliteOperators(bytes.data(), bytes.size(), "m.tflite");
  REQUIRE_MESSAGE(ops.ok(), ops.status().ToString());
  CHECK(ops->counts == std::map<std::string, int>{
                           {"CUSTOM:Landmarks2TransformMatrix", 1}, {"RELU", 2}, {"SQUEEZE", 1}});
  CHECK(ops->unsupported ==
        std::vector<std::string>{"CUSTOM:Landmarks2TransformMatrix", "SQUEEZE"});
  // The import itself still refuses the model, naming the first unknown operator.
  Expected<TfliteImport> import = ReadTflite(bytes, "m.tflite");
  REQUIRE_FALSE(import.ok());
  CHECK(import.status().message().find("operator 1 (CUSTOM:Landmarks2TransformMatrix)") !=
        std::string::npos);
}

TEST_CASE("ReadTfliteOperators verifies the buffer first") {
  std::vector<uint8_t> bytes = test::ModelWithUnknownOps();
  bytes.resize(bytes.size() / 2);
  Expected<TfliteOperators> ops = ReadTfliteOperators(bytes.data(), bytes.size(), "m.tflite");
  REQUIRE_FALSE(ops.ok());
  CHECK(ops.status().message().rfind("m.tflite: ", 0) == 0);
}

}  // namespace
}  // namespace opuc
