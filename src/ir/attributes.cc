//===- src/ir/attributes.cc - Typed node attributes -----------------------===//
#include "opuc/ir/attributes.h"

#include <algorithm>
#include <charconv>

#include "support/format.h"

namespace opuc {
namespace {

bool NameLess(const Attributes::Entry& entry, std::string_view name) { return entry.first < name; }

template <typename T>
const T* FindAs(const Attributes& attrs, std::string_view name) {
  const AttrValue* value = attrs.Find(name);
  return value ? std::get_if<T>(value) : nullptr;
}

}  // namespace

std::string_view AttrTypeName(AttrType type) {
  switch (type) {
    case AttrType::kInt: return "int";
    case AttrType::kFloat: return "float";
    case AttrType::kBool: return "bool";
    case AttrType::kString: return "string";
    case AttrType::kInts: return "ints";
    case AttrType::kFloats: return "floats";
  }
  return "?";
}

std::string AttrValueToString(const AttrValue& value) {
  struct Printer {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return FormatDouble(v); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return Quote(v); }
    std::string operator()(const std::vector<int64_t>& v) const {
      return JoinList(v, [](int64_t x) { return std::to_string(x); });
    }
    std::string operator()(const std::vector<double>& v) const { return JoinList(v, FormatDouble); }
  };
  return std::visit(Printer{}, value);
}

void Attributes::Set(std::string name, AttrValue value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name, NameLess);
  if (it != entries_.end() && it->first == name) {
    it->second = std::move(value);
    return;
  }
  entries_.insert(it, Entry(std::move(name), std::move(value)));
}

bool Attributes::Erase(std::string_view name) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name, NameLess);
  if (it == entries_.end() || it->first != name) return false;
  entries_.erase(it);
  return true;
}

const AttrValue* Attributes::Find(std::string_view name) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name, NameLess);
  if (it == entries_.end() || it->first != name) return nullptr;
  return &it->second;
}

int64_t Attributes::GetInt(std::string_view name, int64_t fallback) const {
  const int64_t* v = FindAs<int64_t>(*this, name);
  return v ? *v : fallback;
}
double Attributes::GetFloat(std::string_view name, double fallback) const {
  const double* v = FindAs<double>(*this, name);
  return v ? *v : fallback;
}
bool Attributes::GetBool(std::string_view name, bool fallback) const {
  const bool* v = FindAs<bool>(*this, name);
  return v ? *v : fallback;
}
std::string Attributes::GetString(std::string_view name, std::string fallback) const {
  const std::string* v = FindAs<std::string>(*this, name);
  return v ? *v : fallback;
}
std::vector<int64_t> Attributes::GetInts(std::string_view name) const {
  const auto* v = FindAs<std::vector<int64_t>>(*this, name);
  return v ? *v : std::vector<int64_t>{};
}
std::vector<double> Attributes::GetFloats(std::string_view name) const {
  const auto* v = FindAs<std::vector<double>>(*this, name);
  return v ? *v : std::vector<double>{};
}

}  // namespace opuc
