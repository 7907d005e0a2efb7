//===- tests/image/image_sample.h - One photograph as a model's inputs -*- C++ -*-===//
//
// For tests that link the tools-only image library: a cached photograph
// (image_cache.h), or every photograph of a folder, preprocessed for a
// model's input, as the input lists RunReference and Quantize take.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_IMAGE_IMAGE_SAMPLE_H
#define OPUC_TESTS_IMAGE_IMAGE_SAMPLE_H

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "image/image_cache.h"
#include "opuc/image/calibration_set.h"

namespace opuc::test {

inline std::vector<HostTensor> ImageSample(const char* file, const TensorType& input,
                                           const PreprocessOptions& options) {
  Expected<CalibrationSample> sample = LoadCalibrationSample(ImagePath(file), input, options);
  REQUIRE_MESSAGE(sample.ok(), sample.status().ToString());
  std::vector<HostTensor> inputs;
  inputs.push_back(std::move(sample->tensor));
  return inputs;
}

/// Every image of `dir` (sorted by name), one input list each.
inline std::vector<std::vector<HostTensor>> ImageSamples(const std::string& dir,
                                                         const TensorType& input,
                                                         const PreprocessOptions& options) {
  Expected<std::vector<CalibrationSample>> set = LoadCalibrationSet(dir, input, options);
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  std::vector<std::vector<HostTensor>> samples;
  for (CalibrationSample& sample : *set) {
    samples.emplace_back();
    samples.back().push_back(std::move(sample.tensor));
  }
  return samples;
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_IMAGE_IMAGE_SAMPLE_H
