//===- src/ir/op_registry.cc - What each op accepts and produces ----------===//
#include "opuc/ir/op_registry.h"

#include <array>

#include "ops/op_defs.h"
#include "support/format.h"

namespace opuc {
namespace {

using Table = std::array<OpInfo, kNumOpKinds>;

OpDef WithDeclaredAttrs(OpDef def, OpKind op) {
  def.attrs = DeclaredAttrSpecs(op);
  return def;
}

Table BuildTable() {
  return Table{{
#define OPUC_OP(Enum, name, pattern)                    \
  OpInfo{OpKind::k##Enum, name, OpPatternKind::pattern, \
         WithDeclaredAttrs(DefineOp##Enum(), OpKind::k##Enum)},
#include "opuc/ir/ops.def"
  }};
}

const AttrSpec* FindSpec(const OpDef& def, std::string_view name) {
  for (const AttrSpec& spec : def.attrs)
    if (spec.name == name) return &spec;
  return nullptr;
}

Status CheckRange(const AttrSpec& spec, int64_t value) {
  if (value >= spec.min && value <= spec.max) return OkStatus();
  return InvalidArgument(Cat("attribute '", spec.name, "' is ", value, "; expected a value in [",
                             spec.min, ", ", spec.max, "]"));
}

Status CheckValue(const AttrSpec& spec, const AttrValue& value) {
  if (TypeOf(value) != spec.type)
    return InvalidArgument(Cat("attribute '", spec.name, "' is ", AttrTypeName(TypeOf(value)), " ",
                               AttrValueToString(value), "; expected ", AttrTypeName(spec.type)));
  if (const auto* v = std::get_if<int64_t>(&value)) return CheckRange(spec, *v);
  if (const auto* v = std::get_if<std::string>(&value)) {
    if (spec.choices.empty()) return OkStatus();
    for (const std::string& choice : spec.choices)
      if (*v == choice) return OkStatus();
    return InvalidArgument(
        Cat("attribute '", spec.name, "' is ", Quote(*v), "; expected one of ",
            JoinList(spec.choices, [](const std::string& s) { return Quote(s); })));
  }
  size_t length = 0;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&value)) {
    for (int64_t element : *v) OPUC_RETURN_IF_ERROR(CheckRange(spec, element));
    length = v->size();
  } else if (const auto* f = std::get_if<std::vector<double>>(&value)) {
    length = f->size();
  } else {
    return OkStatus();
  }
  if (spec.length != 0 && length != spec.length)
    return InvalidArgument(
        Cat("attribute '", spec.name, "' has ", length, " elements; expected ", spec.length));
  return OkStatus();
}

Status CheckInputCount(const OpDef& def, const InferContext& ctx) {
  const size_t count = ctx.inputs.size();
  const bool variadic = !def.inputs.empty() && def.inputs.back().variadic;
  size_t required = 0;
  for (const InputSpec& spec : def.inputs)
    if (!spec.optional) ++required;
  if (count < required || (!variadic && count > def.inputs.size()))
    return InvalidArgument(
        Cat("has ", count, " inputs; expected ", variadic ? "at least " : "", required,
            (!variadic && required != def.inputs.size()) ? Cat(" to ", def.inputs.size())
                                                         : std::string()));
  for (size_t i = 0; i < count; ++i) {
    const InputSpec& spec = def.inputs[std::min(i, def.inputs.size() - 1)];
    if (ctx.inputs[i] == nullptr && !spec.optional)
      return InvalidArgument(Cat("input ", i, " '", spec.name, "' is required but absent"));
  }
  return OkStatus();
}

/// Inference reads every declared attribute without looking, so it runs only
/// on a valid and complete set: defaults filled in (Graph::AddNode does that).
Status CheckInferAttributes(OpKind op, const Attributes* attrs) {
  if (!attrs) return InvalidArgument("no attributes given");
  OPUC_RETURN_IF_ERROR(ValidateAttributes(op, *attrs));
  for (const AttrSpec& spec : GetOpInfo(op).def.attrs)
    if (!attrs->Has(spec.name))
      return InvalidArgument(Cat("attribute '", spec.name, "' is absent; expected it set (",
                                 "FillDefaultAttributes adds its default ",
                                 AttrValueToString(*spec.default_value), ")"));
  return OkStatus();
}

/// Inference multiplies extents by attribute values; bounding both (see
/// kMaxExtent) keeps every such product inside int64.
Status CheckInputExtents(const OpDef& def, const InferContext& ctx) {
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (!ctx.inputs[i]) continue;
    for (int64_t extent : ctx.inputs[i]->shape)
      if (extent < 0 || extent > kMaxExtent)
        return InvalidArgument(Cat("input ", i, " '",
                                   def.inputs[std::min(i, def.inputs.size() - 1)].name,
                                   "' has shape ", ShapeToString(ctx.inputs[i]->shape),
                                   "; every extent must be in [0, ", kMaxExtent, "]"));
  }
  return OkStatus();
}

}  // namespace

