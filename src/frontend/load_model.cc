//===- src/frontend/load_model.cc - Load any supported model file ---------===//
#include "opuc/frontend/load_model.h"

#include <cctype>
#include <cstring>

#include "opuc/file_io/file_io.h"
#include "opuc/frontend/tflite.h"
#include "opuc/opug/opug.h"
#include "support/format.h"

namespace opuc {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// Whether bytes 4..7 (a FlatBuffers file identifier) are `id`.
bool HasIdentifier(const AlignedBytes& bytes, const char* id) {
  return bytes.size >= 8 && std::memcmp(bytes.data() + 4, id, 4) == 0;
}

bool LooksLikeJson(const AlignedBytes& bytes) {
  for (size_t i = 0; i < bytes.size; ++i) {
    if (std::isspace(bytes.data()[i])) continue;
    return bytes.data()[i] == '{';
  }
  return false;
}

/// By content first; the extension only when the content says nothing.
std::optional<ModelFormat> DetectFormat(const AlignedBytes& bytes, const std::string& path) {
  if (HasIdentifier(bytes, "OPUG")) return ModelFormat::kOpug;
  if (HasIdentifier(bytes, "TFL3")) return ModelFormat::kTflite;
  if (LooksLikeJson(bytes)) return ModelFormat::kOpugJson;
  if (EndsWith(path, ".tflite")) return ModelFormat::kTflite;
  if (IsOpugJsonPath(path)) return ModelFormat::kOpugJson;
  if (EndsWith(path, ".opug")) return ModelFormat::kOpug;
  return std::nullopt;
}

std::map<std::string, int> IrOperatorHistogram(const Graph& graph) {
  std::map<std::string, int> histogram;
  for (const Node& node : graph.nodes) ++histogram[std::string(OpName(node.op))];
  return histogram;
}

}  // namespace

std::string_view ModelFormatName(ModelFormat format) {
  switch (format) {
    case ModelFormat::kOpug: return "opug";
    case ModelFormat::kOpugJson: return "opug.json";
    case ModelFormat::kTflite: return "tflite";
  }
  return "unknown";
}

namespace {

struct ModelFile {
  AlignedBytes bytes;
  ModelFormat format;
};

Expected<ModelFile> ReadModelFile(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, ReadFileAligned(path));
  if (bytes.size == 0)
    return InvalidArgument(Cat(path,
                               ": file is empty; expected a model (.opug, .opug.json "
                               "or .tflite)"));
  const std::optional<ModelFormat> format = DetectFormat(bytes, path);
  if (!format)
    return InvalidArgument(Cat(path, ": not a recognised model (", bytes.size,
                               " bytes): expected a .opug (identifier \"OPUG\" at bytes 4..7),"
                               " a .opug.json (text starting with '{') or a .tflite"
                               " (identifier \"TFL3\")"));
  return ModelFile{std::move(bytes), *format};
}

Expected<LoadedModel> LoadModelFile(const ModelFile& file, const std::string& path) {
  const AlignedBytes& bytes = file.bytes;
  LoadedModel model;
  model.format = file.format;
  model.file = bytes;
  switch (file.format) {
    case ModelFormat::kOpug: {
      OPUC_ASSIGN_OR_RETURN(model.graph, ReadOpug(bytes.owner, bytes.data(), bytes.size, path));
      model.source_operators = IrOperatorHistogram(model.graph);
      return model;
    }
    case ModelFormat::kOpugJson: {
      const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size);
      OPUC_ASSIGN_OR_RETURN(model.graph, ReadOpugJson(text, path));
      model.source_operators = IrOperatorHistogram(model.graph);
      return model;
    }
    case ModelFormat::kTflite: {
      OPUC_ASSIGN_OR_RETURN(TfliteImport import,
                            ReadTflite(bytes.owner, bytes.data(), bytes.size, path));
      model.graph = std::move(import.graph);
      model.source_operators = std::move(import.source_operators);
      return model;
    }
  }
  return InternalError(Cat(path, ": unhandled model format"));
}

}  // namespace

Expected<LoadedModel> LoadModel(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(ModelFile file, ReadModelFile(path));
  return LoadModelFile(file, path);
}

Expected<ModelOverview> InspectModel(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(ModelFile file, ReadModelFile(path));
  ModelOverview overview;
  Expected<LoadedModel> model = LoadModelFile(file, path);
  if (model.ok()) {
    overview.model = std::move(model).value();
    return overview;
  }
  if (file.format != ModelFormat::kTflite) return model.status();
  Expected<TfliteOperators> ops = ReadTfliteOperators(file.bytes.data(), file.bytes.size, path);
  if (!ops.ok() || ops->unsupported.empty()) return model.status();
  overview.model.format = ModelFormat::kTflite;
  overview.model.source_operators = std::move(ops->counts);
  overview.imported = false;
  overview.unsupported_operators = std::move(ops->unsupported);
  overview.import_error = model.status().message();
  return overview;
}

}  // namespace opuc
