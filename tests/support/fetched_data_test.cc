// Where the fetch scripts put their data, computed as scripts/fetch-models
// and scripts/fetch-images compute it (${OPUC_MODELS_DIR:-${XDG_CACHE_HOME:-
// $HOME/.cache}/opuc/models}).
#include "support/fetched_data.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opuc {
namespace {

// Sets variables for one test and puts the old values back.
class Environment {
 public:
  ~Environment() {
    for (const auto& [name, value] : saved_) Set(name.c_str(), value ? value->c_str() : nullptr);
  }
  void Set(const char* name, const char* value) {
    if (!saved_.count(name)) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST_CASE("the variable, then XDG_CACHE_HOME, then HOME, an empty variable counts as unset") {
  Environment env;
  env.Set("OPUC_MODELS_DIR", "/data/models");
  env.Set("OPUC_IMAGES_DIR", "");
  env.Set("XDG_CACHE_HOME", "/xdg");
  env.Set("HOME", "/home/u");
  CHECK(FetchedModelsDir() == "/data/models");
  CHECK(FetchedImagesDir() == "/xdg/opuc/images");
  env.Set("XDG_CACHE_HOME", nullptr);
  env.Set("OPUC_MODELS_DIR", nullptr);
  CHECK(FetchedModelsDir() == "/home/u/.cache/opuc/models");
  CHECK(FetchedImagesDir() == "/home/u/.cache/opuc/images");
  env.Set("HOME", nullptr);
  CHECK(FetchedImagesDir() == "./.cache/opuc/images");
}

TEST_CASE("the model names are the files scripts/models.sha256 lists, in its order") {
  std::ifstream manifest(std::string(OPUC_SOURCE_DIR) + "/scripts/models.sha256");
  REQUIRE(manifest.good());
  std::vector<std::string> listed;
  for (std::string sha, file; manifest >> sha >> file;)
    listed.push_back(file.substr(0, file.size() - std::string(".tflite").size()));
  CHECK(listed.size() == 13);
  CHECK(FetchedModelNames() == listed);
}

}  // namespace
}  // namespace opuc
