//===- src/pass/registry.cc - Passes by name ------------------------------===//
#include "opuc/pass/registry.h"

#include "passes.h"
#include "support/format.h"

namespace opuc {
namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Pass> (*create)();
};

const Entry kPasses[] = {
#define OPUC_PASS(Name) {#Name, Create##Name##Pass},
#include "passes.def"
};

}  // namespace

std::vector<std::string> PassNames() {
  std::vector<std::string> names;
  for (const Entry& entry : kPasses) names.emplace_back(entry.name);
  return names;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

Expected<std::unique_ptr<Pass>> CreatePass(std::string_view name) {
  for (const Entry& entry : kPasses)
    if (name == entry.name) return entry.create();
  return NotFound(Cat("unknown pass '", name, "' (known: ", JoinNames(PassNames()), ")"));
}

Expected<std::unique_ptr<Sequential>> CreatePipeline(const std::vector<std::string>& names) {
  std::vector<std::unique_ptr<Pass>> passes;
  for (const std::string& name : names) {
    OPUC_ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, CreatePass(name));
    passes.push_back(std::move(pass));
  }
  return std::make_unique<Sequential>("pipeline", std::move(passes));
}

std::vector<std::string> DefaultPipelineNames() {
  return {"InferShape",         "FoldDequantize",  "Densify",
          "SimplifyReshape",    "SplitSharedPads", "FoldConstant",
          "FoldScaleAxis",      "FoldBatchNorm",   "CanonicalizeActivation",
          "DeadCodeElimination"};
}

}  // namespace opuc
