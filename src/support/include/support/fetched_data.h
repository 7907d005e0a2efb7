//===- support/fetched_data.h - Where the fetch scripts put data -*- C++ -*-===//
//
// scripts/fetch-models and scripts/fetch-images fill
// ${OPUC_MODELS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opuc/models} and the
// same with OPUC_IMAGES_DIR and images/. The command line, the tests and
// the benches find them here, and nowhere else.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_FETCHED_DATA_H
#define OPUC_SUPPORT_FETCHED_DATA_H

#include <string>
#include <vector>

namespace opuc {

/// The folder of the real models (.tflite).
std::string FetchedModelsDir();

/// The folder of the calibration photographs.
std::string FetchedImagesDir();

/// The 13 models scripts/fetch-models fetches (scripts/models.sha256), by
/// file name without ".tflite".
const std::vector<std::string>& FetchedModelNames();

}  // namespace opuc

#endif  // OPUC_SUPPORT_FETCHED_DATA_H
