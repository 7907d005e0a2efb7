// `opuc inspect` on a model opuc cannot import: the operators are still shown,
// the unknown ones marked, exit 0; the commands that need the graph exit 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "frontend/tflite_builder.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;
/// tflite_builder's ModelWithUnknownOps, as a file.
std::string ModelWithCustomOp() {
  const std::vector<uint8_t> bytes = opuc::test::ModelWithUnknownOps();
  const std::string path = TempPath("custom_op.tflite");
  WriteFile(path, std::string(bytes.begin(), bytes.end()));
  return path;
}

TEST_CASE("opuc inspect lists a model's unknown operators and exits 0") {
  const std::string model = ModelWithCustomOp();
  Run text = Opuc("inspect " + model);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("not imported: ") != std::string::npos);
  CHECK(text.out.find("  CUSTOM:Landmarks2TransformMatrix 1  (opuc cannot import it)\n") !=
        std::string::npos);
  CHECK(text.out.find("  RELU                     2\n") != std::string::npos);

  Run json_run = Opuc("inspect --json " + model);
  REQUIRE(json_run.exit_code == 0);
  const auto json = nlohmann::json::parse(json_run.out);
  CHECK(json["format"] == "tflite");
  CHECK(json["imported"] == false);
  CHECK(json["operators"] ==
        nlohmann::json{{"CUSTOM:Landmarks2TransformMatrix", 1}, {"RELU", 2}, {"SQUEEZE", 1}});
  CHECK(json["unsupported"] ==
        nlohmann::json::array({"CUSTOM:Landmarks2TransformMatrix", "SQUEEZE"}));

  for (const std::string command : {"run --device ref", "opt", "partition", "quantize"}) {
    CAPTURE(command);
    Run refused = Opuc(command + " " + model);
    CHECK(refused.exit_code == 2);
    CHECK(CountLines(refused.err) == 1);
    CHECK(refused.err.find("custom operator 'Landmarks2TransformMatrix' is unknown") !=
          std::string::npos);
  }
  std::filesystem::remove(model);
}

TEST_CASE("opuc inspect on a model it imports says nothing is unsupported") {
  Run run = Opuc(std::string("inspect --json ") + OPUC_EXAMPLE_MODEL);
  REQUIRE(run.exit_code == 0);
  CHECK(nlohmann::json::parse(run.out)["unsupported"] == nlohmann::json::array());
}

}  // namespace
