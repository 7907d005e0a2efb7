//===- src/frontend/tflite_sparsity.cc - SparsityParameters to Sparsity ---===//
//
// The file stores each CSR dimension's segments and indices as a union of
// int32, uint16 or uint8 vectors (whichever is smallest for the values); the
// IR keeps int32. Consistency with the tensor's shape and data is checked
// afterwards by CheckSparsity (src/ir/sparsity.cc).
//
//===----------------------------------------------------------------------===//
#include "support/fb_vector.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

template <typename T>
std::vector<int32_t> Widen(const flatbuffers::Vector<T>* values) {
  std::vector<T> raw = CopyScalars(values);
  return std::vector<int32_t>(raw.begin(), raw.end());
}

/// The values of a SparseIndexVector union, as int32.
Expected<std::vector<int32_t>> ReadIndexVector(const tfl::DimensionMetadata& dim, bool segments,
                                               std::string_view field) {
  const tfl::SparseIndexVector type =
      segments ? dim.array_segments_type() : dim.array_indices_type();
  switch (type) {
    case tfl::SparseIndexVector::Int32Vector: {
      const auto* v =
          segments ? dim.array_segments_as_Int32Vector() : dim.array_indices_as_Int32Vector();
      if (v) return CopyScalars(v->values());
      break;
    }
    case tfl::SparseIndexVector::Uint16Vector: {
      const auto* v =
          segments ? dim.array_segments_as_Uint16Vector() : dim.array_indices_as_Uint16Vector();
      if (v) return Widen(v->values());
      break;
    }
    case tfl::SparseIndexVector::Uint8Vector: {
      const auto* v =
          segments ? dim.array_segments_as_Uint8Vector() : dim.array_indices_as_Uint8Vector();
      if (v) return Widen(v->values());
      break;
    }
    default:
      return InvalidArgument(Cat(field, " has index vector type ", static_cast<int>(type),
                                 "; expected Int32Vector (1), Uint16Vector (2) or"
                                 " Uint8Vector (3)"));
  }
  return InvalidArgument(Cat(field, " is missing; a SPARSE_CSR dimension needs it"));
}

}  // namespace

Expected<Sparsity> ReadSparsity(const tfl::SparsityParameters& params) {
  Sparsity sparsity;
  sparsity.traversal_order = CopyScalars(params.traversal_order());
  sparsity.block_map = CopyScalars(params.block_map());
  if (!params.dim_metadata()) return sparsity;
  for (flatbuffers::uoffset_t i = 0; i < params.dim_metadata()->size(); ++i) {
    const tfl::DimensionMetadata& dim = *params.dim_metadata()->Get(i);
    const std::string where = Cat("sparsity.dim_metadata[", i, "]");
    SparseDimension out;
    switch (dim.format()) {
      case tfl::DimensionType::DENSE:
        out.dense = true;
        out.dense_size = dim.dense_size();
        break;
      case tfl::DimensionType::SPARSE_CSR: {
        out.dense = false;
        OPUC_ASSIGN_OR_RETURN(out.segments,
                              ReadIndexVector(dim, true, Cat(where, ".array_segments")));
        OPUC_ASSIGN_OR_RETURN(out.indices,
                              ReadIndexVector(dim, false, Cat(where, ".array_indices")));
        break;
      }
      default:
        return InvalidArgument(Cat(where, ".format is ", static_cast<int>(dim.format()),
                                   "; expected DENSE (0) or SPARSE_CSR (1)"));
    }
    sparsity.dimensions.push_back(std::move(out));
  }
  return sparsity;
}

}  // namespace opuc
