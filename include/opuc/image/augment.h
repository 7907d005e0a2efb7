//===- opuc/image/augment.h - More views of a calibration photograph -*- C++ -*-===//
//
// Post-training quantization chooses ranges and formats on a handful of
// photographs; a new photograph shows the model its subject mirrored,
// nearer or farther, lighter or darker, and the ranges calibration saw are
// then exceeded (docs/quantization.md, "Mixed precision"). The standard
// augmentations give calibration those views of each photograph:
//
//   0  the photograph itself
//   1  mirrored left to right
//   2  the centre crop of 3/4 of each side (the subject nearer)
//   3  shrunk to 3/4 of each side on a black frame (farther, and the
//      zero padding MediaPipe puts around a region of interest)
//   4  darker: every value × 0.6
//   5  brighter: every value × 1.4, clipped at 255
//
// The views are 8-bit images, preprocessed like any photograph.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_AUGMENT_H
#define OPUC_IMAGE_AUGMENT_H

#include <string>
#include <vector>

#include "opuc/image/calibration_set.h"
#include "opuc/image/image.h"

namespace opuc {

inline constexpr int kAugmentedViews = 6;

/// The kAugmentedViews views of `image`, in the order above.
std::vector<Image> AugmentedViews(const Image& image);

/// The kAugmentedViews samples of one file: a photograph's views, or a .npy
/// sample repeated.
Expected<std::vector<CalibrationSample>> LoadAugmentedCalibrationSample(
    const std::string& path, const TensorType& input, const PreprocessOptions& options);

/// Every photograph of `dir` (as LoadCalibrationSet lists them) as its
/// kAugmentedViews views, one sample each, a photograph's views together
/// and in the order above; a .npy file is one sample, repeated so that
/// every file has kAugmentedViews samples. `path` names the file.
Expected<std::vector<CalibrationSample>> LoadAugmentedCalibrationSet(
    const std::string& dir, const TensorType& input, const PreprocessOptions& options);

}  // namespace opuc

#endif  // OPUC_IMAGE_AUGMENT_H
