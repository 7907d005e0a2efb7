//===- tests/frontend/model_cache.cc - The real models, from the cache ----===//
#include "frontend/model_cache.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/fetched_data.h"

namespace opuc::test {

std::string ModelsDir() { return FetchedModelsDir(); }

std::string ModelPath(const std::string& file) {
  const std::string path = ModelsDir() + "/" + file;
  REQUIRE_MESSAGE(std::filesystem::is_regular_file(path),
                  "model " << path
                           << " is missing: run scripts/fetch-models (or scripts/setup)"
                              " to download the test models, or point OPUC_MODELS_DIR at them");
  return path;
}

std::vector<uint8_t> ReadModel(const std::string& file) {
  std::ifstream in(ModelPath(file), std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

const std::vector<std::string>& RealModelNames() { return FetchedModelNames(); }

}  // namespace opuc::test
