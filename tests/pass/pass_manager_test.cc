// Tests of the pass infrastructure: opt-level gating, required and disabled
// passes, unknown names, and the instruments.
#include <sstream>

#include "opuc/pass/sequential.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using testing::Attrs;
using testing::Build;
using testing::RunPasses;
using testing::Str;

/// x -> conv2d(1x1, activation) -> mul(per-channel constant) -> y
Graph ConvMul(const char* activation = "none") {
  GraphBuilder b("conv_mul");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 2, 3, 4});
  TensorId bias = b.ConstantF32("b", {2}, {0.5f, -0.5f});
  TensorId conv =
      b.Op(OpKind::kConv2D, "conv", {x, w, bias}, Attrs({{"activation", Str(activation)}}));
  TensorId s = b.ConstantF32("s", {2}, {2, 4});
  b.Output(b.Op(OpKind::kMul, "y", {conv, s}));
  return Build(std::move(b));
}

std::vector<std::string> Names(const std::vector<CounterInstrument::Entry>& runs) {
  std::vector<std::string> names;
  for (const auto& run : runs) names.push_back(run.pass);
  return names;
}

using Names_ = std::vector<std::string>;

TEST_CASE("a pass runs only when its opt level is at most the context's") {
  Graph g = ConvMul();
  const std::string before = PrintGraph(g);
  auto low = RunPasses(g, {"FoldScaleAxis"}, /*opt_level=*/2);  // FoldScaleAxis is level 3
  REQUIRE(low.status.ok());
  CHECK(low.runs.empty());
  CHECK_FALSE(low.changed);
  CHECK(PrintGraph(g) == before);
  auto high = RunPasses(g, {"FoldScaleAxis"}, 3);
  REQUIRE(high.status.ok());
  CHECK(Names(high.runs) == Names_{"FoldScaleAxis"});
  CHECK(high.changed);
}

TEST_CASE("required_passes in the context force a pass above the opt level") {
  Graph g = ConvMul();
  PassContext ctx;
  ctx.opt_level = 0;
  ctx.required_passes = {"FoldScaleAxis"};
  auto counters = std::make_shared<CounterInstrument>();
  ctx.instruments = {counters};
  auto pipeline = CreatePipeline({"FoldScaleAxis", "DeadCodeElimination"});
  REQUIRE(pipeline.ok());
  PassCounters unused;
  REQUIRE((*pipeline)->Run(g, ctx, unused).ok());
  // DeadCodeElimination (level 1) stays off at level 0.
  CHECK(Names(counters->entries()) == Names_{"FoldScaleAxis"});
}

TEST_CASE("a pass's required passes run first, and not again while nothing changed") {
  Graph g = ConvMul();
  auto run = RunPasses(g, {"FoldBatchNorm"});
  REQUIRE(run.status.ok());
  CHECK(Names(run.runs) == Names_{"FoldScaleAxis", "FoldBatchNorm"});
  CHECK(run.runs[0].changed);
  CHECK_FALSE(run.runs[1].changed);

  Graph quiet = ConvMul();
  REQUIRE(RunPasses(quiet, {"FoldScaleAxis"}).status.ok());  // nothing left to fold
  auto again = RunPasses(quiet, {"FoldBatchNorm", "FoldBatchNorm"});
  REQUIRE(again.status.ok());
  CHECK(Names(again.runs) == Names_{"FoldScaleAxis", "FoldBatchNorm", "FoldBatchNorm"});

  // A change in between makes the requirement stale, so it runs again.
  Graph relu = ConvMul("relu");
  auto stale = RunPasses(relu, {"FoldBatchNorm", "CanonicalizeActivation", "FoldBatchNorm"});
  REQUIRE(stale.status.ok());
  CHECK(Names(stale.runs) == Names_{"FoldScaleAxis", "FoldBatchNorm", "CanonicalizeActivation",
                                    "FoldScaleAxis", "FoldBatchNorm"});
}

