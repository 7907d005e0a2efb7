//===- src/support/fetched_data.cc - Where the fetch scripts put data -----===//
#include "support/fetched_data.h"

#include <cstdlib>

namespace opuc {
namespace {

// As the scripts compute it; a variable set but empty counts as unset.
std::string CacheFolder(const char* variable, const char* leaf) {
  if (const char* dir = std::getenv(variable); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/opuc/" + leaf;
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.cache/opuc/" + leaf;
}

}  // namespace

std::string FetchedModelsDir() { return CacheFolder("OPUC_MODELS_DIR", "models"); }

std::string FetchedImagesDir() { return CacheFolder("OPUC_IMAGES_DIR", "images"); }

}  // namespace opuc
