//===- opuc/frontend/load_model.h - Load any supported model file -*- C++ -*-===//
//
// The one entry point tools use: the format is recognised by the file's
// content (a FlatBuffers identifier, or JSON text), the extension only
// breaking ties, so a misnamed file still loads.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FRONTEND_LOAD_MODEL_H
#define OPUC_FRONTEND_LOAD_MODEL_H

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/file_io/aligned_bytes.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

enum class ModelFormat { kOpug, kOpugJson, kTflite };

/// "opug", "opug.json", "tflite".
std::string_view ModelFormatName(ModelFormat format);

struct LoadedModel {
  ModelFormat format = ModelFormat::kOpug;
  Graph graph;
  /// Operators of the model as its format names them, with their counts:
  /// TFLite names for .tflite ("CONV_2D", "CUSTOM:<custom_code>"), IR op
  /// names for .opug.
  std::map<std::string, int> source_operators;
  /// The file as read, once (the graph's constants may view it): what a
  /// program's build records the SHA-256 of.
  AlignedBytes file;
};

/// Reads the file at `path` once and imports it. Recognises bytes 4..7 "OPUG"
/// (binary .opug), "TFL3" (TFLite), and text whose first non-blank character
/// is '{' (.opug.json); otherwise the extension decides. Errors name `path`.
Expected<LoadedModel> LoadModel(const std::string& path);

/// What `opuc inspect` shows: the model as LoadModel loads it or, for a
/// .tflite that verifies but holds operators opuc cannot import, its
/// operator counts alone (`imported` false, `model.graph` empty). Any other
/// failure is LoadModel's error.
struct ModelOverview {
  LoadedModel model;
  bool imported = true;
  std::vector<std::string> unsupported_operators;  ///< Sorted; set when not imported.
  std::string import_error;                        ///< Why the import failed.
};
Expected<ModelOverview> InspectModel(const std::string& path);

}  // namespace opuc

#endif  // OPUC_FRONTEND_LOAD_MODEL_H
