//===- src/ir/sparsity.cc - Sparse constants (TFLite's TACO encoding) -----===//
//
// A dense tensor of rank n, with a k-dimensional block (k <= n), is walked as
// n + k levels: the first n traversal_order entries permute the original
// dimensions (each blocked one now counting blocks), the last k permute the
// block dimensions (block_map[j] is the original dimension that block
// dimension n + j splits). Each level is dense (every index in order) or CSR:
// positions p of the previous level own indices[segments[p], segments[p+1]).
// A dense level's positions are parent * extent + index; a CSR level's are
// its entries. The leaves, in walk order, are the stored values.
//
// Every index a level yields adds index * weight to the dense element offset,
// so the walk never rebuilds coordinates.
//
//===----------------------------------------------------------------------===//
#include "opuc/ir/sparsity.h"

#include <cstring>
#include <new>

#include "opuc/ir/tensor.h"
#include "support/format.h"

namespace opuc {
namespace {

struct Level {
  const SparseDimension* dim = nullptr;
  int64_t extent = 0;  ///< Indices this level ranges over.
  int64_t weight = 0;  ///< Dense elements one index step moves.
};

std::string DimField(size_t level, std::string_view field) {
  return Cat("sparsity dimensions[", level, "].", field);
}

/// Checks that `order[begin, end)` is a permutation of [base, base + count).
Status CheckPermutation(const std::vector<int32_t>& order, size_t begin, size_t count, int64_t base,
                        std::string_view what) {
  std::vector<bool> seen(count, false);
  for (size_t i = begin; i < begin + count; ++i) {
    const int64_t v = int64_t{order[i]} - base;
    if (v < 0 || v >= static_cast<int64_t>(count) || seen[static_cast<size_t>(v)])
      return InvalidArgument(Cat("sparsity traversal_order is ",
                                 JoinList(order, [](int32_t x) { return Cat(x); }), "; its ", what,
                                 " must be a permutation of ", base, "..",
                                 base + static_cast<int64_t>(count) - 1));
    seen[static_cast<size_t>(v)] = true;
  }
  return OkStatus();
}

/// Validates traversal_order, block_map and the block sizes, and computes
/// each level's extent and weight.
Expected<std::vector<Level>> PlanLevels(const Tensor& tensor) {
  const Sparsity& s = *tensor.sparsity;
  const Shape& shape = tensor.shape;
  const size_t n = shape.size();
  const size_t k = s.block_map.size();
  if (n == 0)
    return InvalidArgument("sparsity needs a tensor of rank 1 or more; this one is a scalar");
  if (k > n)
    return InvalidArgument(
        Cat("sparsity block_map has ", k, " entries; at most ", n, " (one per dimension)"));
  if (s.traversal_order.size() != n + k)
    return InvalidArgument(Cat("sparsity traversal_order has ", s.traversal_order.size(),
                               " entries; expected ", n + k, " (rank ", n, " + ", k,
                               " block dimensions)"));
  if (s.dimensions.size() != n + k)
    return InvalidArgument(Cat("sparsity has ", s.dimensions.size(), " dimensions; expected ",
                               n + k, " (one per traversal_order entry)"));
  OPUC_RETURN_IF_ERROR(CheckPermutation(s.traversal_order, 0, n, 0, "first entries"));
  OPUC_RETURN_IF_ERROR(
      CheckPermutation(s.traversal_order, n, k, static_cast<int64_t>(n), "block entries"));
  std::vector<size_t> level_of(n + k);
  for (size_t p = 0; p < n + k; ++p) level_of[static_cast<size_t>(s.traversal_order[p])] = p;

  std::vector<int64_t> block_size(n, 1);
  std::vector<bool> blocked(n, false);
  for (size_t j = 0; j < k; ++j) {
    const int32_t d = s.block_map[j];
    if (d < 0 || static_cast<size_t>(d) >= n || blocked[static_cast<size_t>(d)])
      return InvalidArgument(Cat("sparsity block_map[", j, "] is ", d,
                                 "; expected a dimension in 0..", n - 1, " not blocked twice"));
    const size_t level = level_of[n + j];
    const SparseDimension& dim = s.dimensions[level];
    if (!dim.dense || dim.dense_size < 1)
      return InvalidArgument(Cat(DimField(level, "dense_size"), ": block dimension ", n + j,
                                 " must be dense with a size of at least 1"));
    if (shape[static_cast<size_t>(d)] % dim.dense_size != 0)
      return InvalidArgument(Cat(DimField(level, "dense_size"), " is ", dim.dense_size,
                                 ", which does not divide extent ", shape[static_cast<size_t>(d)],
                                 " of dimension ", d));
    blocked[static_cast<size_t>(d)] = true;
    block_size[static_cast<size_t>(d)] = dim.dense_size;
  }
  std::vector<int64_t> stride(n, 1);
  for (size_t d = n - 1; d > 0; --d) stride[d - 1] = stride[d] * shape[d];

  std::vector<Level> levels(n + k);
  for (size_t p = 0; p < n + k; ++p) {
    const auto t = static_cast<size_t>(s.traversal_order[p]);
    Level& level = levels[p];
    level.dim = &s.dimensions[p];
    if (t < n) {
      level.extent = shape[t] / block_size[t];
      level.weight = block_size[t] * stride[t];
    } else {
      const auto d = static_cast<size_t>(s.block_map[t - n]);
      level.extent = block_size[d];
      level.weight = stride[d];
    }
  }
  return levels;
}

/// Checks one CSR level under `parents` positions; returns its entry count.
Expected<int64_t> CheckCsrLevel(const Level& level, size_t index, int64_t parents) {
  const SparseDimension& dim = *level.dim;
  const std::vector<int32_t>& seg = dim.segments;
  if (static_cast<int64_t>(seg.size()) - 1 != parents)
    return InvalidArgument(Cat(DimField(index, "segments"), " has ", seg.size(),
                               " entries; expected ", parents + 1,
                               " (positions of the previous level + 1)"));
  if (seg.front() != 0)
    return InvalidArgument(
        Cat(DimField(index, "segments"), " starts at ", seg.front(), "; expected 0"));
  if (seg.back() < 0 || static_cast<size_t>(seg.back()) != dim.indices.size())
    return InvalidArgument(Cat(DimField(index, "segments"), " ends at ", seg.back(), "; expected ",
                               dim.indices.size(), " (the number of indices)"));
  // Monotonic first: then every segment lies inside `indices`.
  for (size_t p = 0; p + 1 < seg.size(); ++p)
    if (seg[p + 1] < seg[p])
      return InvalidArgument(Cat(DimField(index, "segments"), " decreases at entry ", p + 1));
  for (size_t p = 0; p + 1 < seg.size(); ++p) {
    for (int32_t i = seg[p]; i < seg[p + 1]; ++i) {
      const int32_t v = dim.indices[static_cast<size_t>(i)];
      if (v < 0 || v >= level.extent)
        return InvalidArgument(Cat(DimField(index, "indices"), "[", i, "] is ", v, "; expected 0..",
                                   level.extent - 1));
      if (i > seg[p] && v <= dim.indices[static_cast<size_t>(i) - 1])
        return InvalidArgument(Cat(DimField(index, "indices"), "[", i, "] is ", v,
                                   "; indices within a segment must increase"));
    }
  }
  return static_cast<int64_t>(dim.indices.size());
}

}  // namespace

Expected<int64_t> CheckSparsity(const Tensor& tensor) {
  if (!tensor.sparsity) return InvalidArgument("has no sparsity");
  if (!tensor.constant)
    return InvalidArgument("has sparsity but no constant data; only constants can be sparse");
  if (!NumElements(tensor.shape))
    return InvalidArgument(
        Cat("shape ", ShapeToString(tensor.shape), " has a negative extent or too many elements"));
  OPUC_ASSIGN_OR_RETURN(std::vector<Level> levels, PlanLevels(tensor));
  // A level has at most (positions above) × extent positions, so the count
  // never exceeds the dense element count.
  int64_t positions = 1;
  for (size_t i = 0; i < levels.size(); ++i) {
    const Level& level = levels[i];
    if (level.dim->dense) {
      if (level.dim->dense_size != level.extent)
        return InvalidArgument(Cat(DimField(i, "dense_size"), " is ", level.dim->dense_size,
                                   "; expected ", level.extent, " (the extent of that level)"));
      if (!level.dim->segments.empty() || !level.dim->indices.empty())
        return InvalidArgument(
            Cat("sparsity dimensions[", i, "] is dense but has segments or indices"));
      positions *= level.extent;
      continue;
    }
    OPUC_ASSIGN_OR_RETURN(positions, CheckCsrLevel(level, i, positions));
  }
  const uint64_t size = DTypeSize(tensor.dtype);
  const uint64_t bytes = tensor.constant->size();
  if (bytes % size != 0 || bytes / size != static_cast<uint64_t>(positions))
    return InvalidArgument(Cat("sparse constant holds ", bytes, " bytes; its sparsity stores ",
                               positions, " values of ", DTypeName(tensor.dtype), " (",
                               static_cast<uint64_t>(positions) * size, " bytes)"));
  return positions;
}

Expected<ConstantData> DensifyConstant(const Tensor& tensor) {
  OPUC_RETURN_IF_ERROR(CheckSparsity(tensor).status());
  OPUC_ASSIGN_OR_RETURN(std::vector<Level> levels, PlanLevels(tensor));
  const size_t esize = DTypeSize(tensor.dtype);
  const auto elements = static_cast<uint64_t>(*NumElements(tensor.shape));
  if (elements > SIZE_MAX / esize)
    return Unsupported(
        Cat("dense form of shape ", ShapeToString(tensor.shape), " does not fit in memory"));
  const size_t bytes = static_cast<size_t>(elements) * esize;
  std::shared_ptr<uint8_t> owner = NewAlignedBuffer(bytes);
  if (!owner) return Unsupported(Cat("cannot allocate ", bytes, " bytes for the dense constant"));
  uint8_t* raw = owner.get();
  std::memset(raw, 0, bytes);

  // An odometer over the levels: cur/end range over a level's entries,
  // parent is the position above it and base the dense offset so far.
  const size_t depth = levels.size();
  std::vector<int64_t> cur(depth), end(depth), parent(depth), base(depth);
  const auto enter = [&](size_t l, int64_t parent_pos, int64_t offset) {
    const SparseDimension& dim = *levels[l].dim;
    parent[l] = parent_pos;
    base[l] = offset;
    cur[l] = dim.dense ? 0 : dim.segments[static_cast<size_t>(parent_pos)];
    end[l] = dim.dense ? levels[l].extent : dim.segments[static_cast<size_t>(parent_pos) + 1];
  };
  const uint8_t* values = tensor.constant->data();
  size_t stored = 0;
  size_t l = 0;
  enter(0, 0, 0);
  while (true) {
    if (cur[l] == end[l]) {
      if (l == 0) break;
      ++cur[--l];
      continue;
    }
    const Level& level = levels[l];
    const bool dense = level.dim->dense;
    const int64_t index = dense ? cur[l] : level.dim->indices[static_cast<size_t>(cur[l])];
    const int64_t offset = base[l] + index * level.weight;
    if (l + 1 == depth) {
      std::memcpy(raw + static_cast<size_t>(offset) * esize, values + stored * esize, esize);
      ++stored;
      ++cur[l];
      continue;
    }
    const int64_t position = dense ? parent[l] * level.extent + cur[l] : cur[l];
    enter(++l, position, offset);
  }
  return ConstantData::View(std::move(owner), raw, bytes);
}

}  // namespace opuc
