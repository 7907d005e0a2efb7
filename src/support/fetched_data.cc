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

const std::vector<std::string>& FetchedModelNames() {
  static const std::vector<std::string> names = {"face_detection_short_range",
                                                 "face_detection_full_range",
                                                 "face_detection_full_range_sparse",
                                                 "selfie_segmentation",
                                                 "selfie_segmentation_landscape",
                                                 "hand_landmark_lite",
                                                 "hand_landmark_full",
                                                 "palm_detection_lite",
                                                 "palm_detection_full",
                                                 "pose_detection",
                                                 "pose_landmark_lite",
                                                 "pose_landmark_full",
                                                 "pose_landmark_heavy"};
  return names;
}

}  // namespace opuc
