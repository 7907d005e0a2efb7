//===- opuc/ir/attributes.h - Typed node attributes -------------*- C++ -*-===//
//
// A node's attributes are a small map from name to a typed value. Which names
// and types an op accepts, their ranges and defaults, are declared once in the
// op registry (op_registry.h); the verifier holds every node to that list.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_ATTRIBUTES_H
#define OPUC_IR_ATTRIBUTES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace opuc {

/// The alternatives of AttrValue, in the same order (checked below).
enum class AttrType : uint8_t { kInt, kFloat, kBool, kString, kInts, kFloats };

using AttrValue =
    std::variant<int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<double>>;
static_assert(std::variant_size_v<AttrValue> == 6,
              "AttrType and AttrValue must list the same alternatives");

inline AttrType TypeOf(const AttrValue& value) { return static_cast<AttrType>(value.index()); }

/// "int", "float", "bool", "string", "ints", "floats".
std::string_view AttrTypeName(AttrType type);

/// Stable text form: 3, 0.5, true, "same", [1,1], [0.5,2.0] (a float always
/// shows a '.' or an exponent).
std::string AttrValueToString(const AttrValue& value);

/// Name → value, kept sorted by name so printing and comparing are stable.
class Attributes {
 public:
  using Entry = std::pair<std::string, AttrValue>;

  /// Adds or replaces an attribute.
  void Set(std::string name, AttrValue value);
  /// Removes an attribute; returns whether it was there.
  bool Erase(std::string_view name);

  const AttrValue* Find(std::string_view name) const;
  bool Has(std::string_view name) const { return Find(name) != nullptr; }

  /// Typed reads. They return `fallback` when the attribute is absent or of
  /// another type; on a verified graph every declared attribute is present
  /// with its declared type, so kernels may rely on them.
  int64_t GetInt(std::string_view name, int64_t fallback = 0) const;
  double GetFloat(std::string_view name, double fallback = 0.0) const;
  bool GetBool(std::string_view name, bool fallback = false) const;
  std::string GetString(std::string_view name, std::string fallback = "") const;
  std::vector<int64_t> GetInts(std::string_view name) const;
  std::vector<double> GetFloats(std::string_view name) const;

  const std::vector<Entry>& entries() const { return entries_; }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  bool operator==(const Attributes& other) const { return entries_ == other.entries_; }
  bool operator!=(const Attributes& other) const { return !(*this == other); }

 private:
  std::vector<Entry> entries_;  // sorted by name, names unique
};

}  // namespace opuc

#endif  // OPUC_IR_ATTRIBUTES_H
