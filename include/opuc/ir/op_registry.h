//===- opuc/ir/op_registry.h - What each op accepts and produces -*- C++ -*-===//
//
// The registry is the single description of every op: its pattern kind for
// fusion, its inputs, its attributes (type, range, default) and its shape and
// type inference. The list of ops is ops.def; each op's definition is a
// DefineOp<Name>() function in src/ir/ops/.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_OP_REGISTRY_H
#define OPUC_IR_OP_REGISTRY_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opuc/ir/attributes.h"
#include "opuc/ir/op_kind.h"
#include "opuc/ir/op_pattern.h"
#include "opuc/ir/tensor.h"
#include "opuc/status.h"

namespace opuc {

struct InputSpec {
  InputSpec(std::string input_name, bool is_optional = false, bool is_variadic = false)
      : name(std::move(input_name)), optional(is_optional), variadic(is_variadic) {}
  std::string name;       ///< "input", "weights", "bias", ...
  bool optional = false;  ///< May be kNoTensor.
  bool variadic = false;  ///< Last spec only: one or more tensors (concat).
};

struct AttrSpec {
  std::string name;
  AttrType type = AttrType::kInt;
  /// nullopt: the attribute is required.
  std::optional<AttrValue> default_value;
  /// Inclusive range for kInt and for every element of kInts; by default
  /// ±kMaxExtent, so that inference can multiply attributes and extents.
  int64_t min = -kMaxExtent;
  int64_t max = kMaxExtent;
  /// Allowed values of a kString attribute; empty allows any.
  std::vector<std::string> choices;
  /// Required number of elements of a list; 0 allows any.
  size_t length = 0;

  /// An attribute the node must set.
  static AttrSpec Required(std::string name, AttrType type) {
    AttrSpec spec;
    spec.name = std::move(name);
    spec.type = type;
    return spec;
  }
};

struct Graph;

/// What inference sees: the input tensors (nullptr where an optional input is
/// absent) and the node's attributes, complete (defaults filled) and valid.
struct InferContext {
  std::vector<const Tensor*> inputs;
  const Attributes* attrs = nullptr;
  /// The node's body (Node::body); only `fused` reads it.
  const Graph* body = nullptr;
  /// The declared outputs, when there are any (a graph being verified or
  /// run): an output in a quantized format with a fixed point keeps its
  /// declared format where inference gives another quantized one, since the
  /// quantizer, not the op, chooses between i8, u8 and i16 (numerics.md §1).
  std::vector<const Tensor*> outputs;
};

/// Computes the output types, or an error naming the input or attribute at
/// fault and what was expected (the caller prefixes the node).
using InferFn = Expected<std::vector<TensorType>> (*)(const InferContext&);

struct OpDef {
  std::vector<InputSpec> inputs;
  std::vector<AttrSpec> attrs;
  int num_outputs = 1;
  InferFn infer = nullptr;
};

struct OpInfo {
  OpKind kind;
  std::string_view name;
  OpPatternKind pattern;
  OpDef def;
};

/// The registry entry of `op`.
const OpInfo& GetOpInfo(OpKind op);

/// Checks `attrs` against the op's AttrSpecs: no unknown names, every value of
/// the declared type, in range, of the declared length, required ones present.
Status ValidateAttributes(OpKind op, const Attributes& attrs);

/// Adds the defaults of declared attributes that `attrs` lacks.
void FillDefaultAttributes(OpKind op, Attributes* attrs);

/// Checks the input count against the op's InputSpecs and that `ctx.attrs`
/// passes ValidateAttributes with every declared attribute present (after
/// FillDefaultAttributes), then runs inference. Errors are prefixed "<op>: ".
Expected<std::vector<TensorType>> InferOutputTypes(OpKind op, const InferContext& ctx);

}  // namespace opuc

#endif  // OPUC_IR_OP_REGISTRY_H
