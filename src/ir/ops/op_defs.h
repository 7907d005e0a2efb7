//===- src/ir/ops/op_defs.h - Per-op definitions (private) ------*- C++ -*-===//
//
// One DefineOp<Name>() per line of ops.def, each in the src/ir/ops/ file of
// its family (inputs, outputs, inference); op_registry.cc calls them once to
// build the registry and adds the attributes of op_attrs.def.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_IR_OPS_OP_DEFS_H
#define OPUC_SRC_IR_OPS_OP_DEFS_H

#include "opuc/ir/op_registry.h"

namespace opuc {

#define OPUC_OP(Enum, name, pattern) OpDef DefineOp##Enum();
#include "opuc/ir/ops.def"

/// The attributes op_attrs.def declares for `op`; the registry puts them in
/// each OpDef (src/ir/op_attrs.cc).
std::vector<AttrSpec> DeclaredAttrSpecs(OpKind op);

}  // namespace opuc

#endif  // OPUC_SRC_IR_OPS_OP_DEFS_H
