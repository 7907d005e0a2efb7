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

using Op = test::tfl::BuiltinOperator;

/// relu -> CUSTOM:Landmarks2TransformMatrix -> relu -> SQUEEZE.
std::vector<uint8_t> ModelWithUnknownOps() {
  test::TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t y = b.Tensor("y", {2});
  const int32_t z = b.Tensor("z", {2});
  const int32_t w = b.Tensor("w", {2});
  const int32_t v = b.Tensor("v", {2});
  b.Op(Op::RELU, {x}, {y});
  b.Custom("Landmarks2TransformMatrix", {y}, {z}, {});
  b.Op(Op::RELU, {z}, {w});
  b.Op(Op::SQUEEZE, {w}, {v});
  b.Output(v);
  return b.Finish();
}

TEST_CASE("ReadTfliteOperators counts every operator and names the unknown ones") {
  const std::vector<uint8_t> bytes = ModelWithUnknownOps();
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
  std::vector<uint8_t> bytes = ModelWithUnknownOps();
  bytes.resize(bytes.size() / 2);
  Expected<TfliteOperators> ops = ReadTfliteOperators(bytes.data(), bytes.size(), "m.tflite");
  REQUIRE_FALSE(ops.ok());
  CHECK(ops.status().message().rfind("m.tflite: ", 0) == 0);
}

}  // namespace
}  // namespace opuc
