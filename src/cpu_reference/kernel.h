//===- src/cpu_reference/kernel.h - What a reference kernel sees -*- C++ -*-===//
//
// A kernel is `Status Eval<Op>(KernelContext&)`, one per line of ops.def, in
// the file named after the op. EvaluateNode has already checked the inputs
// against the graph and recomputed the output types, so a kernel may rely on
// the shapes and attributes the registry guarantees; it checks only the
// dtypes it implements, and its errors get the node's name prefixed.
// "Quantized" in a kernel's header means any of the formats i8, u8 and i16
// (docs/numerics.md §1b): inputs are read as their integers, and the output
// saturates once to its own format.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_KERNEL_H
#define OPUC_SRC_CPU_REFERENCE_KERNEL_H

#include <functional>
#include <string_view>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::reference {

/// Where AllocateOutput takes output `i` of a node (a zero-filled tensor of
/// `type`) from, when not from the heap: the CPU executor's arena.
using OutputAllocator = std::function<Expected<HostTensor>(size_t i, const TensorType& type)>;

class KernelContext {
 public:
  /// `output_types` must outlive the context (the caller's, often kept from
  /// one call to the next).
  KernelContext(const Graph& graph, NodeId id, const std::vector<const HostTensor*>& inputs,
                const std::vector<TensorType>& output_types, std::vector<HostTensor>* outputs,
                const OutputAllocator* allocator = nullptr)
      : graph_(graph),
        id_(id),
        inputs_(inputs),
        output_types_(output_types),
        outputs_(outputs),
        allocator_(allocator) {}
  /// Not from a temporary: the context keeps a reference to the types.
  KernelContext(const Graph&, NodeId, const std::vector<const HostTensor*>&,
                std::vector<TensorType>&&, std::vector<HostTensor>*,
                const OutputAllocator* = nullptr) = delete;

  const Graph& graph() const { return graph_; }
  const Node& node() const { return graph_.node(id_); }
  const Attributes& attrs() const { return node().attrs; }
  /// Where AllocateOutput takes outputs from (nullptr: the heap).
  const OutputAllocator* allocator() const { return allocator_; }

  size_t num_inputs() const { return inputs_.size(); }
  /// Input `i`, or nullptr when the optional input is absent.
  const HostTensor* input(size_t i) const { return i < inputs_.size() ? inputs_[i] : nullptr; }
  /// The graph tensor behind input `i` (for DENSIFY's sparse constant and
  /// DEQUANTIZE's fixed point); the input must be present.
  const Tensor& input_tensor(size_t i) const { return graph_.tensor(node().inputs[i]); }
  /// The graph tensor of output `i` (for the fixed point of an i8 result).
  const Tensor& output_tensor(size_t i = 0) const { return graph_.tensor(node().outputs[i]); }

  /// Allocates output `i` (zero-filled) with the inferred type.
  Expected<HostTensor*> AllocateOutput(size_t i = 0);
  /// Takes `value` as output `i`; its type must be the inferred one.
  Status SetOutput(size_t i, HostTensor value);

  /// Unsupported: "input 'weights' has dtype i8; the float reference
  /// implements f32" (EvaluateNode adds the node).
  Status UnsupportedDType(std::string_view role, DType dtype,
                          std::string_view implemented = "f32") const;

 private:
  const Graph& graph_;
  NodeId id_;
  const std::vector<const HostTensor*>& inputs_;
  const std::vector<TensorType>& output_types_;
  std::vector<HostTensor>* outputs_;
  const OutputAllocator* allocator_;
};

using KernelFn = Status (*)(KernelContext&);

#define OPUC_OP(Enum, name, pattern) Status Eval##Enum(KernelContext& ctx);
#include "opuc/ir/ops.def"

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_KERNEL_H
