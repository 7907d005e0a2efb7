// `opuc report` and `opuc run --profile` on the example as a user runs them:
// the report's figures against what other parts counted (the compile
// report's MACs and estimates, the devices' own counts in the profile, the
// cycles `opuc run` printed), its CSV and HTML forms, and the named errors
// for a profile that does not belong to the program.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "frontend/model_cache.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;
using Json = nlohmann::json;

int Count(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

struct Compiled {
  std::string program;
  Json groups;  ///< The compile report's groups, one per step.
};

// A step a group (--no-runs): the report's steps line up with the
// compile report's groups.
Compiled CompileExample(const std::string& samples, bool runs = false) {
  const std::string program = TempPath(runs ? "report_runs.opup" : "report.opup"),
                    report = TempPath("compile.json");
  Run run = Opuc(std::string("compile ") + OPUC_EXAMPLE_MODEL + " -o " + program +
                 " --hw opu1024 --calibration " + samples + " --report " + report +
                 (runs ? "" : " --no-runs"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return {program, Json::parse(ReadFile(report))["groups"]};
}

/// Runs the program on `device` with --profile; the profile's JSON.
Json Profile(const std::string& program, const std::string& device, const std::string& path) {
  Run run = Opuc("run " + program + " --device " + device + " --profile " + path +
                 " --output-dir " + TempPath("report_out"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return Json::parse(ReadFile(path));
}

TEST_CASE("opuc report: per step and in total, against the compile report and a run's counts") {
  const Compiled c = CompileExample(SampleDir("report_samples", 2));
  const std::string profile = TempPath("fsim.profile.json");
  const Json counted = Profile(c.program, "fsim", profile);
  CHECK(counted["device"] == "fsim");

  Run run = Opuc("report " + c.program + " --profile " + profile + " --json");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const Json report = Json::parse(run.out);
  CHECK(report["cycles_from"].is_null());  // fsim has no clock: estimates only
  const Json& steps = report["steps"];
  REQUIRE(steps.size() == c.groups.size());
  int64_t macs = 0, estimated = 0, read = 0, written = 0, physical = 0, mapping = 0;
  size_t opu = 0;
  for (size_t s = 0; s < steps.size(); ++s) {
    CAPTURE(s);
    const Json& step = steps[s];
    CHECK(step["macs"] == c.groups[s]["macs"]);
    CHECK(step["kind"] == c.groups[s]["step"]);
    if (step["kind"] != "opu") continue;
    // What fsim's engines counted for this step, in the order they ran.
    const Json& engines = counted["steps"][opu++];
    CHECK(engines["step"] == s);
    CHECK(step["estimated_cycles"] == c.groups[s]["estimated_cycles"]);
    CHECK(step["dram_bytes_read"] == engines["bytes_loaded"]);
    CHECK(step["dram_bytes_written"] == engines["bytes_stored"]);
    // Per layer the more of its two terms, so a step's bound is at least each sum.
    const Json& bound = step["physical_bound"];
    CHECK(bound["cycles"] >= bound["compute_cycles"]);
    CHECK(bound["cycles"] >= bound["dram_cycles"]);
    CHECK(bound["dram_cycles"] == (bound["dram_bytes"].get<int64_t>() + 63) / 64);  // 64 B a cycle
    CHECK(bound["cycles"] <= step["mapping_bound"]["cycles"]);
    physical += bound["cycles"].get<int64_t>();
    mapping += step["mapping_bound"]["cycles"].get<int64_t>();
    macs += step["macs"].get<int64_t>();
    estimated += step["estimated_cycles"].get<int64_t>();
    read += engines["bytes_loaded"].get<int64_t>();
    written += engines["bytes_stored"].get<int64_t>();
  }
  CHECK(opu == counted["steps"].size());
  const Json& totals = report["totals"];
  CHECK(totals["opu_macs"] == macs);
  CHECK(totals["estimated_cycles"] == estimated);
  CHECK(totals["dram_bytes_read"] == read);
  CHECK(totals["dram_bytes_written"] == written);
  CHECK(totals["physical_bound_cycles"] == physical);
  CHECK(totals["mapping_bound_cycles"] == mapping);
  int64_t classes = 0, class_cycles = 0;
  for (const auto& [name, totals_of] : totals["by_class"].items()) {
    CAPTURE(name);
    classes += totals_of["steps"].get<int64_t>() > 0;
    class_cycles += totals_of["physical_bound"]["cycles"].get<int64_t>();
  }
  CHECK(class_cycles == physical);
  // opu1024: a 64 x 16 array.
  CHECK(report["array_macs_per_cycle"] == 1024);
  CHECK(totals["mac_efficiency"].get<double>() ==
        doctest::Approx(static_cast<double>(macs) / (static_cast<double>(estimated) * 1024)));
  CHECK(totals["milliseconds"].get<double>() ==
        doctest::Approx(static_cast<double>(estimated) / 200e3));  // 200 MHz

  // As runs (docs/codegen.md, "Runs"): fewer steps, the same bounds
  // (summed over each step's groups).
  const Compiled joined = CompileExample(SampleDir("report_samples", 2), true);
  const Json runs = Json::parse(Opuc("report " + joined.program + " --json").out);
  CHECK(runs["steps"].size() < steps.size());
  CHECK(runs["totals"]["physical_bound_cycles"] == physical);
  CHECK(runs["totals"]["opu_macs"] == macs);

  // A program named with bytes that are not UTF-8 still gets its JSON.
  const std::string latin1 = TempPath("report_\xe9.opup");
  WriteFile(latin1, ReadFile(c.program));
  Run odd = Opuc("report '" + latin1 + "' --json");
  REQUIRE(odd.exit_code == 0);
  CHECK(Json::parse(odd.out)["steps"].size() == steps.size());

  Run summary = Opuc("report " + c.program + " --summary");
  CHECK(summary.exit_code == 0);
  // cycles, physical limit, efficiency, a heading and a line per step class, mapping, traffic,
  // share
  CHECK(CountLines(summary.out) == 7 + classes);
  CHECK(summary.out.find("cycles: " + std::to_string(estimated) + " (estimated)") == 0);
  CHECK(summary.out.find("\nphysical limit: " + std::to_string(physical) + " cycles") !=
        std::string::npos);

  const std::string csv = TempPath("report.csv"), html = TempPath("report.html");
  Run files = Opuc("report " + c.program + " --csv " + csv + " --html " + html);
  REQUIRE(files.exit_code == 0);
  CHECK(files.out.find("MAC efficiency: ") != std::string::npos);
  const std::string table = ReadFile(csv);
  CHECK(CountLines(table) == steps.size() + 1);
  CHECK(table.find("step,kind,class,group,ops,") == 0);
  const std::string page = ReadFile(html);
  CHECK(page.find("<!DOCTYPE html>") == 0);
  CHECK(Count(page, "<svg") == 2);  // the partition, the cycles
  CHECK(Count(page, "<tr") == static_cast<int>(steps.size()) + 1);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("src=") == std::string::npos);  // nothing outside the page

#ifdef OPUC_HAVE_RTL
  // The RTL's cycles, as `opuc run` printed them, become the measured ones.
  const std::string rtl_profile = TempPath("rtl.profile.json");
  Run rtl = Opuc("run " + c.program + " --device rtl --json --profile " + rtl_profile +
                 " --output-dir " + TempPath("report_out"));
  REQUIRE(rtl.exit_code == 0);
  const int64_t measured = Json::parse(rtl.out)["cycles"]["measured"].get<int64_t>();
  const Json timed =
      Json::parse(Opuc("report " + c.program + " --json --profile " + rtl_profile).out);
  CHECK(timed["cycles_from"] == "rtl");
  CHECK(timed["totals"]["measured_cycles"] == measured);
  CHECK(timed["totals"]["mac_efficiency"].get<double>() ==
        doctest::Approx(static_cast<double>(macs) / (static_cast<double>(measured) * 1024)));
  const Json rtl_counts = Json::parse(ReadFile(rtl_profile));
  for (const Json& step : rtl_counts["steps"])
    CHECK(timed["steps"][step["step"].get<size_t>()]["measured_cycles"] == step["cycles"]);

  // As runs: each group's share of its run's measured cycles, as the RTL
  // retired its last instruction, adds up to the run's; the classes count
  // the groups.
  const std::string runs_profile = TempPath("runs.profile.json");
  REQUIRE(Opuc("run " + joined.program + " --device rtl --profile " + runs_profile +
               " --output-dir " + TempPath("report_out"))
              .exit_code == 0);
  const Json by_group =
      Json::parse(Opuc("report " + joined.program + " --json --profile " + runs_profile).out);
  int64_t shares = 0, groups = 0, class_total = 0;
  for (const Json& step : by_group["steps"]) {
    if (step["kind"] != "opu") continue;
    int64_t sum = 0;
    for (const Json& g : step.value("groups", Json::array())) {
      CHECK(g["measured_cycles"].get<int64_t>() >= 0);
      sum += g["measured_cycles"].get<int64_t>();
      ++groups;
    }
    if (step.contains("groups")) CHECK(sum == step["measured_cycles"]);
    shares += step.contains("groups") ? sum : step["measured_cycles"].get<int64_t>();
  }
  CHECK(groups > 1);
  CHECK(shares == by_group["totals"]["measured_cycles"]);
  for (const auto& [name, totals_of] : by_group["totals"]["by_class"].items())
    class_total += totals_of["cycles"].get<int64_t>();
  CHECK(class_total == shares);
  // A profile whose groups' cycles do not add up to their step's is refused.
  Json bad = Json::parse(ReadFile(runs_profile));
  for (Json& step : bad["steps"])
    if (step.contains("group_cycles"))
      step["group_cycles"][0] = step["group_cycles"][0].get<int64_t>() + 1;
  const std::string bad_profile = TempPath("runs.bad.profile.json");
  WriteFile(bad_profile, bad.dump());
  const Run refused = Opuc("report " + joined.program + " --profile " + bad_profile);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find(".group_cycles add up to ") != std::string::npos);
#endif
}

TEST_CASE("opuc report refuses a profile that is not this program's, naming the file and field") {
  const Compiled c = CompileExample(SampleDir("report_bad_samples", 2));
  const std::string profile = TempPath("bad.profile.json");
  Json json = Profile(c.program, "fsim", profile);
  const auto report = [&](const Json& doc) {
    WriteFile(profile, doc.dump());
    return Opuc("report " + c.program + " --profile " + profile);
  };
  Json other = json;
  other["program"]["source_sha256"] = std::string(64, 'a');
  Run wrong = report(other);
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("opuc: error: " + profile + ": recorded for another program (") == 0);

  Json cpu_step = json;
  cpu_step["steps"][0]["step"] = 0;  // the example's step 0 quantizes its input on the CPU
  REQUIRE(c.groups[0]["step"] == "cpu");
  Run cpu = report(cpu_step);
  CHECK(cpu.err ==
        "opuc: error: " + profile + ": steps[0].step is 0, not an OPU step of the program\n");

  Json negative = json;
  negative["steps"][0]["cycles"] = -5;
  CHECK(report(negative).err ==
        "opuc: error: " + profile + ": steps[0].cycles is not a count (a non-negative integer)\n");

  WriteFile(profile, "{\"format\": \"opuc-profile\",");
  Run cut = Opuc("report " + c.program + " --profile " + profile);
  CHECK(cut.exit_code == 2);
  // The 26 characters end where a key should follow: column 27.
  CHECK(cut.err == "opuc: error: " + profile +
                       ": JSON line 1 column 27: syntax error while parsing object key - unexpected"
                       " end of input; expected string literal\n");

  Run model = Opuc(std::string("run ") + OPUC_EXAMPLE_MODEL + " --device ref --profile " + profile);
  CHECK(model.exit_code == 2);
  CHECK(model.err.find("--profile: a model runs without OPU steps to profile") !=
        std::string::npos);
}

}  // namespace

TEST_CASE("opuc report --html: a long CPU reason cut with an ellipsis, whole on hover") {
  // The face detector's last steps run on the CPU for reasons longer than
  // the page's bars have room for (100 bytes).
  const std::string model = opuc::test::ModelPath("face_detection_short_range.tflite");
  const std::string program = TempPath("face_report.opup"), html = TempPath("face_report.html");
  Run compile = Opuc("compile " + model + " --hw opu1024 -o " + program + " --precision int8");
  REQUIRE_MESSAGE(compile.exit_code == 0, compile.err);
  REQUIRE(Opuc("report " + program + " --html " + html).exit_code == 0);
  const std::string page = ReadFile(html);
  int long_reasons = 0;
  const Json report = Json::parse(Opuc("report " + program + " --json").out);
  for (const Json& step : report["steps"]) {
    if (step["kind"] != "cpu") continue;
    const std::string reason = step["reason"];
    REQUIRE(reason.find_first_of("<>&\"") == std::string::npos);  // printed as it is
    if (reason.size() <= 100) {
      CHECK(page.find("CPU: " + reason + "</text>") != std::string::npos);
      continue;
    }
    ++long_reasons;
    CHECK(page.find("CPU: " + reason.substr(0, 99) + "\u2026<title>" + reason +
                    "</title></text>") != std::string::npos);
  }
  CHECK(long_reasons > 0);
}