TEST_CASE("disabled passes never run, a disabled requirement is an error") {
  Graph g = ConvMul("relu");
  PassContext ctx;
  ctx.disabled_passes = {"CanonicalizeActivation"};
  auto counters = std::make_shared<CounterInstrument>();
  ctx.instruments = {counters};
  auto pipeline = CreatePipeline({"CanonicalizeActivation", "DeadCodeElimination"});
  REQUIRE(pipeline.ok());
  PassCounters unused;
  REQUIRE((*pipeline)->Run(g, ctx, unused).ok());
  CHECK(Names(counters->entries()) == Names_{"DeadCodeElimination"});

  ctx.opt_level = 3;
  ctx.disabled_passes = {"FoldScaleAxis"};
  auto needs = CreatePipeline({"FoldBatchNorm"});
  REQUIRE(needs.ok());
  Expected<bool> result = (*needs)->Run(g, ctx, unused);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message() ==
        "pass FoldBatchNorm requires FoldScaleAxis, which is disabled");
}

TEST_CASE("unknown pass names are errors that list the known ones") {
  auto pipeline = CreatePipeline({"InferShape", "FoldEverything"});
  REQUIRE_FALSE(pipeline.ok());
  CHECK(pipeline.status().code() == StatusCode::kNotFound);
  CHECK(pipeline.status().message().rfind(
            "unknown pass 'FoldEverything' (known: InferShape, FoldDequantize,", 0) == 0);

  Graph g = ConvMul();
  PassContext ctx;
  ctx.disabled_passes = {"FoldEverything"};
  auto ok = CreatePipeline({"InferShape"});
  REQUIRE(ok.ok());
  PassCounters unused;
  Expected<bool> result = (*ok)->Run(g, ctx, unused);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message().rfind("disabled pass 'FoldEverything' is not a registered pass",
                                        0) == 0);
}

TEST_CASE("instruments: timing, IR dumps, counters, and verification naming the culprit") {
  Graph g = ConvMul();
  PassContext ctx;
  ctx.opt_level = 3;
  std::ostringstream dump;
  auto timing = std::make_shared<TimingInstrument>();
  auto counters = std::make_shared<CounterInstrument>();
  ctx.instruments = {timing, std::make_shared<PrintIrInstrument>(dump, true, true), counters};
  auto pipeline = CreatePipeline({"FoldScaleAxis", "DeadCodeElimination"});
  REQUIRE(pipeline.ok());
  PassCounters unused;
  REQUIRE((*pipeline)->Run(g, ctx, unused).ok());
  REQUIRE(timing->entries().size() == 2);
  CHECK(timing->entries()[0].pass == "FoldScaleAxis");
  CHECK(timing->entries()[0].seconds >= 0.0);
  CHECK(dump.str().find("// IR before FoldScaleAxis\ngraph \"conv_mul\"") != std::string::npos);
  CHECK(dump.str().find("// IR after DeadCodeElimination (unchanged)") != std::string::npos);
  CHECK(counters->entries()[0].counters.ToString() == "scales folded into weights: 1");

  // A pass that breaks the IR is caught right after it runs.
  std::vector<std::unique_ptr<Pass>> passes;
  passes.push_back(MakeFunctionPass(
      {"Breaker", 0, {}}, [](Graph& graph, PassContext&, PassCounters&) -> Expected<bool> {
        graph.outputs.push_back(graph.outputs[0]);  // the same output twice
        return true;
      }));
  Sequential broken("broken", std::move(passes));
  PassContext verify;
  verify.instruments = {std::make_shared<VerifyInstrument>()};
  Expected<bool> result = broken.Run(g, verify, unused);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message().rfind("pass Breaker left an invalid graph: graph output list",
                                        0) == 0);
}

TEST_CASE("a pass's own error names the pass") {
  std::vector<std::unique_ptr<Pass>> passes;
  passes.push_back(MakeFunctionPass({"Failing", 0, {}},
                                    [](Graph&, PassContext&, PassCounters&) -> Expected<bool> {
                                      return InvalidArgument("node 3 'x': cannot fold");
                                    }));
  Sequential seq("seq", std::move(passes));
  Graph g = ConvMul();
  PassContext ctx;
  PassCounters unused;
  Expected<bool> result = seq.Run(g, ctx, unused);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message() == "pass Failing: node 3 'x': cannot fold");
}

}  // namespace
}  // namespace opuc
