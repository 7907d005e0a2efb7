//===- src/cpu/mean_extents.h - A mean as outer × count × inner -*- C++ -*-===//
#ifndef OPUC_SRC_CPU_MEAN_EXTENTS_H
#define OPUC_SRC_CPU_MEAN_EXTENTS_H

#include <cstdint>
#include <vector>

#include "opuc/ir/shape.h"

namespace opuc::cpu {

/// A mean whose reduced axes are one run [a, b) of the input's dimensions
/// sees its input as outer × count × inner: output element (o, i) averages
/// the `count` elements in[o][r][i]. `count` < 0 when the axes are not one
/// run, or one is out of range.
struct MeanExtents {
  int64_t outer = 1, count = 1, inner = 1;
};
MeanExtents MeanExtentsOf(const Shape& shape, const std::vector<int64_t>& axes);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_MEAN_EXTENTS_H
