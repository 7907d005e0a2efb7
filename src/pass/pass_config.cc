//===- src/pass/pass_config.cc - Typed pass options -----------------------===//
#include "opuc/pass/pass_config.h"

#include <cstdlib>

#include "support/format.h"

namespace opuc {
namespace {

const ConfigOption* FindOption(std::string_view key) {
  for (const ConfigOption& option : ConfigOptions())
    if (option.key == key) return &option;
  return nullptr;
}

std::string KnownKeys() {
  std::string keys;
  for (const ConfigOption& option : ConfigOptions())
    keys += Cat(keys.empty() ? "" : ", ", option.key);
  return keys;
}

Expected<AttrValue> ParseAs(AttrType type, const std::string& text) {
  char* end = nullptr;
  switch (type) {
    case AttrType::kInt: {
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (!text.empty() && *end == '\0') return AttrValue(static_cast<int64_t>(v));
      break;
    }
    case AttrType::kFloat: {
      const double v = std::strtod(text.c_str(), &end);
      if (!text.empty() && *end == '\0') return AttrValue(v);
      break;
    }
    case AttrType::kBool:
      if (text == "true" || text == "1") return AttrValue(true);
      if (text == "false" || text == "0") return AttrValue(false);
      break;
    case AttrType::kString: return AttrValue(text);
    default: break;
  }
  return InvalidArgument(Cat("'", text, "' is not a valid ", AttrTypeName(type)));
}

}  // namespace

const std::vector<ConfigOption>& ConfigOptions() {
  static const std::vector<ConfigOption> options = {
#define OPUC_CONFIG(key, value, help) ConfigOption{key, AttrValue(value), help},
#include "config_options.def"
  };
  return options;
}

Status PassConfig::Set(std::string_view key, AttrValue value) {
  const ConfigOption* option = FindOption(key);
  if (!option) return NotFound(Cat("unknown pass option '", key, "' (known: ", KnownKeys(), ")"));
  const AttrType want = TypeOf(option->default_value);
  if (TypeOf(value) != want)
    return InvalidArgument(Cat("pass option '", key, "' takes ", AttrTypeName(want), ", not ",
                               AttrTypeName(TypeOf(value))));
  values_.Set(std::string(key), std::move(value));
  return OkStatus();
}

Status PassConfig::SetFromString(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return InvalidArgument(Cat("pass option '", assignment, "' is not of the form key=value"));
  const std::string_view key = assignment.substr(0, eq);
  const ConfigOption* option = FindOption(key);
  if (!option) return NotFound(Cat("unknown pass option '", key, "' (known: ", KnownKeys(), ")"));
  Expected<AttrValue> value =
      ParseAs(TypeOf(option->default_value), std::string(assignment.substr(eq + 1)));
  if (!value.ok()) return value.status().WithContext(Cat("pass option '", key, "'"));
  return Set(key, std::move(value).value());
}

const AttrValue& PassConfig::Get(std::string_view key) const {
  if (const AttrValue* set = values_.Find(key)) return *set;
  const ConfigOption* option = FindOption(key);
  assert(option && "reading an undeclared pass option; add it to config_options.def");
  return option->default_value;
}

int64_t PassConfig::GetInt(std::string_view key) const { return std::get<int64_t>(Get(key)); }
double PassConfig::GetFloat(std::string_view key) const { return std::get<double>(Get(key)); }
bool PassConfig::GetBool(std::string_view key) const { return std::get<bool>(Get(key)); }
std::string PassConfig::GetString(std::string_view key) const {
  return std::get<std::string>(Get(key));
}

}  // namespace opuc
