//===- src/pass/pass_context.cc - How a pipeline runs ---------------------===//
#include "opuc/pass/pass_context.h"

#include <algorithm>

#include "opuc/pass/registry.h"
#include "support/format.h"

namespace opuc {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Status CheckNames(const std::vector<std::string>& names, const char* what) {
  const std::vector<std::string> known = PassNames();
  for (const std::string& name : names)
    if (!Contains(known, name))
      return NotFound(
          Cat(what, " pass '", name, "' is not a registered pass (known: ", JoinNames(known), ")"));
  return OkStatus();
}

}  // namespace

bool PassContext::IsDisabled(const std::string& name) const {
  return Contains(disabled_passes, name);
}

bool PassContext::IsRequired(const std::string& name) const {
  return Contains(required_passes, name);
}

bool PassContext::ShouldRun(const PassInfo& info) const {
  if (IsDisabled(info.name)) return false;
  return IsRequired(info.name) || info.opt_level <= opt_level;
}

Status PassContext::Validate() const {
  OPUC_RETURN_IF_ERROR(CheckNames(required_passes, "required"));
  return CheckNames(disabled_passes, "disabled");
}

}  // namespace opuc
