//===- tools/opuc/calibration_inputs.cc - Samples for quantization --------===//
#include "opuc/calibration_inputs.h"

#include "opuc/image/augment.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/model_defaults.h"
#include "support/fetched_data.h"

namespace opuc::cli {

Expected<PreprocessOptions> ChoosePreprocess(const std::string& model, const std::string& spec,
                                             const TensorType& input) {
  PreprocessOptions defaults;
  if (CheckImageInput(input).ok()) {
    Expected<PreprocessOptions> known = DefaultPreprocess(model, input);
    if (known.ok()) {
      defaults = *known;
    } else {
      defaults.height = static_cast<int32_t>(input.shape[1]);
      defaults.width = static_cast<int32_t>(input.shape[2]);
    }
  }
  Expected<PreprocessOptions> parsed = ParsePreprocess(spec, defaults);
  if (!parsed.ok()) return parsed.status().WithContext("--preprocess");
  return parsed;
}

Expected<std::vector<std::vector<HostTensor>>> LoadCalibrationInputs(const std::string& model,
                                                                     const Graph& graph,
                                                                     const std::string& dir,
                                                                     const std::string& spec,
                                                                     bool augmented) {
  if (graph.inputs.size() != 1)
    return InvalidArgument("graph '" + graph.name + "' has " + std::to_string(graph.inputs.size()) +
                           " inputs; calibration takes models with one input");
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(PreprocessOptions preprocess, ChoosePreprocess(model, spec, input));
  const std::string folder = dir.empty() ? FetchedImagesDir() + "/calibration" : dir;
  OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> samples,
                        augmented ? LoadAugmentedCalibrationSet(folder, input, preprocess)
                                  : LoadCalibrationSet(folder, input, preprocess));
  std::vector<std::vector<HostTensor>> inputs;
  for (CalibrationSample& s : samples) {
    inputs.emplace_back();
    inputs.back().push_back(std::move(s.tensor));
  }
  return inputs;
}

}  // namespace opuc::cli
