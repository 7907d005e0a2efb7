//===- src/codegen/group_layouts.cc - A group's values in DRAM ---------===//
#include "emit.h"
#include "packed_rows.h"

namespace opuc::codegen {

GroupLayouts DramLayouts(const StepPlan& plan, const InnerProductGroup& g,
                         const OpuBufferUnits& units, std::deque<ActivationLayout>& views) {
  GroupLayouts layouts;
  for (const InputPiece& piece : g.pieces) layouts.inputs.push_back(plan.Find(piece.tensor));
  if (g.pieces.empty() && g.packed)
    layouts.inputs.push_back(&views.emplace_back(PackedInput(*plan.Find(g.input), units)));
  else if (g.pieces.empty())
    layouts.inputs.push_back(plan.Find(g.input));
  if (g.store_output) layouts.output = plan.Find(g.output);
  for (const ResidualStep& res : g.residuals) {
    const ActivationLayout* at = res.constant.empty() ? plan.Find(res.tensor) : nullptr;
    if (at != nullptr && g.packed)  // packed pixels read the residual packed too
      at = &views.emplace_back(PackedInput(*at, units));
    layouts.residuals.push_back(at);
  }
  if (g.store_pool) layouts.pool = plan.Find(g.pool->tensor);
  if (g.upsampled != kNoTensor) layouts.upsampled = plan.Find(g.upsampled);
  return layouts;
}

}  // namespace opuc::codegen
