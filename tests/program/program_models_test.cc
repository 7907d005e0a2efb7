// Every real model compiled to a program (calibrated on two photographs)
// and verified: the functional simulator must reproduce, step by step, bit
// for bit, what the integer reference computes, on seeded random inputs
// and on a third photograph; each OPU step's estimated cycles lie between
// bounds from fsim's counters (program/estimate_bounds.h). Where the build
// has the RTL device (OPUC_ALSO_RTL), the photograph runs on it too, on
// opu1024: ref = fsim = rtl, and each OPU step's estimate lies within 5%
// of the RTL's cycles. The default run takes the main job's model on
// opu1024; the `slow` build of this file (OPUC_ALL_MODELS) all thirteen on
// opu1024 and on tiny where they fit. At mixed precision (i16 residuals) the
// face detector runs in both, all thirteen in the slow build. And the
// compile lets the model file go once it has hashed it. Every run here also
// holds codegen's own programs to the simulator's race check: each program
// is read (CheckOpuProgram on every OPU step) and run on fsim, which refuse
// a buffer access the tokens do not order (sim/hazards.h).
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <variant>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/compiler/compile.h"
#include "opuc/frontend/load_model.h"
#include "opuc/image/model_defaults.h"
#include "opuc/isa/isa.h"
#include "opuc/program/mapping_bound.h"
#include "opuc/program/physical_bound.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/random_input.h"
#include "program/estimate_bounds.h"
#include "program/usage_check.h"
#include "support/sha256.h"
#ifdef OPUC_ALSO_RTL
#include "rtl.h"
#endif

