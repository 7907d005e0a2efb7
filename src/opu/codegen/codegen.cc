//===- src/opu/codegen/codegen.cc - Compiling the OPU groups --------------===//
//
// Three passes over the OPU groups: read each (skipping what does not
// compile yet, with the reason), lay out DRAM (the constants of every
// group, then a region per activation; regions are not yet reused by
// liveness), then choose tilings and emit.
//
//===----------------------------------------------------------------------===//
#include "opuc/opu/codegen.h"
#include "emit.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr int64_t kAlign = 64;

int64_t AlignUp(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

}  // namespace

Expected<OpuCode> CompileOpuGroups(const Graph& graph, const HwPartition& partition,
                                   const HwConfig& hw) {
  OPUC_RETURN_IF_ERROR(ValidateHwConfig(hw));
  const OpuBufferUnits units = BufferUnits(hw);
  const int64_t align = std::max(kAlign, hw.dram.word_bits / 8);
  OpuCode code;
  struct Ready {
    codegen::InnerProductGroup group;
    codegen::Tiling tiling;
    codegen::ConstantPlacement constants;
  };
  std::vector<Ready> ready;
  for (const HwGroup& group : partition.groups) {
    if (group.kind != GroupKind::kOpu) continue;
    Expected<codegen::InnerProductGroup> described =
        codegen::DescribeGroup(graph, partition, group);
    if (!described.ok()) {
      if (described.status().code() != StatusCode::kUnsupported) return described.status();
      code.skipped.push_back({group.id, described.status().message()});
      continue;
    }
    Expected<codegen::Tiling> tiling = codegen::ChooseTiling(*described, units);
    if (!tiling.ok()) return tiling.status().WithContext(Cat("group ", group.id));
    Ready r{std::move(*described), *tiling, {}};
    r.constants = codegen::PackConstants(r.group, r.tiling, units, align, code.constants);
    ready.push_back(std::move(r));
  }
  int64_t next = AlignUp(static_cast<int64_t>(code.constants.size()), align);
  auto place = [&](TensorId t) -> Status {
    if (code.Find(t) != nullptr) return OkStatus();
    OPUC_ASSIGN_OR_RETURN(ActivationLayout layout, LayoutActivation(graph, t, units.lanes, next));
    next = AlignUp(next + layout.bytes(), align);
    code.activations.push_back(layout);
    return OkStatus();
  };
  for (const Ready& r : ready) {
    OPUC_RETURN_IF_ERROR(place(r.group.input).WithContext(Cat("group ", r.group.group)));
    OPUC_RETURN_IF_ERROR(place(r.group.output).WithContext(Cat("group ", r.group.group)));
  }
  code.dram_bytes = next;
  for (const Ready& r : ready) {
    OPUC_ASSIGN_OR_RETURN(
        OpuGroupCode group,
        codegen::EmitInnerProduct(r.group, r.tiling, hw, r.constants, *code.Find(r.group.input),
                                  *code.Find(r.group.output)));
    code.groups.push_back(std::move(group));
  }
  return code;
}

}  // namespace opuc
