// `opuc quantize` as a user runs it, on the bundled example with .npy
// calibration samples (the report's numbers come from the library, which
// tests/quant checks; here: the split, the JSON shape, files and errors).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "opuc/ir/graph_builder.h"
#include "opuc/opug/opug.h"
#include "opuc/tensor_io/npy.h"
#include "opuc/tensor_io/random_input.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;

TEST_CASE("opuc quantize --json: held-out split, one entry per output, the quantized graph") {
  const std::string dir = SampleDir("quantize_json", 3);
  const std::string out = dir + "/q.opug";
  Run run = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + dir +
                 " --json -o " + out);
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  // 3 samples, a third held out: s0 (every 3rd from the first).
  CHECK(json["calibration_images"] == 2);
  CHECK(json["evaluation_images"] == 1);
  CHECK(json["evaluation_files"] == nlohmann::json::parse(R"(["s0.npy"])"));
  REQUIRE(json["outputs"].size() == 1);
  CHECK(json["outputs"][0]["name"] == "head");
  for (const char* key : {"sqnr_db", "cosine", "max_abs_error"})
    CHECK(json["outputs"][0][key].is_number());
  // The written graph: float ends around integer nodes (docs/quantization.md).
  Run inspect = Opuc("inspect --json " + out);
  REQUIRE(inspect.exit_code == 0);
  const auto ops = nlohmann::json::parse(inspect.out)["operators"];
  CHECK(ops["quantize"] == 1);
  CHECK(ops["dequantize"] == 1);
  CHECK(ops["conv2d"] == 7);
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc quantize --evaluate: calibrate on one folder, report on every sample of another") {
  const std::string calibration = SampleDir("quantize_calibrate", 2);
  const std::string evaluation = SampleDir("quantize_evaluate", 3);
  Run run = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + calibration +
                 " --evaluate " + evaluation + " --json");
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  CHECK(json["calibration_images"] == 2);  // no holdout: both calibrate
  CHECK(json["calibration_files"] == nlohmann::json::parse(R"(["s0.npy", "s1.npy"])"));
  CHECK(json["evaluation_images"] == 3);
  CHECK(json["evaluation_files"] == nlohmann::json::parse(R"(["s0.npy", "s1.npy", "s2.npy"])"));
  CHECK(json["calibration_dir"] == calibration);
  CHECK(json["evaluation_dir"] == evaluation);
  CHECK(json["held_out"] == false);

  Run text = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + calibration +
                  " --evaluate " + evaluation);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("evaluated on  3 samples of " + evaluation + " (s0.npy, s1.npy, s2.npy)") !=
        std::string::npos);

  // A bound that is not a number is a usage error, not a check every SQNR passes.
  Run nan = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + calibration +
                 " --evaluate " + evaluation + " --min-sqnr nan");
  CHECK(nan.exit_code == 2);
  CHECK(nan.err.find("expected a finite number of dB") != std::string::npos);

  // Both ways of choosing the report's samples at once is a usage error.
  CHECK(Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --evaluate " + evaluation +
             " --holdout 1")
            .exit_code == 2);
  Run missing = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " +
                     calibration + " --evaluate " + evaluation + "/nowhere");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find(evaluation + "/nowhere: no such folder") != std::string::npos);
  std::filesystem::remove_all(calibration);
  std::filesystem::remove_all(evaluation);
}

TEST_CASE("opuc quantize --refine-lengths refines, without it no length moves") {
  // The graph of tests/quant's "refine_lengths trades a length" case:
  // y = x · [100, 0] on x = [0.28, 5.0], where refinement moves y's length
  // one step finer. Three copies of the sample: two calibrate, one reports.
  const std::string dir = TempPath("quantize_refine");
  std::filesystem::create_directories(dir);
  opuc::GraphBuilder b("refine");
  opuc::TensorId x = b.Input("x", opuc::DType::kF32, {1, 2});
  b.Output(b.Op(opuc::OpKind::kMul, "y", {x, b.ConstantF32("c", {2}, {100.0f, 0.0f})}));
  opuc::Expected<opuc::Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  REQUIRE(opuc::SaveOpugFile(*graph, dir + "/m.opug").ok());
  const std::vector<float> sample = {0.28f, 5.0f};
  for (const char* name : {"s0.npy", "s1.npy", "s2.npy"})
    REQUIRE(
        opuc::WriteNpy(dir + "/" + name,
                       opuc::HostTensor::Copy(opuc::DType::kF32, {1, 2}, sample.data(), 8).value())
            .ok());
  const std::string command = "quantize " + dir + "/m.opug --calibration " + dir + " --json";
  Run plain = Opuc(command);
  REQUIRE(plain.exit_code == 0);
  CHECK(nlohmann::json::parse(plain.out)["refined_groups"] == 0);
  Run refined = Opuc(command + " --refine-lengths");
  REQUIRE(refined.exit_code == 0);
  const auto json = nlohmann::json::parse(refined.out);
  CHECK(json["refined_groups"] == 1);
  // y: 25 → 24 at step 4 (error 4), refined 25 → 26 at step 2 (error 2).
  CHECK(nlohmann::json::parse(plain.out)["outputs"][0]["max_abs_error"] == doctest::Approx(4.0));
  CHECK(json["outputs"][0]["max_abs_error"] == doctest::Approx(2.0));
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc quantize --wide-weights: the layers split in the report, and refused in int8") {
  const std::string dir = SampleDir("quantize_wide", 3);
  Run run = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + dir +
                 " --precision int16 --wide-weights --json");
  REQUIRE(run.exit_code == 0);
  const auto precision = nlohmann::json::parse(run.out)["precision"];
  CHECK(precision["wide_weight_layers"] == 7);  // the example's seven convs
  CHECK(precision["setting"] == "int16");
  for (const char* key : {"u8", "i8", "i16", "extra_mac_passes_percent"})
    CHECK(precision[key].is_number());
  Run refused = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + dir +
                     " --wide-weights");
  CHECK(refused.exit_code == 2);
  CHECK(CountLines(refused.err) == 1);
  CHECK(refused.err.find("precision mixed or int16") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc quantize --min-sqnr fails with 1 naming the output") {
  const std::string dir = SampleDir("quantize_min", 2);
  Run run = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + dir +
                 " --min-sqnr 1000");
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("output 'head' has SQNR") != std::string::npos);
  CHECK(run.err.find("below --min-sqnr 1000") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc quantize errors exit 2 with one line naming the folder") {
  Run missing =
      Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration /nonexistent/dir");
  CHECK(missing.exit_code == 2);
  CHECK(CountLines(missing.err) == 1);
  CHECK(missing.err.find("/nonexistent/dir") != std::string::npos);
  const std::string one = SampleDir("quantize_one", 1);
  Run few = Opuc(std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + one);
  CHECK(few.exit_code == 2);
  CHECK(few.err.find(": 1 samples; at least 2 are needed") != std::string::npos);
  std::filesystem::remove_all(one);
}

}  // namespace
