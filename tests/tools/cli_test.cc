// Tests of the `opuc` command line, run as a user would: a child process,
// its exit code, its stdout and its stderr.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;

TEST_CASE("opuc --version names the version") {
  Run run = Opuc("--version");
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("opuc 0.1.0", 0) == 0);
}

TEST_CASE("opuc inspect --json reports the example's contents exactly") {
  Run run = Opuc(std::string("inspect --json ") + OPUC_EXAMPLE_MODEL);
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  CHECK(json["format"] == "opug");
  // The network drawn at the top of examples/make_tiny_cnn.cc.
  const nlohmann::json operators = {{"add", 1},        {"concat", 1}, {"conv2d", 7},
                                    {"max_pool2d", 1}, {"relu", 1},   {"resize_nearest", 1}};
  CHECK(json["operators"] == operators);
  CHECK(json["inputs"] ==
        nlohmann::json::parse(R"([{"name": "input", "shape": [1,32,32,3], "dtype": "f32"}])"));
  CHECK(json["outputs"] ==
        nlohmann::json::parse(R"([{"name": "head", "shape": [1,32,32,4], "dtype": "f32"}])"));
  // input + 7 convs x (weights, bias, output) + pool1, res, res_relu, concat, up.
  CHECK(json["tensors"] == 1 + 7 * 3 + 5);
  // Parameters: conv1 3*3*3*12+12 = 336; conv2, conv3, branch_b 3*3*12*12+12 = 1308 each;
  // branch_a 12*12+12 = 156; fuse 24*12+12 = 300; head 3*3*12*4+4 = 436. 5152 floats.
  CHECK(json["constant_bytes"] == (336 + 3 * 1308 + 156 + 300 + 436) * 4);
}

TEST_CASE("opuc inspect prints a readable summary") {
  Run run = Opuc(std::string("inspect ") + OPUC_EXAMPLE_MODEL);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("graph 'tiny_cnn': 12 nodes, 27 tensors, 14 constants") != std::string::npos);
  CHECK(run.out.find("conv2d                   7") != std::string::npos);
}

TEST_CASE("the example generator is deterministic") {
  const std::string a = TempPath("a.opug"), b = TempPath("b.opug");
  REQUIRE(std::system((std::string(OPUC_MAKE_EXAMPLE_PATH) + " " + a).c_str()) == 0);
  REQUIRE(std::system((std::string(OPUC_MAKE_EXAMPLE_PATH) + " " + b).c_str()) == 0);
  CHECK(ReadFile(a) == ReadFile(b));
  CHECK(ReadFile(a) == ReadFile(OPUC_EXAMPLE_MODEL));
}

TEST_CASE("bad input exits 2 with one line naming the file and the cause") {
  SUBCASE("missing file") {
    Run run = Opuc("inspect /nonexistent/model.opug");
    CHECK(run.exit_code == 2);
    CHECK(CountLines(run.err) == 1);
    CHECK(run.err.find("/nonexistent/model.opug") != std::string::npos);
  }
  SUBCASE("truncated model") {
    const std::string path = TempPath("truncated.opug");
    WriteFile(path, ReadFile(OPUC_EXAMPLE_MODEL).substr(0, 200));
    Run run = Opuc("inspect " + path);
    CHECK(run.exit_code == 2);
    CHECK(CountLines(run.err) == 1);
    CHECK(run.err.find(path) != std::string::npos);
  }
  SUBCASE("not a model at all") {
    const std::string path = TempPath("garbage.bin");
    WriteFile(path, std::string("\x01\x02\x03\x04garbage that is no model", 28));
    Run run = Opuc("inspect " + path);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(path) != std::string::npos);
  }
  SUBCASE("unknown op in hand-written JSON") {
    const std::string path = TempPath("bad.opug.json");
    WriteFile(path, R"({"tensors": [{"name": "x", "shape": [1]}, {"name": "y", "shape": [1]}],
                        "nodes": [{"op": "frobnicate", "inputs": [0], "outputs": [1]}],
                        "inputs": [0], "outputs": [1]})");
    Run run = Opuc("inspect " + path);
    CHECK(run.exit_code == 2);
    CHECK(CountLines(run.err) == 1);
    CHECK(run.err.find("frobnicate") != std::string::npos);
  }
  SUBCASE("usage errors") {
    CHECK(Opuc("").exit_code == 2);
    CHECK(Opuc("inspect").exit_code == 2);
    Run unknown = Opuc("frobnicate x");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("unknown command 'frobnicate'") != std::string::npos);
  }
}

}  // namespace

// --- opuc run ---------------------------------------------------------------