namespace opuc {
namespace {

#ifdef OPUC_ALSO_RTL
constexpr bool kRtlBuilt = true;
#else
constexpr bool kRtlBuilt = false;  // the cases that need it say they are skipped
#endif

// Whether the build has the RTL device (then registered).
bool RtlBuilt() {
#ifdef OPUC_ALSO_RTL
  rtl::RegisterRtlDevice();
  return true;
#else
  return false;
#endif
}

std::vector<std::unique_ptr<Device>> Devices(bool rtl) {
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(MakeDevice("ref").value());
  devices.push_back(MakeDevice("fsim").value());
  devices.push_back(MakeDevice("cpu").value());
  if (rtl && RtlBuilt()) devices.push_back(MakeDevice("rtl").value());
  return devices;
}

// The estimator is calibrated against the RTL (docs/codegen.md): each OPU
// step's estimate within 5% of the cycles the RTL took, on the main job's
// model and, in the slow run, on all thirteen (the worst group,
// selfie_segmentation's 4, a 242-cycle step, is 4.5% over).
// Whether a step keeps a tensor on chip (a chained pair's Store into the
// feature-map buffer), which its layers' physical limits count through DRAM.
bool KeepsTensorOnChip(const ProgramStep& step) {
  for (const isa::Word& word : step.Words()) {
    const Expected<isa::Instruction> insn = isa::Decode(word);
    const auto* store = insn.ok() ? std::get_if<isa::StoreInsn>(&*insn) : nullptr;
    if (store != nullptr && store->to_fm) return true;
  }
  return false;
}

// Both limits are lower bounds: no step of a real model runs faster on the
// RTL than its mapping allows (opuc/program/mapping_bound.h), nor, where
// its tensors go through DRAM, than the hardware's physical limit
// (opuc/program/physical_bound.h), which the mapping's then never
// undercuts (a chained pair's may: decisions-codegen.md, "Layers, not
// steps, are the unit of the physical limit").
// A run's groups each have both limits (docs/codegen.md, "Runs"); the
// run's mapping limit sums each resource's work over its groups.
void CheckBoundsBelowRtl(const Program& program, const ProgramRun& run) {
  const PhysicalLimit limit(program.graph(), program.hw());
  for (size_t i = 0; i < program.steps().size(); ++i) {
    if (program.steps()[i].kind != StepKind::kOpu) continue;
    CAPTURE(i);
    MappingBound whole;
    for (const ProgramStep& step : StepParts(program, program.steps()[i])) {
      const StepUsage usage = UsageOfStep(program, step).value();
      const MappingBound mapping = MappingBoundOfStep(program, step, usage).value();
      const PhysicalBound physical = limit.Bound(step.nodes);
      CHECK(physical.cycles > 0);
      // A chained pair's halves: the first stores its map on chip, the
      // second reads it there (a tensor of the graph without a region).
      const bool reads_chip = std::any_of(step.inputs.begin(), step.inputs.end(), [&](TensorId t) {
        return program.Find(t) == nullptr && !program.graph().tensor(t).is_constant();
      });
      if (!KeepsTensorOnChip(step) && !reads_chip) CHECK(physical.cycles <= mapping.cycles());
      whole.Add(mapping);
    }
    CHECK(whole.cycles() <= run.counters[i].cycles);
  }
}

void CheckEstimateAgainstRtl(const Program& program, const ProgramRun& run) {
  const double tolerance = 0.05;
  for (size_t i = 0; i < program.steps().size(); ++i) {
    const ProgramStep& step = program.steps()[i];
    if (step.kind != StepKind::kOpu) continue;
    CAPTURE(i);
    CAPTURE(step.tiling);
    const auto measured = static_cast<double>(run.counters[i].cycles);
    CHECK(measured > 0);
    CHECK(static_cast<double>(step.estimated_cycles) >= (1 - tolerance) * measured);
    CHECK(static_cast<double>(step.estimated_cycles) <= (1 + tolerance) * measured);
  }
}

void CheckAgree(const Program& program, const std::vector<HostTensor>& inputs, bool rtl = false) {
  Expected<VerifyResult> verify = VerifyProgram(program, Devices(rtl), inputs);
  REQUIRE_MESSAGE(verify.ok(), verify.status().ToString());
  if (const auto& d = verify->divergence)
    FAIL_CHECK(d->devices[1] << " diverges from " << d->devices[0] << " at step " << d->step
                             << " (group " << d->group << ") element " << d->element << ": "
                             << d->values[0] << " against " << d->values[1]);
  CHECK(verify->steps_run == static_cast<int64_t>(program.steps().size()));
}

// A real model with its preprocessing, calibrated on two photographs.
struct RealModel {
  Graph graph;
  TensorType input;
  PreprocessOptions preprocess;
  std::vector<std::vector<HostTensor>> calibration;

