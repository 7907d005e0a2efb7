//===- src/ir/ops/infer_util.cc - Shared pieces of shape inference --------===//
#include "ops/infer_util.h"

#include "support/format.h"

namespace opuc {

const std::vector<DType> kComputeDTypes = {DType::kF32, DType::kI8, DType::kU8, DType::kI16,
                                           DType::kI32};
const std::vector<DType> kFloatOrQuantized = {DType::kF32, DType::kF16, DType::kI8, DType::kU8,
                                              DType::kI16};

Status RequireRank(const Tensor& t, std::string_view role, size_t rank, std::string_view layout) {
  if (t.shape.size() == rank) return OkStatus();
  return InvalidArgument(Cat("input '", role, "' (tensor '", t.name, "') has shape ",
                             ShapeToString(t.shape), "; expected ", rank, " dimensions",
                             layout.empty() ? "" : " ", layout));
}

Status RequireDType(const Tensor& t, std::string_view role, const std::vector<DType>& allowed) {
  for (DType d : allowed)
    if (t.dtype == d) return OkStatus();
  return InvalidArgument(Cat("input '", role, "' (tensor '", t.name, "') has dtype ",
                             DTypeName(t.dtype), "; expected one of ",
                             JoinList(allowed, [](DType d) { return std::string(DTypeName(d)); })));
}

Status RequireSameDType(const Tensor& a, std::string_view role_a, const Tensor& b,
                        std::string_view role_b) {
  if (a.dtype == b.dtype) return OkStatus();
  if (IsQuantizedFormat(a.dtype) && IsQuantizedFormat(b.dtype)) return OkStatus();
  return InvalidArgument(Cat("input '", role_b, "' has dtype ", DTypeName(b.dtype), "; expected ",
                             DTypeName(a.dtype), " like '", role_a, "'"));
}

Expected<size_t> ResolveAxis(int64_t axis, size_t rank, std::string_view what) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return InvalidArgument(Cat(what, " ", axis, " is out of range for rank ", rank));
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

Expected<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return InvalidArgument(Cat("shapes ", ShapeToString(a), " and ", ShapeToString(b),
                                 " do not broadcast (dimension ", i, ": ", da, " vs ", db, ")"));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace opuc
