// The Arm NN oracle: opuc's float reference (RunReference) against Arm NN
// 20.08's CpuRef backend on the three real models Arm NN can check exactly
// (environment.md §4: the others use PRELU, DENSIFY or a custom operator,
// which its parser rejects, or RESIZE_BILINEAR with half_pixel_centers,
// which it ignores). Arm NN runs the FoldDequantize copy; opuc imports the
// original. For several seeded inputs (opuc/tensor_io/random_input.h), every
// output must agree within 1e-4 of its range:
//   max |opuc - armnn| <= 1e-4 * scale,
//   scale = max(max - min, max |v|) over opuc's output v.
// The magnitude term matters only for outputs whose values barely spread:
// a [1,1] score has max - min = 0, and float rounding scales with |v|.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "frontend/model_cache.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/load_model.h"
#include "opuc/tensor_io/random_input.h"
#include "oracle/armnn_runner.h"
#include "oracle/fold_dequantize.h"

namespace opuc {
namespace {

constexpr double kTolerance = 1e-4;  // of each output's scale

void CheckAgainstArmnn(const std::string& model, const std::vector<uint64_t>& seeds) {
  const std::string file = model + ".tflite";
  Expected<LoadedModel> loaded = LoadModel(test::ModelPath(file));
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
  const Graph& graph = loaded->graph;
  Expected<oracle::FoldedModel> folded = oracle::FoldDequantize(test::ReadModel(file), file);
  REQUIRE_MESSAGE(folded.ok(), folded.status().ToString());
  Expected<std::unique_ptr<oracle::ArmnnModel>> armnn =
      oracle::ArmnnModel::Load(folded->bytes, file);
  REQUIRE_MESSAGE(armnn.ok(), armnn.status().ToString());

  for (uint64_t seed : seeds) {
    CAPTURE(seed);
    Expected<std::vector<HostTensor>> inputs = RandomInputs(graph, seed);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> ours = RunReference(graph, *inputs);
    REQUIRE_MESSAGE(ours.ok(), ours.status().ToString());
    Expected<std::vector<oracle::ArmnnOutput>> theirs = (*armnn)->Run(*inputs);
    REQUIRE_MESSAGE(theirs.ok(), theirs.status().ToString());
    REQUIRE(ours->size() == theirs->size());
    for (size_t o = 0; o < ours->size(); ++o) {
      const HostTensor& mine = (*ours)[o];
      const oracle::ArmnnOutput& other = (*theirs)[o];
      CAPTURE(other.name);
      CHECK(graph.tensors[static_cast<size_t>(graph.outputs[o])].name == other.name);
      REQUIRE(mine.shape() == other.shape);
      const float* v = mine.data<float>();
      const auto [lo, hi] = std::minmax_element(v, v + mine.elements());
      double max_diff = 0;
      for (int64_t i = 0; i < mine.elements(); ++i) {
        REQUIRE(std::isfinite(v[i]));
        max_diff =
            std::max(max_diff, std::fabs(double{v[i]} - other.values[static_cast<size_t>(i)]));
      }
      const double scale =
          std::max({double{*hi} - double{*lo}, std::fabs(double{*lo}), std::fabs(double{*hi})});
      MESSAGE(model << " seed " << seed << " " << other.name << ": max|diff| " << max_diff
                    << ", scale " << scale << ", ratio " << (scale > 0 ? max_diff / scale : 0));
      CHECK(max_diff <= kTolerance * scale);
    }
  }
}

TEST_CASE("face_detection_short_range agrees with Arm NN CpuRef") {
  CheckAgainstArmnn("face_detection_short_range", {0, 1, 2, 3});
}

TEST_CASE("hand_landmark_lite agrees with Arm NN CpuRef") {
  CheckAgainstArmnn("hand_landmark_lite", {0, 1, 2});
}

TEST_CASE("hand_landmark_full agrees with Arm NN CpuRef") {
  CheckAgainstArmnn("hand_landmark_full", {0, 1, 2});
}

}  // namespace
}  // namespace opuc
