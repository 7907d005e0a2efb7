//===- tests/tools/output_cli_test.cc - What opuc writes, from hostile names ===//
//
// Issue 50's second round: names that are not UTF-8 or hold control bytes
// (from a model's tensors), outputs that are one of the inputs, outputs
// that cannot be written, long names and spreadsheet formulas. Every JSON
// output parses, every text output shows control bytes as \xNN, no input
// is destroyed, and a write that fails is exit 2 naming the output.
//
//===----------------------------------------------------------------------===//
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"
#include "frontend/tflite_builder.h"
#include "opuc/program/program.h"

namespace opuc::cli_test {
namespace {

namespace tfl = opuc::test::tfl;
using Json = nlohmann::json;

/// A 3x3 convolution (3 -> 4 channels) and a relu on a 32x32x3 input (the
/// samples of SampleDir): the conv compiles to an OPU step, so its output's
/// name reaches programs, reports and disassembly.
std::string ConvModel(const std::string& input, const std::string& conv, const std::string& out) {
  test::TfliteBuilder b;
  const int32_t x = b.Input(input, {1, 32, 32, 3});
  std::vector<float> weights(4 * 3 * 3 * 3);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 7) / 7.0f - 0.4f;
  const int32_t w = b.Float("w", {4, 3, 3, 3}, weights);
  const int32_t bias = b.Float("b", {4}, {0.1f, -0.2f, 0.3f, 0.0f});
  const int32_t c = b.Tensor(conv, {1, 32, 32, 4});
  const int32_t y = b.Tensor(out, {1, 32, 32, 4});
  b.Op(tfl::BuiltinOperator::CONV_2D, {x, w, bias}, {c}, b.Conv2D(tfl::Padding::SAME, 1, 1));
  b.Op(tfl::BuiltinOperator::RELU, {c}, {y});
  b.Output(y);
  const std::vector<uint8_t> bytes = b.Finish();
  const std::string path = TempPath(out.size() > 64 ? "long.tflite" : "names.tflite");
  WriteFile(path, std::string(bytes.begin(), bytes.end()));
  return path;
}

bool HasControlBytes(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) return true;
  }
  return false;
}

