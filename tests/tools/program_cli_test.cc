// `opuc compile`, `run` on a program, `verify` and `disasm` as a user runs
// them, on the bundled example calibrated on .npy samples: exit codes,
// what each prints, and the named errors for broken programs.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/sha256.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;

/// Compiles the example for `hw` into a temporary program; its path.
std::string CompileExample(const std::string& hw, const std::string& samples,
                           const std::string& extra = "") {
  const std::string program = TempPath(hw + ".opup");
  Run run = Opuc(std::string("compile ") + OPUC_EXAMPLE_MODEL + " -o " + program + " --hw " + hw +
                 " --calibration " + samples + extra);
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(run.out.find(" -> " + program + " (") != std::string::npos);
  CHECK(run.out.find("2 calibration samples") != std::string::npos);
  CHECK(run.err.empty());  // progress only on a terminal
  return program;
}

TEST_CASE("opuc compile, verify, run and disasm on the example") {
  const std::string samples = SampleDir("program_samples", 2);
  for (const std::string hw : {"tiny", "opu1024"}) {
    CAPTURE(hw);
    const std::string report = TempPath("report.json");
    // One thread on tiny: the source's SHA-256 (checked below) is then made
    // in line; on opu1024 on a thread of its own while the compile runs.
    const std::string program = CompileExample(
        hw, samples, " --report " + report + (std::string(hw) == "tiny" ? " --threads 1" : ""));
    const auto json = nlohmann::json::parse(ReadFile(report));
    CHECK(json["hw"] == hw);
    CHECK(json["opu_steps"].get<int>() > 0);
    int opu = 0, cycles = 0;
    for (const auto& g : json["groups"]) {
      if (g["step"] != "opu" || g.contains("in_step_of")) continue;  // a run's groups before
      ++opu;
      CHECK(g["words"].get<int>() > 0);
      cycles += g["estimated_cycles"].get<int>();
    }
    CHECK(opu == json["opu_steps"].get<int>());
    CHECK(cycles == json["estimated_cycles"].get<int>());

    Run verify = Opuc("verify " + program + " --seed 3");
    CHECK(verify.exit_code == 0);
    CHECK(verify.out.find(": ref,fsim agree bit for bit on all") != std::string::npos);
    Run verify_json = Opuc("verify " + program + " --json");
    CHECK(nlohmann::json::parse(verify_json.out)["agree"] == true);

    // Both devices write the same outputs.
    const std::string a = TempPath("out_ref"), b = TempPath("out_fsim");
    REQUIRE(Opuc("run " + program + " --device ref --output-dir " + a).exit_code == 0);
    REQUIRE(Opuc("run " + program + " --device fsim --output-dir " + b).exit_code == 0);
    CHECK(ReadFile(a + "/head.npy") == ReadFile(b + "/head.npy"));
    CHECK(ReadFile(a + "/head.npy").size() > 128);
#ifdef OPUC_HAVE_RTL
    // The RTL writes them too, and counts its cycles: at least one a Gemm
    // issue, and a run of the estimator's order (within a factor of 2).
    const std::string r = TempPath("out_rtl");
    Run rtl = Opuc("run " + program + " --device rtl --json --output-dir " + r);
    REQUIRE(rtl.exit_code == 0);
    CHECK(ReadFile(a + "/head.npy") == ReadFile(r + "/head.npy"));
    const auto counted = nlohmann::json::parse(rtl.out)["cycles"];
    CHECK(counted["opu_steps"] == json["opu_steps"]);
    CHECK(counted["estimated"] == json["estimated_cycles"]);
    const int64_t measured = counted["measured"].get<int64_t>();
    CHECK(measured > cycles / 2);
    CHECK(measured < cycles * 2);
    Run text = Opuc("run " + program + " --device rtl --output-dir " + r);
    CHECK(text.out.find("rtl: " + std::to_string(measured) + " cycles over ") != std::string::npos);
    // A waveform per OPU step; only the RTL has signals to trace.
    const std::string trace_dir = TempPath("traces");
    std::filesystem::create_directories(trace_dir);
    REQUIRE(
        Opuc("run " + program + " --device rtl --trace " + trace_dir + "/run.fst --output-dir " + r)
            .exit_code == 0);
    int traces = 0;
    for (const auto& entry : std::filesystem::directory_iterator(trace_dir))
      traces += entry.path().extension() == ".fst";
    CHECK(traces == json["opu_steps"].get<int>());
    std::filesystem::remove_all(trace_dir);
    // --trace-step: only the steps asked for (the first OPU step is step 1).
    std::filesystem::create_directories(trace_dir);
    REQUIRE(Opuc("run " + program + " --device rtl --trace " + trace_dir +
                 "/run.fst --trace-step 1 --output-dir " + r)
                .exit_code == 0);
    std::vector<std::string> traced;
    for (const auto& entry : std::filesystem::directory_iterator(trace_dir))
      traced.push_back(entry.path().filename().string());
    CHECK(traced == std::vector<std::string>{"run.step1.fst"});
    std::filesystem::remove_all(trace_dir);
    CHECK(Opuc("run " + program + " --device rtl --trace-step 1 --output-dir " + r).exit_code == 2);
    Run untraced = Opuc("run " + program + " --device fsim --trace x.fst --output-dir " + r);
    CHECK(untraced.exit_code == 2);
    CHECK(untraced.err ==
          "opuc: error: --trace: device 'fsim' has no signals to trace (rtl has)\n");
    Run three = Opuc("verify " + program + " --devices ref,fsim,rtl");
    CHECK(three.exit_code == 0);
    CHECK(three.out.find(": ref,fsim,rtl agree bit for bit on all") != std::string::npos);
    std::filesystem::remove_all(r);
#endif

    Run disasm = Opuc("disasm " + program);
    CHECK(disasm.exit_code == 0);
    CHECK(disasm.out.find("built by opuc 0.1.0 for " + hw + " from tiny_cnn.opug") !=
          std::string::npos);
    const std::string source = ReadFile(OPUC_EXAMPLE_MODEL);
    CHECK(disasm.out.find("(sha256 " + opuc::Sha256Hex(source.data(), source.size()) + ")") !=
          std::string::npos);
    CHECK(disasm.out.find("  OPU  group ") != std::string::npos);
    CHECK(disasm.out.find(": load buffer=") != std::string::npos);
    CHECK(disasm.out.find(": store acc_addr=") != std::string::npos);
    for (const std::string& dir : {a, b}) std::filesystem::remove_all(dir);
    std::remove(report.c_str());
    std::remove(program.c_str());
  }
  std::filesystem::remove_all(samples);
}