  std::vector<HostTensor> Photo(const char* file) const {
    return test::ImageSample(file, input, preprocess);
  }
};

RealModel LoadRealModel(const std::string& name) {
  Expected<LoadedModel> model = LoadModel(test::ModelPath(name + ".tflite"));
  REQUIRE(model.ok());
  RealModel m{model->graph, model->graph.tensor(model->graph.inputs[0]).type(), {}, {}};
  Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, m.input);
  REQUIRE(preprocess.ok());
  m.preprocess = *preprocess;
  m.calibration = {m.Photo("chelsea.png"), m.Photo("coffee.png")};
  return m;
}

TEST_CASE("programs: every real model compiles and verifies on fsim") {
  test::RequireImagesCache();
#ifdef OPUC_ALL_MODELS
  const std::vector<std::string> names = test::RealModelNames();
  const std::vector<std::string> presets = {"opu1024", "tiny"};
#else
  const std::vector<std::string> names = {"face_detection_short_range"};
  const std::vector<std::string> presets = {"opu1024"};
#endif
  int64_t verified = 0;
  for (const std::string& name : names) {
    CAPTURE(name);
    const RealModel model = LoadRealModel(name);
    const TensorType& input = model.input;
    for (const std::string& preset : presets) {
      CAPTURE(preset);
      const HwConfig hw = HwConfigPreset(preset).value();
      Expected<CompiledModel> compiled = CompileModel(model.graph, model.calibration, hw, {});
      if (!compiled.ok() && preset == "tiny") {
        MESSAGE(name << " does not fit tiny: " << compiled.status().message());
        continue;
      }
      REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
      // The main job's model runs every MAC on the OPU (its conv, depthwise,
      // channel-padded residual and pool groups all compile).
      if (name == "face_detection_short_range" && preset == "opu1024")
        CHECK(compiled->report.opu_macs == compiled->report.total_macs);
      const std::vector<uint8_t>& bytes = compiled->program;
      Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), name);
      REQUIRE_MESSAGE(program.ok(), program.status().ToString());
      CheckAgree(*program, {RandomTensor(input.dtype, input.shape, 1).value()});
      CheckAgree(*program, model.Photo("astronaut.png"), preset == "opu1024");
      // The counts (and, on the RTL, the cycles) the estimate answers to.
      const bool on_rtl = RtlBuilt() && preset == "opu1024";
      std::unique_ptr<Device> device = MakeDevice(on_rtl ? "rtl" : "fsim").value();
      Expected<ProgramRun> run = RunProgram(*program, *device, model.Photo("coffee.png"));
      REQUIRE_MESSAGE(run.ok(), run.status().ToString());
      test::CheckEstimateBounds(*program, *run);
      test::CheckUsageAgainstCounters(*program, *run);
      if (on_rtl) {
        CheckEstimateAgainstRtl(*program, *run);
        CheckBoundsBelowRtl(*program, *run);
      }
      if (name == "face_detection_short_range" && preset == "opu1024") {
        // By hand, on opu1024's 64 x 16 array: the first conv (5x5, 3 -> 24
        // channels, 64x64 outputs), its input folded with pixel pairs (5
        // rows x 7 columns of taps x 3 channels: two stride-2 windows in
        // lanes), takes, in opuc's mapping, 64·32 pairs x ceil(105/64) x
        // ceil(24/8) = 12288 array cycles (one pixel a fold: 64·64 x
        // ceil(75/64) x ceil(24/16) = 16384; unfolded: 25 taps x
        // ceil(3/64), 204800), and physically its 7,372,800 MACs / 1024 =
        // 7200; the
        // first depthwise (3x3, 24 channels, 64x64), its 9 taps one Gemm in
        // the array's depthwise mode, 64·64 x 1 x ceil(24/16) = 8192 in the
        // mapping, and physically its bytes: 64·64·24 in and out, 216 of
        // weights and 96 of bias = 196,920 / 64 = 3077 cycles.
        const PhysicalLimit limit(program->graph(), program->hw());
        std::vector<std::pair<MappingBound, PhysicalBound>> first(4);
        for (const ProgramStep& whole : program->steps()) {
          if (whole.kind != StepKind::kOpu) continue;
          for (const ProgramStep& step : StepParts(*program, whole)) {
            LayerClass cls = LayerClass::kOther;
            const PhysicalBound physical = limit.Bound(step.nodes, &cls);
            auto& seen = first[static_cast<size_t>(cls)];
            if (seen.second.cycles == 0)
              seen = {
                  MappingBoundOfStep(*program, step, UsageOfStep(*program, step).value()).value(),
                  physical};
          }
        }
        const auto& conv = first[static_cast<size_t>(LayerClass::kFirst)];
        CHECK(conv.first.array_cycles == 12288);
        CHECK(conv.second.compute_cycles == 7200);
        CHECK(conv.second.cycles == 7200);
        const auto& depthwise = first[static_cast<size_t>(LayerClass::kDepthwise)];
        CHECK(depthwise.first.array_cycles == 4096);  // 64 x 64 x 2 blocks, in pairs
        CHECK(depthwise.second.cycles == 3077);
        // The first 1x1 (24 channels to 24 over 64 x 64): 2 blocks of 4096
        // pixels, two a cycle.
        const auto& dense = first[static_cast<size_t>(LayerClass::kDense)];
        CHECK(dense.first.array_cycles == 4096);
        // Its depthwise steps' tiles after the first take the rows above
        // them from their line slots (the Gemm fields of version 6), and
        // some of its steps store a pixel's blocks together (version 7):
        // four store groups deep, whole-pixel stores take less than units
        // four deep over accumulator quarters there; its 3 x 3 depthwise
        // kernels take output pixels in pairs (version 10), and so do its
        // 1x1 products of 24 to 32 channels (version 11); some depthwise
        // outputs stay on chip for the 1x1 after them (version 12); its
        // OPU steps run as one program, its groups listed (version 13);
        // its stride-2 depthwise Gemms take two channel blocks (version 16).
        CHECK(program->version() == kBlockPairsVersion);
      }
      if (name == "selfie_segmentation" && preset == "opu1024") {
        // The last OPU step is the head, a 2x2 transposed conv every 2 to
        // 256x256x1 from 16 channels, as phases with packed rows: an entry
        // holds 16 output pixels of a row, which read 16/2 = 8 input pixels,
        // 2 lane blocks of 4, so 256 rows x 256/16 entries x 2 = 8192 (over
        // the zero-inserted input, 256·256 x (2/2)·(2/2) tap = 65536).
        CHECK(compiled->report.opu_macs == compiled->report.total_macs);
        MappingBound last;  // of the last OPU group
        for (const ProgramStep& whole : program->steps())
          if (whole.kind == StepKind::kOpu) {
            const ProgramStep step = StepParts(*program, whole).back();
            last = MappingBoundOfStep(*program, step, UsageOfStep(*program, step).value()).value();
          }
        CHECK(last.array_cycles == 8192);
      }
      ++verified;
      MESSAGE(name << " on " << preset << ": " << compiled->report.opu_steps << " OPU steps, "
                   << compiled->report.cpu_steps << " CPU steps, verified");
    }
  }
  CHECK(verified > 0);
}

