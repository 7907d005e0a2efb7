//===- src/opug/opug_file.cc - .opug and .opug.json files -------------===//
#include "opuc/opug/opug.h"

#include "opuc/file_io/file_io.h"

namespace opuc {

bool IsOpugJsonPath(std::string_view path) {
  constexpr std::string_view kSuffix = ".json";
  return path.size() >= kSuffix.size() && path.substr(path.size() - kSuffix.size()) == kSuffix;
}

Expected<Graph> LoadOpugFile(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, ReadFileAligned(path));
  if (IsOpugJsonPath(path))
    return ReadOpugJson(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size),
                        path);
  return ReadOpug(bytes.owner, bytes.data(), bytes.size, path);
}

Status SaveOpugFile(const Graph& graph, const std::string& path) {
  if (IsOpugJsonPath(path)) {
    Expected<std::string> json = OpugToJson(graph);
    if (!json.ok()) return json.status().WithContext(path);
    return WriteFileBytes(path, json->data(), json->size());
  }
  Expected<std::vector<uint8_t>> bytes = WriteOpug(graph);
  if (!bytes.ok()) return bytes.status().WithContext(path);
  return WriteFileBytes(path, bytes->data(), bytes->size());
}

}  // namespace opuc
