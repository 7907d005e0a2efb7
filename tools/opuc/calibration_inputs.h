//===- tools/opuc/calibration_inputs.h - Samples for quantization -*- C++ -*-===//
//
// How `opuc quantize` and `opuc compile` turn a folder of photographs (or
// .npy files) into model inputs: the model's published preprocessing when
// opuc knows it (opuc/image/model_defaults.h), else pixels / 255 at the
// input's size, with the --preprocess text over it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_CALIBRATION_INPUTS_H
#define OPUC_TOOLS_CALIBRATION_INPUTS_H

#include <string>
#include <vector>

#include "opuc/image/preprocess.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::cli {

/// The preprocessing for `model`'s input (`spec`: the --preprocess text).
Expected<PreprocessOptions> ChoosePreprocess(const std::string& model, const std::string& spec,
                                             const TensorType& input);

/// One input vector per sample of `dir` (empty: the fetched photographs'
/// calibration set) for a graph with one input; with `augmented`, each
/// file's kAugmentedViews views (opuc/image/augment.h).
Expected<std::vector<std::vector<HostTensor>>> LoadCalibrationInputs(const std::string& model,
                                                                     const Graph& graph,
                                                                     const std::string& dir,
                                                                     const std::string& spec,
                                                                     bool augmented = false);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_CALIBRATION_INPUTS_H
