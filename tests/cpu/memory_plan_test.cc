//===- tests/cpu/memory_plan_test.cc - A run's values in one arena -===//
//
// The CPU executor places every value a run makes in one arena: a chain of
// activations reuses the bytes of what died (seen at the values' addresses),
// the graph's outputs stay the caller's, and on every real model the arena
// is within 10% of the live-set bound (the most bytes alive at one node).
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <map>

#include "frontend/model_cache.h"
#include "opuc/cpu/executor.h"
#include "opuc/frontend/load_model.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"

namespace opuc {
namespace {

TEST_CASE("a chain of activations reuses the arena's bytes") {
  // x -> relu -> a -> relu6 -> b -> relu -> c -> relu6 -> y, each 1 KiB of
  // f32: a dies when b is made, so c takes a's place; y is the caller's.
  GraphBuilder builder("chain");
  TensorId t = builder.Input("x", DType::kF32, {1, 16, 16, 1});
  const OpKind ops[] = {OpKind::kRelu, OpKind::kRelu6, OpKind::kRelu, OpKind::kRelu6};
  for (OpKind op : ops) t = builder.Op(op, "act" + std::to_string(t), {t});
  builder.Output(t);
  Expected<Graph> built = std::move(builder).Finish();
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  const Graph& g = *built;
  const CpuMemoryPlan plan = PlanCpuMemory(g);
  CHECK(plan.values == 3);
  CHECK(plan.live_bound == 2048);
  CHECK(plan.arena_bytes == 2048);

  std::map<TensorId, const uint8_t*> address;
  HostTensor x = HostTensor::Zeros(DType::kF32, {1, 16, 16, 1}).value();
  for (int64_t i = 0; i < x.elements(); ++i) x.data<float>()[i] = static_cast<float>(i % 9) - 4;
  Expected<std::vector<HostTensor>> out = RunCpu(g, {x}, [&](TensorId id, const HostTensor& v) {
    address[id] = v.raw();
    return OkStatus();
  });
  REQUIRE(out.ok());
  const std::vector<TensorId> made = {g.nodes[0].outputs[0], g.nodes[1].outputs[0],
                                      g.nodes[2].outputs[0], g.nodes[3].outputs[0]};
  CHECK(address[made[2]] == address[made[0]]);
  CHECK(address[made[1]] != address[made[0]]);
  CHECK(out->front().raw() != address[made[0]]);
  CHECK(out->front().raw() != address[made[1]]);
  // and the values are right: relu6(relu(relu6(relu(x)))) = min(max(x, 0), 6)
  for (int64_t i = 0; i < x.elements(); ++i)
    CHECK(out->front().data<float>()[i] == std::min(std::max(x.data<float>()[i], 0.0f), 6.0f));
}

TEST_CASE("real models: the arena is within 10% of the live-set bound") {
  for (const std::string& name : test::RealModelNames()) {
    CAPTURE(name);
    Expected<LoadedModel> model = LoadModel(test::ModelPath(name + ".tflite"));
    REQUIRE_MESSAGE(model.ok(), model.status().ToString());
    PassContext ctx;
    PassCounters counters;
    REQUIRE(CreatePipeline(DefaultPipelineNames()).value()->Run(model->graph, ctx, counters).ok());
    const CpuMemoryPlan plan = PlanCpuMemory(model->graph);
    MESSAGE(name, ": arena ", plan.arena_bytes, " bytes, bound ", plan.live_bound, " (",
            plan.values, " values)");
    CHECK(plan.values > 10);
    CHECK(plan.arena_bytes >= plan.live_bound);
    CHECK(plan.arena_bytes <= plan.live_bound * 11 / 10);
  }
}

}  // namespace
}  // namespace opuc
