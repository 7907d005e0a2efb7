//===- src/ir/op_attrs.cc - Typed views and specs from op_attrs.def -------===//
#include "opuc/ir/op_attrs.h"

#include <string>

#include "ops/op_defs.h"
#include "opuc/ir/op_registry.h"

namespace opuc {
namespace {

constexpr std::string_view kPaddingNames[] = {"same", "valid"};
constexpr std::string_view kActivationNames[] = {"none", "relu", "relu_n1_to_1", "relu6", "tanh"};

template <size_t N>
std::vector<std::string> Names(const std::string_view (&names)[N]) {
  return std::vector<std::string>(std::begin(names), std::end(names));
}

template <typename Enum, size_t N>
std::optional<Enum> FromName(const std::string_view (&names)[N], std::string_view name) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  return std::nullopt;
}

// How each C++ type of op_attrs.def is stored in an AttrValue.
template <typename T>
struct AttrTraits;

// The types an AttrValue holds as they are.
template <typename T, AttrType type>
struct StoredAsIs {
  static constexpr AttrType kType = type;
  static T Read(const AttrValue& v) { return std::get<T>(v); }
  static AttrValue Write(const T& v) { return v; }
};
template <>
struct AttrTraits<int64_t> : StoredAsIs<int64_t, AttrType::kInt> {};
template <>
struct AttrTraits<double> : StoredAsIs<double, AttrType::kFloat> {};
template <>
struct AttrTraits<bool> : StoredAsIs<bool, AttrType::kBool> {};
template <>
struct AttrTraits<Ints> : StoredAsIs<Ints, AttrType::kInts> {};
template <>
struct AttrTraits<Pair> {
  static constexpr AttrType kType = AttrType::kInts;
  static Pair Read(const AttrValue& v) {
    const Ints& ints = std::get<Ints>(v);
    return ints.size() == 2 ? Pair{ints[0], ints[1]} : Pair{};
  }
  static AttrValue Write(const Pair& v) { return Ints(v.begin(), v.end()); }
};
template <>
struct AttrTraits<Padding> {
  static constexpr AttrType kType = AttrType::kString;
  static Padding Read(const AttrValue& v) {
    // A verified node holds one of the names; the spec lists them.
    return FromName<Padding>(kPaddingNames, std::get<std::string>(v)).value_or(Padding{});
  }
  static AttrValue Write(Padding v) { return std::string(PaddingName(v)); }
};
template <>
struct AttrTraits<Activation> {
  static constexpr AttrType kType = AttrType::kString;
  static Activation Read(const AttrValue& v) {
    return ActivationFromName(std::get<std::string>(v)).value_or(Activation::kNone);
  }
  static AttrValue Write(Activation v) { return std::string(ActivationName(v)); }
};

// An AttrSpec built from one row: OPUC_ATTR(name, T, .Default(v).AtLeast(n)).
template <typename T>
struct TypedSpec {
  explicit TypedSpec(const char* name) : spec(AttrSpec::Required(name, AttrTraits<T>::kType)) {
    if constexpr (std::is_same_v<T, Pair>) spec.length = 2;
    if constexpr (std::is_same_v<T, Padding>) spec.choices = Names(kPaddingNames);
    if constexpr (std::is_same_v<T, Activation>) spec.choices = Names(kActivationNames);
  }
  TypedSpec& Default(const T& value) {
    spec.default_value = AttrTraits<T>::Write(value);
    return *this;
  }
  TypedSpec& AtLeast(int64_t least) {
    spec.min = least;
    return *this;
  }
  TypedSpec& Length(size_t n) {
    spec.length = n;
    return *this;
  }
  AttrSpec spec;
};

// The attribute's value, else the declared default (kernels may run on
// nodes whose defaults were never filled in), else T{}.
template <typename T>
T Read(const Attributes& attrs, OpKind op, std::string_view name) {
  const AttrValue* value = attrs.Find(name);
  if (value && TypeOf(*value) == AttrTraits<T>::kType) return AttrTraits<T>::Read(*value);
  for (const AttrSpec& spec : GetOpInfo(op).def.attrs)
    if (spec.name == name && spec.default_value) return AttrTraits<T>::Read(*spec.default_value);
  return T{};
}

}  // namespace

std::string_view PaddingName(Padding padding) {
  return kPaddingNames[static_cast<size_t>(padding)];
}

std::string_view ActivationName(Activation activation) {
  return kActivationNames[static_cast<size_t>(activation)];
}

std::optional<Activation> ActivationFromName(std::string_view name) {
  return FromName<Activation>(kActivationNames, name);
}

bool HasFusedActivation(OpKind op) {
  for (const AttrSpec& spec : GetOpInfo(op).def.attrs)
    if (spec.name == "activation") return true;
  return false;
}

Activation FusedActivation(const Attributes& attrs) {
  const AttrValue* value = attrs.Find("activation");
  if (!value || TypeOf(*value) != AttrType::kString) return Activation::kNone;
  return ActivationFromName(std::get<std::string>(*value)).value_or(Activation::kNone);
}

void SetFusedActivation(Attributes& attrs, Activation activation) {
  attrs.Set("activation", AttrTraits<Activation>::Write(activation));
}

#define OPUC_ATTRS(Op)                                     \
  Op##Attrs Op##Attrs::Of(const Attributes& attrs) {       \
    [[maybe_unused]] constexpr OpKind kOp = OpKind::k##Op; \
    Op##Attrs view;
#define OPUC_ATTR(name, Type, constraints) view.name = Read<Type>(attrs, kOp, #name);
#define OPUC_ATTRS_END \
  return view;         \
  }
#include "opuc/ir/op_attrs.def"

std::vector<AttrSpec> DeclaredAttrSpecs(OpKind op) {
  switch (op) {
#define OPUC_ATTRS(Op) \
  case OpKind::k##Op:  \
    return {
#define OPUC_ATTR(name, Type, constraints) TypedSpec<Type>(#name) constraints.spec,
#define OPUC_ATTRS_END \
  }                    \
  ;
#include "opuc/ir/op_attrs.def"
    default: return {};
  }
}

}  // namespace opuc
