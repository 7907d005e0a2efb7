// One random first layer for the folding tests (input_fold_diff_test.cc on
// ref, fsim and cpu; tests/sim/rtl_fold_test.cc on the RTL too): an i8, u8
// or i16 graph input read by a conv2d (3x3 or 5x5 mostly, and 2x2 and 4x4,
// whose taps x channels can fill whole blocks of lanes; strides 1 and 2;
// SAME, VALID, or an explicit zero pad the loads take), compiled with
// folding on, written, read back and run on every registered device. Each
// device must give the integer reference's result for the unfolded graph,
// bit for bit: the fold lives in the program and the runtime alone.
#ifndef OPUC_TESTS_PROGRAM_FOLD_CASE_H
#define OPUC_TESTS_PROGRAM_FOLD_CASE_H

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "opuc/codegen/codegen.h"
#include "opuc/compiler/write_program.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::test {

struct FoldCase {
  int64_t h = 8, w = 8, c = 3, co = 8, k = 3, stride = 1;
  bool same = true;
  bool pad_op = false;  ///< VALID after a zero pad node of (k - 1) / 2 on each side.
  DType in = DType::kI8, out = DType::kI8;
  const char* after = nullptr;  ///< A relu or relu6 after the conv, or none.
  int64_t store_blocks = 0;     ///< PlanOptions::store_blocks (2: a tile's blocks one Store).

  std::string Describe() const {
    const auto n = [](int64_t v) { return std::to_string(v); };
    return std::string(DTypeName(in)) + " " + n(h) + "x" + n(w) + "x" + n(c) + " -> " + n(co) +
           " k" + n(k) + " s" + n(stride) +
           (pad_op ? " pad+valid"
            : same ? " same"
                   : " valid") +
           " -> " + std::string(DTypeName(out)) + (after ? std::string(" ") + after : "") +
           (store_blocks == 2 ? " blocks a store" : "");
  }
  /// Whether codegen should fold it (input_fold.h's rule, stated again).
  bool ShouldFold(int64_t lanes) const {
    return c < lanes && (k * k * c + lanes - 1) / lanes < k * k;
  }
  /// The conv's output width.
  int64_t OutW() const {
    const int64_t p = pad_op ? 2 * ((k - 1) / 2) : 0;
    return same && !pad_op ? (w + stride - 1) / stride : (w + p - k) / stride + 1;
  }
  /// Whether a fold takes pixel pairs: fewer passes with two output
  /// pixels' windows (k x (k + stride) taps) a folded pixel and Co/2
  /// channels a block than with one pixel's and Co, two pixels a pass
  /// where the single fold's k x k x c fit half the lanes of an array with
  /// the feature-map buffer's pairs (pointwise pairs), the input not i16
  /// and the width even.
  bool ShouldPair(int64_t lanes, int64_t out_lanes, bool fm_pairs) const {
    const auto ceil = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    const bool pointwise =
        fm_pairs && in != DType::kI16 && k * k * c <= lanes / 2 && OutW() % 2 == 0;
    const int64_t single =
        ceil(k * k * c, lanes) * ceil(co, out_lanes) * (pointwise ? OutW() / 2 : OutW());
    const int64_t paired =
        ceil(k * (k + stride) * c, lanes) * ceil(co, out_lanes / 2) * ceil(OutW(), 2);
    return ShouldFold(lanes) && OutW() >= 2 && paired < single;
  }
};

inline FoldCase RandomFoldCase(std::mt19937& rng, int64_t max_out) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int64_t kernels[] = {3, 5, 3, 5, 2, 4};
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  const char* acts[] = {nullptr, "relu", "relu6"};
  FoldCase c;
  c.k = kernels[pick(0, 5)];
  c.stride = pick(1, 2);
  c.h = pick(c.k, 14);
  c.w = pick(c.k, 14);
  c.c = pick(1, 16);
  c.co = pick(1, max_out);
  c.same = pick(0, 1) == 1;
  c.pad_op = c.k % 2 == 1 && pick(0, 3) == 0;
  c.in = formats[pick(0, 2)];
  c.out = formats[pick(0, 2)];
  c.after = acts[pick(0, 2)];
  return c;
}