// The model compiled for opu1024 at mixed precision (u8 and i16
// activations, docs/quantization.md) or with 16-bit weights (numerics.md §1c).
Expected<CompiledModel> CompileWide(const RealModel& model, bool wide_weights) {
  CompileOptions options;
  options.quantize.precision = wide_weights ? Precision::kInt16 : Precision::kMixed;
  options.quantize.wide_weights = wide_weights;
  return CompileModel(model.graph, model.calibration, HwConfigPreset("opu1024").value(), options);
}

// The models the mixed-precision cases compile: the face detector; all
// thirteen in the slow build.
std::vector<std::string> MixedPrecisionModels() {
#ifdef OPUC_ALL_MODELS
  return test::RealModelNames();
#else
  return {"face_detection_short_range"};
#endif
}

// With u8 and i16 activations the face detector's residual branches are
// i16: every add still runs on the OPU, bit for bit (on the RTL too where it
// is built); in the slow build the same for all thirteen models.
TEST_CASE("programs: mixed precision, i16 residuals on the OPU") {
  test::RequireImagesCache();
  for (const std::string& name : MixedPrecisionModels()) {
    CAPTURE(name);
    const RealModel model = LoadRealModel(name);
    Expected<CompiledModel> compiled = CompileWide(model, /*wide_weights=*/false);
    REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
    const std::vector<uint8_t>& bytes = compiled->program;
    Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), name);
    REQUIRE_MESSAGE(program.ok(), program.status().ToString());
    if (name == "face_detection_short_range") {
      CHECK(compiled->report.opu_macs == compiled->report.total_macs);
      // The quantizer did give some residual an i16: otherwise this proves nothing new.
      bool i16_residual = false;
      for (const ProgramStep& step : program->steps()) {
        for (size_t i = 0; i < step.word_count && step.kind == StepKind::kOpu; ++i) {
          const isa::Instruction insn = isa::Decode(step.word(i)).value();
          if (const auto* add = std::get_if<isa::ResAddInsn>(&insn))
            i16_residual = i16_residual || add->res_format == isa::ResAddInsn::kI16;
        }
      }
      CHECK(i16_residual);
    }
    CheckAgree(*program, model.Photo("astronaut.png"), true);
  }
}