std::string_view OpPatternKindName(OpPatternKind kind) {
  switch (kind) {
    case OpPatternKind::kElemWise: return "elemwise";
    case OpPatternKind::kBroadcast: return "broadcast";
    case OpPatternKind::kInjective: return "injective";
    case OpPatternKind::kCommReduce: return "comm_reduce";
    case OpPatternKind::kOutEWiseFusable: return "out_ewise_fusable";
    case OpPatternKind::kTuple: return "tuple";
    case OpPatternKind::kOpaque: return "opaque";
  }
  return "<bad pattern>";
}

const OpInfo& GetOpInfo(OpKind op) {
  static const Table table = BuildTable();
  return table[static_cast<size_t>(op)];
}

Status ValidateAttributes(OpKind op, const Attributes& attrs) {
  const OpDef& def = GetOpInfo(op).def;
  for (const auto& [name, value] : attrs.entries()) {
    const AttrSpec* spec = FindSpec(def, name);
    if (!spec) return InvalidArgument(Cat("unknown attribute '", name, "' for ", OpName(op)));
    OPUC_RETURN_IF_ERROR(CheckValue(*spec, value));
  }
  for (const AttrSpec& spec : def.attrs)
    if (!spec.default_value && !attrs.Has(spec.name))
      return InvalidArgument(
          Cat("required attribute '", spec.name, "' (", AttrTypeName(spec.type), ") is missing"));
  return OkStatus();
}

void FillDefaultAttributes(OpKind op, Attributes* attrs) {
  for (const AttrSpec& spec : GetOpInfo(op).def.attrs)
    if (spec.default_value && !attrs->Has(spec.name)) attrs->Set(spec.name, *spec.default_value);
}

Expected<std::vector<TensorType>> InferOutputTypes(OpKind op, const InferContext& ctx) {
  const OpDef& def = GetOpInfo(op).def;
  Status counted = CheckInputCount(def, ctx);
  if (!counted.ok()) return counted.WithContext(OpName(op));
  Status attributed = CheckInferAttributes(op, ctx.attrs);
  if (!attributed.ok()) return attributed.WithContext(OpName(op));
  Status extents = CheckInputExtents(def, ctx);
  if (!extents.ok()) return extents.WithContext(OpName(op));
  Expected<std::vector<TensorType>> types = def.infer(ctx);
  if (!types.ok()) return types.status().WithContext(OpName(op));
  for (size_t i = 0; i < types->size() && i < ctx.outputs.size(); ++i) {
    const Tensor* declared = ctx.outputs[i];
    TensorType& type = (*types)[i];
    if (declared && !declared->fixed_point.empty() && IsQuantizedFormat(declared->dtype) &&
        IsQuantizedFormat(type.dtype))
      type.dtype = declared->dtype;
  }
  return types;
}

}  // namespace opuc