inline Graph BuildFoldGraph(const FoldCase& c, std::mt19937& rng) {
  GraphBuilder b("fold");
  const TensorId x = b.Input("x", c.in, {1, c.h, c.w, c.c});
  TensorId conv_in = x;
  if (c.pad_op) {
    const int64_t p = (c.k - 1) / 2;
    Attributes pad;
    pad.Set("pads", AttrValue(std::vector<int64_t>{0, 0, p, p, p, p, 0, 0}));
    conv_in = b.Op(OpKind::kPad, "pad", {x}, pad);
  }
  std::vector<int8_t> weights(static_cast<size_t>(c.co * c.k * c.k * c.c));
  std::uniform_int_distribution<int> wd(-127, 127);
  for (int8_t& v : weights) v = static_cast<int8_t>(wd(rng));
  std::vector<int32_t> bias(static_cast<size_t>(c.co));
  std::uniform_int_distribution<int32_t> bd(-20000, 20000);
  for (int32_t& v : bias) v = bd(rng);
  const TensorId w = b.Constant("w", DType::kI8, {c.co, c.k, c.k, c.c},
                                ConstantData::Copy(weights.data(), weights.size()));
  const TensorId bt =
      b.Constant("b", DType::kI32, {c.co}, ConstantData::Copy(bias.data(), bias.size() * 4));
  Attributes attrs;
  attrs.Set("padding", AttrValue(std::string(c.same && !c.pad_op ? "same" : "valid")));
  attrs.Set("strides", AttrValue(std::vector<int64_t>{c.stride, c.stride}));
  const TensorId y = b.Op(OpKind::kConv2D, "conv", {conv_in, w, bt}, attrs);
  const OpKind act = c.after && std::string(c.after) == "relu6" ? OpKind::kRelu6 : OpKind::kRelu;
  const TensorId last = c.after ? b.Op(act, "act", {y}) : y;
  b.Output(last);
  Expected<Graph> built = std::move(b).Finish();
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  Graph graph = std::move(built).value();
  // Fraction lengths that keep most outputs off saturation: the shift is
  // about log2 of an accumulator's spread over the output's range.
  const int f_in = c.in == DType::kI16 ? 12 : 4;
  std::vector<int32_t> f_w;
  std::uniform_int_distribution<int32_t> fd(5, 8);
  for (int64_t o = 0; o < c.co; ++o) f_w.push_back(fd(rng));
  const double spread = 74.0 * 73.0 * std::sqrt(static_cast<double>(c.k * c.k * c.c)) *
                        (c.in == DType::kI16 ? 256.0 : 1.0);
  const int out_bits = c.out == DType::kI16 ? 15 : 7;
  const int shift = std::max(0, static_cast<int>(std::log2(spread)) - out_bits + 1);
  graph.tensor(x).fixed_point = {{f_in}, -1};
  if (conv_in != x) graph.tensor(conv_in).fixed_point = {{f_in}, -1};
  graph.tensor(w).fixed_point = {f_w, 0};
  for (TensorId t : {y, last}) {
    graph.tensor(t).fixed_point = {{f_in + 6 - shift}, -1};
    graph.tensor(t).dtype = c.out;
  }
  return graph;
}