#include <filesystem>

#include "opuc/tensor_io/npy.h"

namespace {

TEST_CASE("opuc run --device ref writes head.npy that the .npy reader reads back") {
  const std::string dir = TempPath("run_out");
  Run run =
      Opuc(std::string("run ") + OPUC_EXAMPLE_MODEL + " --device ref --json --output-dir " + dir);
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  REQUIRE(json["outputs"].size() == 1);
  const auto& head = json["outputs"][0];
  CHECK(head["name"] == "head");
  CHECK(head["shape"] == nlohmann::json::parse("[1,32,32,4]"));
  CHECK(head["dtype"] == "f32");
  CHECK(head["file"] == dir + "/head.npy");
  CHECK(head["min"].get<double>() <= head["mean"].get<double>());
  CHECK(head["mean"].get<double>() <= head["max"].get<double>());
  opuc::Expected<opuc::HostTensor> tensor = opuc::ReadNpy(dir + "/head.npy");
  REQUIRE(tensor.ok());
  CHECK(tensor->dtype() == opuc::DType::kF32);
  CHECK(tensor->shape() == opuc::Shape{1, 32, 32, 4});

  // The seeded input makes the run reproducible; another seed changes it.
  const std::string first = ReadFile(dir + "/head.npy");
  REQUIRE(
      Opuc(std::string("run ") + OPUC_EXAMPLE_MODEL + " --device ref --seed 0 --output-dir " + dir)
          .exit_code == 0);
  CHECK(ReadFile(dir + "/head.npy") == first);
  Run text =
      Opuc(std::string("run ") + OPUC_EXAMPLE_MODEL + " --device ref --seed 1 --output-dir " + dir);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.rfind("head ", 0) == 0);
  CHECK(ReadFile(dir + "/head.npy") != first);
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc run --device cpu gives the float reference's outputs within tolerance") {
  const std::string dir = TempPath("run_cpu");
  const std::string run = std::string("run ") + OPUC_EXAMPLE_MODEL + " --seed 3 --output-dir ";
  REQUIRE(Opuc(run + dir + "/ref --device ref").exit_code == 0);
  REQUIRE(Opuc(run + dir + "/cpu --device cpu").exit_code == 0);
  opuc::Expected<opuc::HostTensor> ref = opuc::ReadNpy(dir + "/ref/head.npy");
  opuc::Expected<opuc::HostTensor> cpu = opuc::ReadNpy(dir + "/cpu/head.npy");
  REQUIRE(ref.ok());
  REQUIRE(cpu.ok());
  REQUIRE(cpu->type() == ref->type());
  double lo = 0, hi = 0, worst = 0;
  for (int64_t i = 0; i < ref->elements(); ++i) {
    lo = std::min(lo, ref->ValueAt(i));
    hi = std::max(hi, ref->ValueAt(i));
    worst = std::max(worst, std::abs(cpu->ValueAt(i) - ref->ValueAt(i)));
  }
  CHECK(hi > lo);
  CHECK(worst <= 1e-5 * (hi - lo));
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc run reads inputs from .npy files") {
  const std::string dir = TempPath("run_in");
  std::filesystem::create_directories(dir);
  const std::string good = dir + "/x.npy", wrong = dir + "/wrong.npy";
  REQUIRE(opuc::WriteNpy(good, opuc::HostTensor::Zeros(opuc::DType::kF32, {1, 32, 32, 3}).value())
              .ok());
  REQUIRE(opuc::WriteNpy(wrong, opuc::HostTensor::Zeros(opuc::DType::kF32, {1, 3}).value()).ok());
  const std::string model = std::string(OPUC_EXAMPLE_MODEL);
  CHECK(Opuc("run " + model + " --device ref --input input=" + good + " --output-dir " + dir)
            .exit_code == 0);
  Run mismatch = Opuc("run " + model + " --device ref --input input=" + wrong);
  CHECK(mismatch.exit_code == 2);
  CHECK(CountLines(mismatch.err) == 1);
  CHECK(mismatch.err.find(wrong + ": input 'input' expects f32[1,32,32,3]; the file holds "
                                  "f32[1,3]") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("opuc run usage errors exit 2 with one line") {
  const std::string model = std::string(OPUC_EXAMPLE_MODEL);
  Run unknown = Opuc("run " + model + " --device ref --input foo=x.npy");
  CHECK(unknown.exit_code == 2);
  CHECK(CountLines(unknown.err) == 1);
  CHECK(unknown.err.find("has no input 'foo' (inputs: input)") != std::string::npos);
  Run device = Opuc("run " + model + " --device fsim");
  CHECK(device.exit_code == 2);
  CHECK(device.err ==
        "opuc: error: --device fsim: a model runs on ref (the reference executor) or cpu (the "
        "CPU executor); compile it (opuc compile) to run it on fsim\n");
  Run required = Opuc("run " + model);
  CHECK(required.exit_code == 2);
  CHECK(required.err == "opuc: error: --device is required (see opuc --help)\n");
  Run both = Opuc("opt " + model + " --passes FoldConstant --disable-pass FoldConstant");
  CHECK(both.exit_code == 2);
  CHECK(both.err ==
        "opuc: error: --passes names FoldConstant, which --disable-pass FoldConstant forbids; "
        "give one or the other\n");
  for (const char* seed : {"99999999999999999999999", "-1", "7x"}) {
    Run bad_seed = Opuc("run " + model + " --device ref --seed " + seed);
    CHECK(bad_seed.exit_code == 2);
    CHECK(bad_seed.err ==
          "opuc: error: --seed: expected an integer in [0, 18446744073709551615] "
          "(see opuc --help)\n");
  }
  // CLI11's own errors, even over several lines, become one line with the prefix.
  Run range = Opuc("quantize " + model + " --holdout 0");
  CHECK(range.exit_code == 2);
  CHECK(CountLines(range.err) == 1);
  CHECK(range.err.rfind("opuc: error: --holdout: ", 0) == 0);
  Run missing = Opuc("run " + model + " --device ref --input input=/nonexistent/x.npy");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/nonexistent/x.npy") != std::string::npos);
}

}  // namespace

// --- opuc inspect on .tflite (the TFLite importer) ------------------------

#include "frontend/model_cache.h"

namespace {

using opuc::test::ModelPath;  // fails the test when scripts/fetch-models has not run

TEST_CASE("opuc inspect --json counts a .tflite's operators by their TFLite names") {
  Run run = Opuc("inspect --json " + ModelPath("selfie_segmentation.tflite"));
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  CHECK(json["format"] == "tflite");
  // shared/reference/environment.md §3, selfie_segmentation.
  const nlohmann::json operators = {{"DEQUANTIZE", 110},
                                    {"CONV_2D", 43},
                                    {"RELU", 22},
                                    {"ADD", 14},
                                    {"HARD_SWISH", 11},
                                    {"DEPTHWISE_CONV_2D", 11},
                                    {"LOGISTIC", 11},
                                    {"AVERAGE_POOL_2D", 10},
                                    {"MUL", 10},
                                    {"RESIZE_BILINEAR", 3},
                                    {"CUSTOM:Convolution2DTransposeBias", 1}};
  CHECK(json["operators"] == operators);
  REQUIRE(json["inputs"].size() == 1);
  CHECK(json["inputs"][0]["shape"] == nlohmann::json::parse("[1,256,256,3]"));
  CHECK(json["outputs"][0]["shape"] == nlohmann::json::parse("[1,256,256,1]"));
}

TEST_CASE("a corrupted or truncated .tflite exits 2 with one line naming the cause") {
  const std::string model = ReadFile(ModelPath("face_detection_short_range.tflite"));
  SUBCASE("truncated") {
    const std::string path = TempPath("truncated.tflite");
    WriteFile(path, model.substr(0, model.size() / 2));
    Run run = Opuc("inspect " + path);
    CHECK(run.exit_code == 2);
    CHECK(CountLines(run.err) == 1);
    CHECK(run.err.rfind("opuc: error: " + path + ": FlatBuffers verification failed in ", 0) == 0);
    CHECK(run.err.find("the file is truncated or corrupt") != std::string::npos);
    std::remove(path.c_str());
  }
  SUBCASE("root offset overwritten") {
    const std::string path = TempPath("corrupt.tflite");
    std::string bytes = model;
    bytes[2] = '\x7f';  // the root table now lies far past the end
    WriteFile(path, bytes);
    Run run = Opuc("inspect --json " + path);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.find(path +
                       ": FlatBuffers verification failed in the root offset or the Model table's"
                       " header") != std::string::npos);
    std::remove(path.c_str());
  }
  SUBCASE("identifier changed") {
    const std::string path = TempPath("renamed.tflite");
    std::string bytes = model;
    bytes[7] = '4';
    WriteFile(path, bytes);
    Run run = Opuc("inspect " + path);
    CHECK(run.exit_code == 2);
    CHECK(run.err == "opuc: error: " + path +
                         ": file identifier is \"TFL4\"; expected \"TFL3\""
                         " (not a .tflite file)\n");
    std::remove(path.c_str());
  }
}

}  // namespace
