//===- src/codegen/spans.cc - Where tiles start and end ---------------===//
#include "spans.h"

#include <algorithm>

namespace opuc::codegen {

std::vector<Span> AxisSpans(int64_t extent, int64_t tile, const AxisWindows* windows,
                            bool keep_all) {
  std::vector<Span> spans;
  if (windows == nullptr) {
    for (int64_t first = 0; first < extent; first += tile) {
      const int64_t size = std::min(tile, extent - first);
      spans.push_back({first, size, size, 0, 0, 0});
    }
    return spans;
  }
  const AxisWindows& w = *windows;
  // Window p reads pixels [p·stride − pad, p·stride − pad + size) of the map.
  const auto start = [&](int64_t p) { return p * w.stride - w.pad; };
  for (int64_t p0 = 0; p0 < w.pooled; p0 += tile) {
    const int64_t p1 = std::min(w.pooled, p0 + tile);
    const int64_t first = std::max<int64_t>(0, start(p0));
    const int64_t next = p1 < w.pooled ? std::max<int64_t>(0, start(p1)) : extent;
    int64_t end = std::min(extent, start(p1 - 1) + w.size);
    if (keep_all) end = std::max(end, next);
    spans.push_back(
        {first, end - first, keep_all ? next - first : 0, p0, p1 - p0, first - start(p0)});
  }
  return spans;
}

int64_t LargestSpan(const std::vector<Span>& spans) {
  int64_t largest = 0;
  for (const Span& s : spans) largest = std::max(largest, s.size);
  return largest;
}

}  // namespace opuc::codegen
