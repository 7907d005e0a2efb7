//===- tools/opuc/optimized_model.cc - Load and optimize a model ----------===//
#include "opuc/optimized_model.h"

#include "opuc/frontend/load_model.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"

namespace opuc::cli {

Expected<Graph> LoadOptimizedModel(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(LoadedModel model, LoadModel(path));
  OPUC_ASSIGN_OR_RETURN(std::unique_ptr<Sequential> pipeline,
                        CreatePipeline(DefaultPipelineNames()));
  PassContext ctx;
  ctx.opt_level = 3;
  PassCounters counters;
  Expected<bool> changed = pipeline->Run(model.graph, ctx, counters);
  if (!changed.ok()) return changed.status().WithContext(path);
  return std::move(model.graph);
}

}  // namespace opuc::cli