/// Parses as JSON, which nlohmann refuses when a string is not UTF-8.
void CheckJson(const std::string& text) {
  CAPTURE(text.substr(0, 300));
  CHECK(Json::accept(text));
  CHECK(text.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD for the bad bytes
}

/// `opuc args` with its stdout on /dev/full: every write fails.
Run OpucToFullDisk(const std::string& args) {
  const std::string err = TempPath("full_stderr");
  const int status =
      std::system((std::string(OPUC_CLI_PATH) + " " + args + " >/dev/full 2>" + err).c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = ReadFile(err);
  return run;
}

std::string Compile(const std::string& model, const std::string& name) {
  const std::string program = TempPath(name);
  Run run = Opuc("compile " + model + " -o " + program + " --hw tiny --calibration " +
                 SampleDir("output_samples", 2));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return program;
}

TEST_CASE("names that are not UTF-8: every JSON output parses, with U+FFFD") {
  const std::string model = ConvModel("in\xff\xfe", "conv\xc3", "out\xff");
  const std::string samples = SampleDir("utf8_samples", 2);
  for (const std::string& args :
       {"inspect " + model + " --json", "partition " + model + " --hw tiny --json",
        "run " + model + " --device ref --json --output-dir " + TempPath("utf8_out"),
        "quantize " + model + " --json --calibration " + samples}) {
    CAPTURE(args);
    Run run = Opuc(args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CheckJson(run.out);
  }
  const std::string report = TempPath("utf8_report.json"), program = TempPath("utf8.opup");
  Run compiled = Opuc("compile " + model + " -o " + program + " --hw tiny --calibration " +
                      samples + " --report " + report);
  REQUIRE_MESSAGE(compiled.exit_code == 0, compiled.err);
  CHECK(Json::accept(ReadFile(report)));
  for (const char* device : {"fsim", "cpu"}) {
    Run run = Opuc("run " + program + " --device " + device + " --json --output-dir " +
                   TempPath("utf8_out"));
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CheckJson(run.out);
  }
  const std::string graph = TempPath("utf8.opug.json");
  REQUIRE(Opuc("opt " + model + " -o " + graph).exit_code == 0);
  CheckJson(ReadFile(graph));
  // An output folder whose name is not UTF-8: the file names in the JSON.
  Run run =
      Opuc("run " + program + " --device fsim --json --output-dir '" + TempPath("dir\xff") + "'");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CheckJson(run.out);
}

TEST_CASE("control bytes in names reach no terminal: every text output shows \\xNN") {
  const std::string model = ConvModel("in\x1b[31m", "conv\r\x01", "out\x1b]0;title\x07");
  const std::string program = Compile(model, "control.opup");
  const std::string samples = SampleDir("control_samples", 2);
  for (const std::string& args :
       {"inspect " + model, "partition " + model + " --hw tiny",
        "quantize " + model + " --calibration " + samples + " --per-tensor",
        "run " + model + " --device ref --output-dir " + TempPath("control_out"),
        "disasm " + program, "report " + program, "verify " + program}) {
    CAPTURE(args);
    Run run = Opuc(args);
    CHECK_MESSAGE(run.exit_code == 0, run.err);
    CHECK(!HasControlBytes(run.out));
    CHECK(!HasControlBytes(run.err));
  }
  Run run = Opuc("inspect " + model);
  CHECK(run.out.find("in\\x1b[31m") != std::string::npos);
  // JSON escapes them itself (\u001b), DEL included (found by the probe:
  // JSON may hold a raw DEL, which the terminal filter turned into "\x7f").
  const std::string deleted = ConvModel("in\x7f\x08", "c", "out\x7f");
  for (const std::string& args :
       {"inspect " + deleted + " --json", "partition " + deleted + " --hw tiny --json",
        "run " + deleted + " --device ref --json --output-dir " + TempPath("control_out")}) {
    CAPTURE(args);
    Run json = Opuc(args);
    CHECK_MESSAGE(json.exit_code == 0, json.err);
    CHECK(Json::accept(json.out));
    CHECK(!HasControlBytes(json.out));
  }
}

TEST_CASE("an output that is one of the inputs is refused, and the input kept") {
  const std::string model = ConvModel("x", "c", "y");
  const std::string original = ReadFile(model);
  const std::string program = Compile(model, "same.opup");
  const std::string compiled = ReadFile(program);
  const std::string profile = TempPath("same.profile.json");
  REQUIRE(Opuc("run " + program + " --device fsim --profile " + profile + " --output-dir " +
               TempPath("same_out"))
              .exit_code == 0);
  const std::string samples = SampleDir("same_samples", 2);
  const std::string graph = TempPath("same.opug");
  REQUIRE(Opuc("opt " + model + " -o " + graph).exit_code == 0);
  const std::string graph_bytes = ReadFile(graph);
  struct Case {
    std::string args, input, bytes;
  };
  for (const Case& c : std::vector<Case>{
           {"compile " + graph + " -o " + graph + " --hw tiny --calibration " + samples, graph,
            graph_bytes},
           {"compile " + model + " -o " + TempPath("other.opup") + " --hw tiny --calibration " +
                samples + " --report " + model,
            model, original},
           {"opt " + model + " -o " + model, model, original},
           {"report " + program + " --html " + program, program, compiled},
           {"report " + program + " --csv " + program, program, compiled},
           {"report " + program + " --profile " + profile + " --csv " + profile, profile,
            ReadFile(profile)},
           {"run " + program + " --device fsim --profile " + program + " --output-dir " +
                TempPath("same_out"),
            program, compiled},
       }) {
    CAPTURE(c.args);
    Run run = Opuc(c.args);
    CHECK(run.exit_code == 2);
    CHECK_MESSAGE(run.err.find(": is the input ") != std::string::npos, run.err);
    CHECK(ReadFile(c.input) == c.bytes);
  }
}

TEST_CASE("a write that fails is exit 2 naming the output, and leaves nothing behind") {
  const std::string model = ConvModel("x", "c", "y");
  const std::string program = Compile(model, "full.opup");
  for (const std::string& args :
       {"inspect " + model, "inspect " + model + " --json", "disasm " + program,
        "report " + program, "verify " + program, "partition " + model + " --hw tiny"}) {
    CAPTURE(args);
    Run run = OpucToFullDisk(args);
    CHECK(run.exit_code == 2);
    CHECK_MESSAGE(run.err.find("opuc: error: standard output: cannot write") == 0, run.err);
  }
  Run dot = Opuc("partition " + model + " --hw tiny --dot /dev/full");
  CHECK(dot.exit_code == 2);
  CHECK_MESSAGE(dot.err.find("opuc: error: /dev/full: cannot write") == 0, dot.err);

  // Written beside and renamed: an existing file keeps its mode, and no
  // temporary file is left in the folder, whether the write worked or not.
  const std::string folder = TempPath("atomic");
  std::filesystem::create_directories(folder);
  const std::string out = folder + "/p.opup";
  WriteFile(out, "old");
  REQUIRE(::chmod(out.c_str(), 0640) == 0);
  REQUIRE(Opuc("compile " + model + " -o " + out + " --hw tiny --calibration " +
               SampleDir("atomic_samples", 2))
              .exit_code == 0);
  CHECK(ReadFile(out) == ReadFile(program));
  struct stat info;
  REQUIRE(::stat(out.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);
  CHECK(Opuc("compile " + model + " -o " + folder + "/missing/p.opup --hw tiny --calibration " +
             SampleDir("atomic_samples", 2))
            .exit_code == 2);
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++files;
  CHECK(files == 1);
}

TEST_CASE("long names: output files shortened and unique, messages cut") {
  const std::string long_name(100000, 'n');
  const std::string model = ConvModel("x", "c", long_name);
  const std::string out = TempPath("long_out");
  Run run = Opuc("run " + model + " --device ref --output-dir " + out);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err.substr(0, 500));
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    ++files;
    CHECK(entry.path().filename().string().size() <= 124);  // 120 and ".npy"
  }
  CHECK(files == 1);
  Run error = Opuc("run " + model + " --device ref --output-dir " + std::string(100000, 'd'));
  CHECK(error.exit_code == 2);
  CHECK(error.err.size() < 3000);
  CHECK(CountLines(error.err) == 1);
}

TEST_CASE("CSV cells that a spreadsheet would take for formulas are quoted") {
  const std::string model = ConvModel("x", "=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)");
  const std::string program = Compile(model, "csv.opup");
  const std::string csv = TempPath("steps.csv");
  Run run = Opuc("report " + program + " --csv " + csv);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const std::string text = ReadFile(csv);
  CAPTURE(text);
  CHECK(text.find(",=") == std::string::npos);
  CHECK(text.find(",@") == std::string::npos);
  CHECK(text.find(",\"=") == std::string::npos);
  CHECK(text.find("'@SUM(A1)") != std::string::npos);
}

TEST_CASE("a program whose result would depend on timing is refused by every device and verify") {
  const std::string program = Compile(ConvModel("x", "c", "y"), "racy.opup");
  std::string bytes = ReadFile(program);
  // Where the first OPU step's words lie in the file: read in place from an
  // aligned copy, as a loaded file is.
  auto owner =
      std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size()],
                               [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
  std::memcpy(owner.get(), bytes.data(), bytes.size());
  Expected<Program> read = ReadProgram(owner, owner.get(), bytes.size(), "racy.opup");
  REQUIRE_MESSAGE(read.ok(), read.status().ToString());
  const ProgramStep* step = nullptr;
  for (const ProgramStep& s : read->steps())
    if (s.kind == StepKind::kOpu && step == nullptr) step = &s;
  REQUIRE(step != nullptr);
  const size_t words = static_cast<size_t>(step->words - owner.get());
  // The first token from the load engine taken away, its push and its pop
  // (bits 7 and 4 of a word's first byte): the first Gemm may then read
  // rows before or after the loads that fill them.
  bool pushed = false, popped = false;
  for (size_t i = 0; i < step->word_count; ++i) {
    const isa::Instruction insn = isa::Decode(step->word(i)).value();
    const isa::Deps& deps = isa::DepsOf(insn);
    const isa::Engine engine = isa::EngineOf(insn);
    char& first = bytes[words + 16 * i];
    if (!pushed && engine == isa::Engine::kLoad && deps.push_next) {
      first = static_cast<char>(static_cast<unsigned char>(first) & ~0x80u);
      pushed = true;
    } else if (!popped && engine == isa::Engine::kCompute && deps.pop_prev) {
      first = static_cast<char>(static_cast<unsigned char>(first) & ~0x10u);
      popped = true;
    }
  }
  REQUIRE((pushed && popped));
  const std::string racy = TempPath("racy_bad.opup");
  WriteFile(racy, bytes);
  std::vector<std::string> commands = {"verify " + racy};
  for (const char* device : {"ref", "cpu", "fsim"})
    commands.push_back("run " + racy + " --device " + device + " --output-dir " +
                       TempPath("racy_out"));
#ifdef OPUC_HAVE_RTL
  commands.push_back("run " + racy + " --device rtl --output-dir " + TempPath("racy_out"));
#endif
  for (const std::string& args : commands) {
    CAPTURE(args);
    Run run = Opuc(args);
    CHECK(run.exit_code == 2);
    CHECK_MESSAGE(run.err.find("(Gemm) reads ") != std::string::npos, run.err);
    CHECK_MESSAGE(
        run.err.find("(Load) writes, with no token ordering the two") != std::string::npos,
        run.err);
  }
}

}  // namespace
}  // namespace opuc::cli_test
