//===- src/ir/shape.cc - Tensor shapes ------------------------------------===//
#include "opuc/ir/shape.h"

#include <limits>

namespace opuc {

std::optional<int64_t> NumElements(const Shape& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) {
    if (extent < 0) return std::nullopt;
    if (extent != 0 && count > std::numeric_limits<int64_t>::max() / extent) return std::nullopt;
    count *= extent;
  }
  return count;
}

std::string ShapeToString(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace opuc