/// Runs one case on every device MakeDevice knows; returns the output
/// pixels a folded pixel of the program's input holds (0: not folded).
/// `pair_blocks`, where given, says whether a Store wrote several blocks of
/// pixel pairs; `pointwise_pairs` whether a single fold's Gemms took two
/// output pixels a pass (Gemm.init PairsFromBias).
inline int64_t RunFoldCase(const FoldCase& c, const HwConfig& hw, std::mt19937& rng,
                           bool* pair_blocks = nullptr, bool* pointwise_pairs = nullptr) {
  CAPTURE(c.Describe());
  CAPTURE(hw.name);
  const Graph graph = BuildFoldGraph(c, rng);
  const std::vector<HostTensor> inputs = {
      RandomTensor(c.in, {1, c.h, c.w, c.c}, static_cast<uint64_t>(rng())).value()};
  const std::vector<HostTensor> expected = RunReference(graph, inputs).value();

  Expected<HwPartition> partition = PartitionForHardware(graph, hw);
  REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
  PlanOptions options;
  options.store_blocks = c.store_blocks;
  Expected<StepPlan> plan = PlanSteps(graph, *partition, hw, options);
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  ProgramBuild build;
  build.compiler = "opuc test";
  build.source_sha256 = std::string(64, '0');
  const std::vector<uint8_t> bytes = WriteProgram(graph, *partition, *plan, hw, build).value();
  auto owner = std::make_shared<std::vector<uint8_t>>(bytes);
  Expected<Program> program = ReadProgram(owner, owner->data(), owner->size(), "fold.opup");
  REQUIRE_MESSAGE(program.ok(), program.status().ToString());
  REQUIRE(program->steps().size() == 1);
  REQUIRE_MESSAGE(program->steps()[0].kind == StepKind::kOpu, program->steps()[0].reason);
  const ActivationLayout* x = program->Find(program->graph().inputs[0]);
  REQUIRE(x != nullptr);
  const bool folded = x->fold.has_value();
  const bool paired = folded && x->fold->pixels == 2;
  CHECK(folded == c.ShouldFold(hw.array.input_channels));
  CHECK(paired ==
        c.ShouldPair(hw.array.input_channels, hw.array.output_channels, FeatureMapPairs(hw)));
  bool compact = false;  // the oldest version that holds the program
  for (const ActivationLayout& a : program->activations()) compact = compact || a.granule > 0;
  // A Store of several blocks a pixel; an i16 read whole; pointwise pairs.
  bool blocks = false, whole = false, pointwise = false;
  for (const isa::Word& w : program->steps()[0].Words()) {
    Expected<isa::Instruction> insn = isa::Decode(w);
    const auto* store = insn.ok() ? std::get_if<isa::StoreInsn>(&*insn) : nullptr;
    const auto* gemm = insn.ok() ? std::get_if<isa::GemmInsn>(&*insn) : nullptr;
    blocks = blocks || (store != nullptr && store->extra_blocks > 0);
    whole = whole || (gemm != nullptr && gemm->operand == isa::GemmInsn::kI16);
    pointwise = pointwise || (gemm != nullptr && gemm->init == isa::GemmInsn::kPairsFromBias);
  }
  CHECK(!(pointwise && paired));
  CHECK(whole == (c.in == DType::kI16 && FeatureMapPairs(hw)));
  if (pair_blocks != nullptr) *pair_blocks = blocks && paired;
  if (pointwise_pairs != nullptr) *pointwise_pairs = pointwise;
  CHECK(program->version() == (blocks && paired ? kStorePairBlocksVersion
                               : pointwise      ? kDensePairsVersion
                               : whole          ? kI16WholeVersion
                               : blocks         ? kStoreBlocksVersion
                               : paired         ? kPixelPairsVersion
                               : compact        ? kCompactPixelsVersion
                               : folded         ? kInputFoldVersion
                                                : uint32_t{1}));

  for (const std::string& name : DeviceNames()) {
    CAPTURE(name);
    std::unique_ptr<Device> device = MakeDevice(name).value();
    std::vector<HostTensor> copy;
    copy.push_back(
        HostTensor::Copy(c.in, inputs[0].shape(), inputs[0].raw(), inputs[0].bytes()).value());
    Expected<ProgramRun> run = RunProgram(*program, *device, std::move(copy));
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    REQUIRE(run->outputs.size() == 1);
    const HostTensor& got = run->outputs[0];
    REQUIRE(got.type() == expected[0].type());
    int64_t differ = 0;
    for (size_t i = 0; i < got.bytes(); ++i) differ += got.raw()[i] != expected[0].raw()[i];
    CHECK_MESSAGE(differ == 0, differ << " of " << got.bytes() << " bytes differ");
  }
  return folded ? x->fold->pixels : 0;
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_PROGRAM_FOLD_CASE_H
