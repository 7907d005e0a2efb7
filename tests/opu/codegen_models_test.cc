// Every real model: quantized (calibrated on two photographs), partitioned
// for opu1024, its OPU groups compiled; each group that compiles runs on the
// functional simulator from the values the integer reference computed on a
// third photograph, and must reproduce the reference's values of its output
// bit for bit. The counts of compiled and skipped groups are printed. The
// default run checks the main job's model; the `slow` build of this file
// (OPUC_ALL_MODELS) checks all thirteen (about two and a half minutes).
#include <doctest/doctest.h>

#include <map>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/cpu/reference.h"
#include "opuc/image/model_defaults.h"
#include "opuc/opu/codegen.h"
#include "opuc/opu/fsim.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

bool SameBytes(const HostTensor& a, const HostTensor& b) {
  return a.dtype() == b.dtype() && a.bytes() == b.bytes() &&
         std::equal(a.raw(), a.raw() + a.bytes(), b.raw());
}

TEST_CASE("codegen: the OPU groups of every real model equal the reference on fsim") {
  test::RequireImagesCache();
  const HwConfig hw = *HwConfigPreset("opu1024");
  int64_t compiled_total = 0;
#ifdef OPUC_ALL_MODELS
  const std::vector<std::string> names = test::RealModelNames();
#else
  const std::vector<std::string> names = {"face_detection_short_range"};
#endif
  for (const std::string& name : names) {
    CAPTURE(name);
    const Graph graph = testing::OptimizedModel(test::ModelPath(name + ".tflite"));
    const TensorType input = graph.tensor(graph.inputs[0]).type();
    Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, input);
    REQUIRE(preprocess.ok());
    Expected<QuantizedGraph> q =
        Quantize(graph, {test::ImageSample("chelsea.png", input, *preprocess),
                         test::ImageSample("coffee.png", input, *preprocess)});
    REQUIRE(q.ok());
    Expected<HwPartition> partition = PartitionForHardware(q->graph, hw);
    REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
    Expected<OpuCode> code = CompileOpuGroups(q->graph, *partition, hw);
    REQUIRE_MESSAGE(code.ok(), code.status().ToString());

    std::map<TensorId, HostTensor> values;
    const Status run =
        RunReference(q->graph, test::ImageSample("astronaut.png", input, *preprocess),
                     [&](TensorId t, const HostTensor& v) -> Status {
                       if (code->Find(t) != nullptr)
                         values.emplace(
                             t, HostTensor::Copy(v.dtype(), v.shape(), v.raw(), v.bytes()).value());
                       return OkStatus();
                     })
            .status();
    REQUIRE_MESSAGE(run.ok(), run.ToString());
    for (const OpuGroupCode& group : code->groups) {
      CAPTURE(group.group);
      CAPTURE(group.tiling);
      const HwGroup& g = partition->groups[static_cast<size_t>(group.group)];
      std::vector<uint8_t> dram = code->DramImage();
      for (TensorId t : g.inputs)
        if (const ActivationLayout* l = code->Find(t))
          REQUIRE(WriteActivation(*l, values.at(t), dram).ok());
      const Status sim = RunFunctionalSim(hw, group.words, dram);
      REQUIRE_MESSAGE(sim.ok(), sim.ToString());
      const TensorId out = g.outputs[0];
      Expected<HostTensor> got = ReadActivation(*code->Find(out), q->graph.tensor(out).shape, dram);
      REQUIRE(got.ok());
      CHECK(SameBytes(*got, values.at(out)));
    }
    compiled_total += static_cast<int64_t>(code->groups.size());
    MESSAGE(name << ": " << code->groups.size() << " OPU groups compiled and equal, "
                 << code->skipped.size() << " not compiled yet");
  }
  CHECK(compiled_total > 0);
}

}  // namespace
}  // namespace opuc
