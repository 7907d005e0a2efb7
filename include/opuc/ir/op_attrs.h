//===- opuc/ir/op_attrs.h - Typed views of node attributes -------*- C++ -*-===//
//
// A node stores its attributes as a name → value map (attributes.h); code
// that runs an op reads them once, through the typed view generated from
// op_attrs.def: `Conv2DAttrs::Of(node.attrs).strides[0]`. A misspelt name
// is then a compile error, and the strings "same" or "relu6" are read in
// one place. The registry's attribute specs come from the same table.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_OP_ATTRS_H
#define OPUC_IR_OP_ATTRS_H

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "opuc/ir/attributes.h"
#include "opuc/ir/op_kind.h"

namespace opuc {

using Ints = std::vector<int64_t>;
/// Two values, height then width (strides, dilations, a pool's filter).
using Pair = std::array<int64_t, 2>;

/// TFLite's window padding: "same" keeps ceil(input / stride) outputs,
/// "valid" only windows inside the input.
enum class Padding : uint8_t { kSame, kValid };

/// The activation fused into an op (TFLite's fused_activation_function).
enum class Activation : uint8_t { kNone, kRelu, kReluN1To1, kRelu6, kTanh };

/// "same", "valid".
std::string_view PaddingName(Padding padding);
/// "none", "relu", "relu_n1_to_1", "relu6", "tanh".
std::string_view ActivationName(Activation activation);
std::optional<Activation> ActivationFromName(std::string_view name);

/// Whether `op` declares an `activation` attribute (conv, pool, add, ...).
bool HasFusedActivation(OpKind op);
/// The fused activation of any op that has one; kNone for the others.
Activation FusedActivation(const Attributes& attrs);
/// Sets the `activation` attribute.
void SetFusedActivation(Attributes& attrs, Activation activation);

// One struct per op with attributes: Conv2DAttrs, MaxPool2DAttrs, ... Of()
// reads a verified node's attributes; an absent one takes its declared
// default.
#define OPUC_ATTRS(Op) \
  struct Op##Attrs {   \
    static Op##Attrs Of(const Attributes& attrs);
#define OPUC_ATTR(name, Type, constraints) Type name{};
#define OPUC_ATTRS_END \
  }                    \
  ;
#include "opuc/ir/op_attrs.def"

}  // namespace opuc

#endif  // OPUC_IR_OP_ATTRS_H