// With 16-bit weights every layer is two inner products over an i16 input
// and an add of i16 partial sums: the face detector's program still runs
// every MAC on the OPU, bit for bit with the reference (and the RTL where
// it is built).
TEST_CASE("programs: 16-bit weights, two inner products a layer on the OPU") {
  test::RequireImagesCache();
  const RealModel model = LoadRealModel("face_detection_short_range");
  Expected<CompiledModel> compiled = CompileWide(model, /*wide_weights=*/true);
  REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
  CHECK(compiled->report.opu_macs == compiled->report.total_macs);
  const std::vector<uint8_t>& bytes = compiled->program;
  Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), "wide");
  REQUIRE_MESSAGE(program.ok(), program.status().ToString());
  CheckAgree(*program, model.Photo("astronaut.png"), true);
}

// The estimate holds on i16 steps too, at mixed precision and with 16-bit
// weights: each OPU step's within 5% of the RTL's cycles (their reads and
// the stores' writes delay each other in the DRAM, docs/codegen.md). A
// build without the RTL skips the case, as doctest reports.
TEST_CASE("programs: the estimate against the RTL at mixed precision and with 16-bit weights" *
          doctest::skip(!kRtlBuilt)) {
  test::RequireImagesCache();
  REQUIRE(RtlBuilt());
  std::vector<std::pair<std::string, bool>> runs;  // model, wide weights
  for (const std::string& name : MixedPrecisionModels()) runs.emplace_back(name, false);
  runs.emplace_back("face_detection_short_range", true);
  for (const auto& [name, wide_weights] : runs) {
    CAPTURE(name);
    CAPTURE(wide_weights);
    const RealModel model = LoadRealModel(name);
    Expected<CompiledModel> compiled = CompileWide(model, wide_weights);
    REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
    const std::vector<uint8_t>& bytes = compiled->program;
    Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), name);
    REQUIRE_MESSAGE(program.ok(), program.status().ToString());
    Expected<ProgramRun> run =
        RunProgram(*program, *MakeDevice("rtl").value(), model.Photo("coffee.png"));
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    CheckEstimateAgainstRtl(*program, *run);
  }
}

#ifndef OPUC_ALL_MODELS
// `opuc compile` moves the model file into the compile to be hashed; once
// hashed, and once the passes have folded the half-precision weights that
// viewed it, its memory serves the compile instead of adding to the peak.
// The program still records the file's SHA-256.
TEST_CASE("programs: the compile lets the model file go once it has hashed it") {
  test::RequireImagesCache();
  const RealModel model = LoadRealModel("pose_landmark_lite");
  Expected<LoadedModel> loaded = LoadModel(test::ModelPath("pose_landmark_lite.tflite"));
  REQUIRE(loaded.ok());
  const std::string sha256 = Sha256Hex(loaded->file.data(), loaded->file.size);
  const std::weak_ptr<uint8_t> file = loaded->file.owner;
  CompileOptions options;
  options.source = std::move(loaded->file);
  bool let_go = false;
  Expected<CompiledModel> compiled =
      CompileModel(std::move(loaded->graph), model.calibration, HwConfigPreset("opu1024").value(),
                   std::move(options), [&](std::string_view stage) {
                     if (stage != "codegen") return;
                     for (int i = 0; i < 500 && !file.expired(); ++i)  // the hash's own thread
                       std::this_thread::sleep_for(std::chrono::milliseconds(10));
                     let_go = file.expired();
                   });
  REQUIRE_MESSAGE(compiled.ok(), compiled.status().ToString());
  CHECK(let_go);
  Expected<Program> program =
      ReadProgram(nullptr, compiled->program.data(), compiled->program.size(), "pose");
  REQUIRE(program.ok());
  CHECK(program->build().source_sha256 == sha256);
}
#endif

}  // namespace
}  // namespace opuc
