//===- opuc/ir/tensor.h - Tensors of the IR ---------------------*- C++ -*-===//
#ifndef OPUC_IR_TENSOR_H
#define OPUC_IR_TENSOR_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opuc/ir/constant_data.h"
#include "opuc/ir/dtype.h"
#include "opuc/ir/shape.h"
#include "opuc/ir/sparsity.h"

namespace opuc {

/// Index of a tensor in Graph::tensors.
using TensorId = int32_t;
/// Marks an absent optional input (a convolution without bias).
inline constexpr TensorId kNoTensor = -1;

/// OPU fixed point: real = q * 2^-fraction_bits. One value for the whole
/// tensor (axis = -1), or one per index along `axis` (weights per output
/// channel). Empty until the quantizer sets it.
struct FixedPoint {
  std::vector<int32_t> fraction_bits;
  int32_t axis = -1;

  bool empty() const { return fraction_bits.empty(); }
  bool operator==(const FixedPoint& o) const {
    return fraction_bits == o.fraction_bits && axis == o.axis;
  }
};

/// Element type and shape; what shape inference produces.
struct TensorType {
  DType dtype = DType::kF32;
  Shape shape;
  bool operator==(const TensorType& o) const { return dtype == o.dtype && shape == o.shape; }
};

/// An optional Sparsity, read like std::optional<Sparsity>, but held behind
/// a shared pointer to an immutable value: 16 bytes in every Tensor where
/// the optional took 80, for a field only TFLite DENSIFY inputs set.
/// Copies of a tensor share the value; assigning replaces it.
class SharedSparsity {
 public:
  SharedSparsity() = default;
  SharedSparsity(std::nullopt_t) {}  // NOLINT: like std::optional
  SharedSparsity(Sparsity value)     // NOLINT: like std::optional
      : value_(std::make_shared<const Sparsity>(std::move(value))) {}

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const Sparsity& operator*() const { return *value_; }
  const Sparsity* operator->() const { return value_.get(); }
  void reset() { value_.reset(); }

  /// Compares the values, as std::optional does.
  bool operator==(const SharedSparsity& o) const {
    return value_ == o.value_ || (value_ && o.value_ && *value_ == *o.value_);
  }
  bool operator!=(const SharedSparsity& o) const { return !(*this == o); }

 private:
  std::shared_ptr<const Sparsity> value_;
};

struct Tensor {
  std::string name;  ///< Unique within the graph.
  DType dtype = DType::kF32;
  Shape shape;
  FixedPoint fixed_point;
  /// Set for constants: exactly NumElements(shape) * DTypeSize(dtype) bytes,
  /// or, when `sparsity` is set, the stored values only.
  std::optional<ConstantData> constant;
  /// Set for sparse constants (TFLite DENSIFY inputs); see sparsity.h.
  SharedSparsity sparsity;

  bool is_constant() const { return constant.has_value(); }
  TensorType type() const { return {dtype, shape}; }
};

}  // namespace opuc

#endif  // OPUC_IR_TENSOR_H
