//===- opuc/image/calibration_set.h - A folder of model inputs --*- C++ -*-===//
//
// A calibration set is a folder: every *.png, *.jpg and *.jpeg (decoded and preprocessed, see
// preprocess.h) and every *.npy (taken as it is; it must hold exactly the
// input's type) in it, sorted by file name, is one input sample. Other files
// and subfolders are ignored. The quantizer runs the float reference over
// the samples; `opuc quantize --calibration DIR` reads them with this API.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_CALIBRATION_SET_H
#define OPUC_IMAGE_CALIBRATION_SET_H

#include <string>
#include <vector>

#include "opuc/image/preprocess.h"
#include "opuc/ir/tensor.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

struct CalibrationSample {
  std::string path;   ///< The file the sample came from.
  HostTensor tensor;  ///< Of the input's type.
};

/// The *.png, *.jpg, *.jpeg and *.npy files in `dir` (extension in any case), sorted by
/// file name (byte order). Errors: `dir` missing or not a folder, or holding
/// no such file (each names `dir`).
Expected<std::vector<std::string>> ListCalibrationFiles(const std::string& dir);

/// One sample for an input of type `input`: a photograph through LoadImage
/// and Preprocess, a .npy through ReadNpy. A photograph needs an f32 [1, H, W, 3]
/// input; when `options` leaves the size unset (0 × 0) it becomes H × W, and
/// a size that differs from the input's is an error. A .npy must have the
/// input's exact dtype and shape. Errors name the file.
Expected<CalibrationSample> LoadCalibrationSample(const std::string& path, const TensorType& input,
                                                  const PreprocessOptions& options);

/// LoadCalibrationSample for every file of ListCalibrationFiles(dir), in
/// that order; the first error stops it.
Expected<std::vector<CalibrationSample>> LoadCalibrationSet(const std::string& dir,
                                                            const TensorType& input,
                                                            const PreprocessOptions& options);

}  // namespace opuc

#endif  // OPUC_IMAGE_CALIBRATION_SET_H
