//===- src/codegen/spans.h - Where tiles start and end ---------*- C++ -*-===//
//
// The tiles of a group along one axis (rows or columns). Without a pool,
// or with a global one, tiles of `tile` output pixels follow each other.
// With a windowed pool, a tile holds `tile` whole pooled pixels and every
// output pixel their windows read: windows that overlap (3x3 every 2)
// make neighbouring tiles share pixels, which each computes again; a
// window that starts in padding makes the first tile begin at pixel 0 with
// its window `pool_pad` pixels before. When the pool's input leaves the
// group too (a tap), tiles also cover the pixels no window reads, and each
// stores only the pixels up to where the next one begins.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_SPANS_H
#define OPUC_SRC_CODEGEN_SPANS_H

#include <cstdint>
#include <vector>

namespace opuc::codegen {

/// A pool's windows along one axis.
struct AxisWindows {
  int64_t size = 1, stride = 1, pad = 0;  ///< pad: pixels of padding before the first.
  int64_t pooled = 1;                     ///< Pooled pixels along the axis.
};

/// One tile along one axis.
struct Span {
  int64_t first = 0, size = 0;  ///< Its output pixels of the inner product.
  int64_t kept = 0;             ///< Of them, from `first`, the ones it stores.
  /// With a windowed pool: its pooled pixels, and how far before `first`
  /// the first one's window starts (in the padding).
  int64_t pooled_first = 0, pooled = 0, pool_pad = 0;
};

/// The tiles along an axis of `extent` output pixels: `tile` pixels each,
/// or, with `windows`, `tile` pooled pixels each; `keep_all` with a tap.
std::vector<Span> AxisSpans(int64_t extent, int64_t tile, const AxisWindows* windows,
                            bool keep_all);

/// The largest tile's output pixels.
int64_t LargestSpan(const std::vector<Span>& spans);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_SPANS_H