TEST_CASE("opuc verify and run refuse a broken program with exit 2 and its cause") {
  const std::string samples = SampleDir("program_broken_samples", 2);
  const std::string program = CompileExample("tiny", samples);
  const std::string bytes = ReadFile(program);
  const std::string broken = TempPath("broken.opup");

  WriteFile(broken, bytes.substr(0, bytes.size() / 2));
  Run truncated = Opuc("verify " + broken);
  CHECK(truncated.exit_code == 2);
  CHECK(truncated.err.rfind("opuc: error: " + broken + ": FlatBuffers verification failed in ",
                            0) == 0);
  CHECK(CountLines(truncated.err) == 1);
  Run run = Opuc("run " + broken + " --device fsim");
  CHECK(run.exit_code == 2);
  CHECK(CountLines(run.err) == 1);

  WriteFile(broken, ReadFile(OPUC_EXAMPLE_MODEL));
  Run graph = Opuc("disasm " + broken);
  CHECK(graph.exit_code == 2);
  CHECK(graph.err.find("expected \"OPUP\" (not a .opup program)") != std::string::npos);

  Run device = Opuc("verify " + program + " --devices ref,gpu");
  CHECK(device.exit_code == 2);
#ifdef OPUC_HAVE_RTL
  const char* known = "ref, fsim, cpu, rtl";  // the command line registers the RTL device
#else
  const char* known = "ref, fsim, cpu";
#endif
  CHECK(device.err ==
        std::string("opuc: error: --devices: device 'gpu' is unknown (devices: ") + known + ")\n");
  Run missing = Opuc("verify " + TempPath("nowhere.opup"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("nowhere.opup: cannot open: No such file or directory") !=
        std::string::npos);
  Run uncalibrated = Opuc(std::string("compile ") + OPUC_EXAMPLE_MODEL + " -o " + broken +
                          " --calibration " + TempPath("no_samples"));
  CHECK(uncalibrated.exit_code == 2);
  CHECK(CountLines(uncalibrated.err) == 1);
  for (const std::string& f : {broken, program}) std::remove(f.c_str());
  std::filesystem::remove_all(samples);
}

}  // namespace
