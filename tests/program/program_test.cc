// The .opup program: what WriteProgram writes reads back the same, in
// place; every truncation and a sweep of corrupted bytes are refused
// without a crash; and each semantic check refuses a program broken in its
// way, naming the step, word or region at fault.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <utility>

#include "doubled_model.h"
#include "opuc/ir/constant_data.h"  // kConstantAlignment
#include "opuc/opug/opug.h"
#include "opuc/program/program.h"
#include "opup_generated.h"
#include "small_model.h"

namespace opuc {
namespace {

Expected<Program> Read(const std::vector<uint8_t>& bytes) {
  // An aligned copy, kept alive by the program, as a loaded file would be.
  auto owner =
      std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size() + 1],
                               [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
  if (!bytes.empty()) std::memcpy(owner.get(), bytes.data(), bytes.size());  // no null source
  return ReadProgram(owner, owner.get(), bytes.size(), "small.opup");
}

std::string ReadError(const std::vector<uint8_t>& bytes) {
  Expected<Program> p = Read(bytes);
  return p.ok() ? std::string("(read fine)") : p.status().message();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("program: what is written reads back the same") {
  PlanOptions block_stores;   // one block a Store, no pairs: the version says compact pixels
  block_stores.runs = false;  // a step a group: this test is about something else
  block_stores.store_blocks = 1;
  block_stores.dense_pairs = false;
  for (const char* hw : {"tiny", "opu1024"}) {
    CAPTURE(hw);
    const test::SmallModel m = test::MakeSmallModel(hw, false, false, block_stores);
    REQUIRE_FALSE(m.code.OpuSteps().empty());
    const std::vector<uint8_t> bytes = m.Write();
    CHECK(bytes == m.Write());  // the bytes depend only on the input
    Expected<Program> p = Read(bytes);
    REQUIRE_MESSAGE(p.ok(), p.status().ToString());
    CHECK(p->version() == kCompactPixelsVersion);  // the oldest that holds it: no packed rows
    CHECK(p->hw().name == hw);
    CHECK(p->build().compiler == "opuc test");
    CHECK(p->build().source_sha256 == std::string(64, '0'));
    REQUIRE(p->graph().tensors.size() == m.graph().tensors.size());
    for (size_t t = 0; t < m.graph().tensors.size(); ++t) {
      CHECK(p->graph().tensors[t].name == m.graph().tensors[t].name);
      CHECK(p->graph().tensors[t].dtype == m.graph().tensors[t].dtype);
      CHECK(p->graph().tensors[t].fixed_point == m.graph().tensors[t].fixed_point);
    }
    CHECK(p->constant_bytes() == static_cast<int64_t>(m.code.constants.size()));
    CHECK(std::memcmp(p->constants(), m.code.constants.data(), m.code.constants.size()) == 0);
    CHECK(p->dram_bytes() == m.code.dram_bytes);
    REQUIRE(p->activations().size() == m.code.activations.size());
    for (size_t i = 0; i < m.code.activations.size(); ++i) {
      CHECK(p->activations()[i].tensor == m.code.activations[i].tensor);
      CHECK(p->activations()[i].address == m.code.activations[i].address);
      CHECK(p->activations()[i].bytes() == m.code.activations[i].bytes());
    }
    // One step per group, in order: compiled groups carry their words,
    // the others the reason they are on the CPU.
    REQUIRE(p->steps().size() == m.partition.groups.size());
    REQUIRE(m.code.steps.size() == m.partition.groups.size());
    for (size_t i = 0; i < p->steps().size(); ++i) {
      const ProgramStep& s = p->steps()[i];
      const HwGroup& g = m.partition.groups[i];
      const PlannedStep& planned = m.code.steps[i];
      CHECK(s.group == g.id);
      CHECK(planned.group == g.id);
      CHECK(s.nodes == g.ops);
      CHECK(s.outputs == g.outputs);
      REQUIRE(s.kind == planned.kind);
      if (s.kind != StepKind::kOpu) {
        CHECK_FALSE(s.reason.empty());
        CHECK(s.reason == planned.reason);
        continue;
      }
      CHECK(s.Words() == planned.words);
      CHECK(s.estimated_cycles == planned.estimated_cycles);
      CHECK(s.tiling == planned.tiling);
    }
  }
}

TEST_CASE("program: reading leaves constants, words and weights in the buffer") {
  const test::SmallModel m = test::MakeSmallModel("tiny");
  const std::vector<uint8_t> bytes = m.Write();
  auto owner =
      std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size()],
                               [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
  if (!bytes.empty()) std::memcpy(owner.get(), bytes.data(), bytes.size());  // no null source
  const uint8_t* begin = owner.get();
  const uint8_t* end = begin + bytes.size();
  auto inside = [&](const void* p) {
    return static_cast<const uint8_t*>(p) >= begin && static_cast<const uint8_t*>(p) < end;
  };
  Expected<Program> p = ReadProgram(owner, begin, bytes.size(), "small.opup");
  REQUIRE(p.ok());
  CHECK(inside(p->constants()));
  int64_t weights = 0;
  for (const Tensor& t : p->graph().tensors)
    if (t.is_constant() && t.constant->size() > 0) {
      CHECK(inside(t.constant->data()));
      ++weights;
    }
  CHECK(weights > 0);
  for (const ProgramStep& s : p->steps())
    if (s.kind == StepKind::kOpu) CHECK(inside(s.words));
}

TEST_CASE("program: every truncation and corrupted bytes are refused, never a crash") {
  const test::SmallModel m = test::MakeSmallModel("tiny");
  const std::vector<uint8_t> bytes = m.Write();
  CHECK(Contains(ReadError({}), "0 bytes is too short for a .opup file"));
  const size_t step = std::max<size_t>(1, bytes.size() / 300);
  for (size_t size = 0; size < bytes.size(); size += step) {
    CAPTURE(size);
    const std::string error = ReadError(std::vector<uint8_t>(bytes.data(), bytes.data() + size));
    CHECK((Contains(error, "too short") || Contains(error, "truncated or corrupt")));
    CHECK(Contains(error, "small.opup: "));
  }
  // Single corrupted bytes: refused or read, never undefined behaviour
  // (the sanitizer build runs this too).
  std::mt19937 rng(7);
  int refused = 0;
  for (int i = 0; i < 400; ++i) {
    std::vector<uint8_t> broken = bytes;
    broken[rng() % broken.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    refused += !Read(broken).ok();
  }
  MESSAGE(refused << " of 400 corrupted programs refused");
  std::vector<uint8_t> renamed = bytes;
  std::memcpy(renamed.data() + 4, "OPUG", 4);
  CHECK(Contains(ReadError(renamed), "file identifier is \"OPUG\"; expected \"OPUP\""));
}

TEST_CASE("program: a verification failure names the damaged table") {
  const test::SmallModel m = test::MakeSmallModel("tiny");
  std::vector<uint8_t> bytes = m.Write();
  const opup::Program* root = opup::GetProgram(bytes.data());
  REQUIRE(root->steps()->size() >= 2);
  // Step 1's node list now points far past the end of the file.
  const uint8_t* field = reinterpret_cast<const flatbuffers::Table*>(root->steps()->Get(1))
                             ->GetAddressOf(opup::Step::VT_NODES);
  REQUIRE(field != nullptr);
  const uint32_t far = 0x7ffffff0;
  std::memcpy(bytes.data() + (field - bytes.data()), &far, sizeof(far));
  CHECK(ReadError(bytes) ==
        "small.opup: FlatBuffers verification failed in steps[1]: the file is truncated or"
        " corrupt (an offset, table, vector or string there lies outside the file)");
}

TEST_CASE("program: a newer format version is refused") {
  const test::SmallModel m = test::MakeSmallModel("tiny");
  Expected<Program> good = Read(m.Write());
  REQUIRE(good.ok());
  // The same build and graph under the next version: FlatBuffers accepts it, opuc must not.
  const std::vector<uint8_t> graph = WriteOpug(m.graph()).value();
  flatbuffers::FlatBufferBuilder fbb;
  const auto build = opup::CreateBuildDirect(fbb, "opuc test", HwConfigToJson(m.hw).c_str());
  const auto bytes = fbb.CreateVector(graph);
  fbb.Finish(opup::CreateProgram(fbb, kProgramVersion + 1, build, bytes), "OPUP");
  const std::vector<uint8_t> newer(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  CHECK(ReadError(newer) == "small.opup: format version is " + std::to_string(kProgramVersion + 1) +
                                "; this opuc reads 1 to " + std::to_string(kProgramVersion));
}

TEST_CASE("program: whole-pixel stores are written as version 7 and read back") {
  PlanOptions forced;
  forced.runs = false;  // a step a group: this test is about something else
  forced.store_blocks = 2;
  const test::SmallModel m = test::MakeSmallModel("tiny", false, false, forced);
  int blocks = 0;  // Stores of more than one block a pixel, counted from the words
  for (const PlannedStep* step : m.code.OpuSteps())
    for (const isa::Word& w : step->words) {
      Expected<isa::Instruction> insn = isa::Decode(w);
      REQUIRE(insn.ok());
      if (const auto* s = std::get_if<isa::StoreInsn>(&*insn)) blocks += s->extra_blocks > 0;
    }
  REQUIRE(blocks > 0);
  Expected<Program> p = Read(m.Write());
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  CHECK(p->version() == kStoreBlocksVersion);
}

/// `bytes` with the program's version field set to `version` (in place: the
/// field is written whatever its value, so the buffer keeps its layout).
std::vector<uint8_t> WithVersion(std::vector<uint8_t> bytes, uint32_t version) {
  const auto* root = reinterpret_cast<const flatbuffers::Table*>(opup::GetProgram(bytes.data()));
  const uint8_t* field = root->GetAddressOf(opup::Program::VT_VERSION);
  REQUIRE(field != nullptr);
  std::memcpy(bytes.data() + (field - bytes.data()), &version, sizeof(version));
  return bytes;
}

/// The small model's folded activation (conv1's input, which the host
/// writes after quantizing the image).
ActivationLayout& FoldedActivation(test::SmallModel& m, size_t* index) {
  for (size_t i = 0; i < m.code.activations.size(); ++i)
    if (m.code.activations[i].fold) {
      *index = i;
      return m.code.activations[i];
    }
  FAIL("no folded activation");
  return m.code.activations[0];
}

TEST_CASE("program: doubled maps are written as version 8, read back, and refused before it") {
  // opu1024 (tiny has no depthwise window): the model's input and the
  // first 1x1's output doubled (its pairs of output pixels, version 11, off).
  PlanOptions no_pairs;
  no_pairs.runs = false;  // a step a group: this test is about something else
  no_pairs.dense_pairs = false;
  const test::SmallModel m = test::MakeDoubledModel("opu1024", 6, 10, no_pairs);
  const std::vector<uint8_t> bytes = m.Write();
  Expected<Program> p = Read(bytes);
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  CHECK(p->version() == kDoubledMapsVersion);
  std::vector<std::string> doubled;
  for (const ActivationLayout& a : p->activations())
    if (a.doubled) doubled.push_back(p->graph().tensor(a.tensor).name);
  CHECK(doubled == std::vector<std::string>{"x/int8", "a/relu6"});
  const std::string error = ReadError(WithVersion(bytes, kStoreBlocksVersion));
  CHECK(error.find("doubled needs format version 8; the program says 7") != std::string::npos);
}

TEST_CASE("program: a folded input reads back, and a program without one stays version 1") {
  PlanOptions loose;   // L-byte pixels, a block a Store: the version says the fold alone
  loose.runs = false;  // a step a group: this test is about something else
  loose.compact_pixels = false;
  loose.store_blocks = 1;
  test::SmallModel m = test::MakeSmallModel("tiny", false, false, loose);
  size_t index = 0;
  const ActivationLayout& folded = FoldedActivation(m, &index);
  CHECK(m.graph().tensor(folded.tensor).name == "image/int8");
  CHECK(folded.fold->kernel_h == 3);
  CHECK(folded.channels == 27);  // 3x3 taps x 3 channels, in 4 blocks of tiny's 8 lanes
  Expected<Program> p = Read(m.Write());
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  CHECK(p->version() == 2);
  const ActivationLayout& read = p->activations()[index];
  REQUIRE(read.fold);
  CHECK(read.channels == 27);
  CHECK(read.bytes() == folded.bytes());
  CHECK(read.fold->out_h == 10);
  CHECK(read.fold->pad_top == 1);

  PlanOptions unfolded = loose;
  unfolded.fold_inputs = false;
  const test::SmallModel old = test::MakeSmallModel("tiny", false, false, unfolded);
  Expected<Program> v1 = Read(old.Write());
  REQUIRE_MESSAGE(v1.ok(), v1.status().ToString());
  CHECK(v1->version() == 1);
  for (const ActivationLayout& a : v1->activations()) CHECK_FALSE(a.fold);
}

TEST_CASE("program: a folded input is checked on read, naming the field") {
  PlanOptions loose;
  loose.runs = false;  // a step a group: this test is about something else
  loose.compact_pixels = false;
  const test::SmallModel base = test::MakeSmallModel("tiny", false, false, loose);
  SUBCASE("a field out of range") {
    test::SmallModel m = base;
    size_t i = 0;
    FoldedActivation(m, &i).fold->stride_h = 0;
    CHECK(ReadError(m.Write()) == "small.opup: activation " + std::to_string(i) + ": tensor " +
                                      std::to_string(m.code.activations[i].tensor) +
                                      " 'image/int8': fold.stride_h is 0; expected 1 to 64");
  }
  SUBCASE("windows past the input") {
    test::SmallModel m = base;
    size_t i = 0;
    FoldedActivation(m, &i).fold->out_w = 12;
    CHECK(Contains(ReadError(m.Write()), "fold.out_w is 12; expected 1 to 11"));
  }
  SUBCASE("pixel pairs in a version 4 program") {
    test::SmallModel m = base;
    size_t i = 0;
    FoldedActivation(m, &i).fold->pixels = 2;
    CHECK(Contains(ReadError(WithVersion(m.Write(), 4)),
                   "'image/int8': fold.pixels needs format version 5; the program says 4"));
  }
  SUBCASE("a fold in a version 1 program") {
    CHECK(Contains(ReadError(WithVersion(base.Write(), 1)),
                   ": fold needs format version 2; the program says 1"));
  }
  SUBCASE("a folded region an OPU step writes") {
    test::SmallModel m = base;
    // conv1's output, folded 1x1 (a valid fold, and the same bytes).
    const int32_t conv1 = m.code.OpuSteps()[0]->group;
    TensorId out = kNoTensor;
    for (const HwGroup& g : m.partition.groups)
      if (g.id == conv1) out = g.outputs[0];
    for (ActivationLayout& a : m.code.activations) {
      if (a.tensor != out) continue;
      InputFold f;
      f.out_h = a.height;
      f.out_w = a.width;
      a.fold = f;
    }
    CHECK(
        Contains(ReadError(m.Write()), "has a folded region; only the host writes a folded input"));
  }
}

// tiny's small model folds conv1's input into 27 channels: 3 blocks of 8
// lanes and one of 3 channels, whose pixels take one granule of Co = 4
// bytes instead of 8.
TEST_CASE("program: compact pixels read back as version 3, checked on read") {
  PlanOptions block_stores;
  block_stores.runs = false;  // a step a group: this test is about something else
  block_stores.store_blocks = 1;
  test::SmallModel m = test::MakeSmallModel("tiny", false, false, block_stores);
  size_t index = 0;
  ActivationLayout& folded = FoldedActivation(m, &index);
  CHECK(folded.granule == 4);
  CHECK(folded.PixelBytes(3) == 4);
  CHECK(folded.bytes() == (3 * 8 + 4) * 10 * 10);  // 10x10 output pixels
  Expected<Program> p = Read(m.Write());
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  CHECK(p->version() == 3);
  CHECK(p->activations()[index].granule == 4);
  CHECK(p->activations()[index].bytes() == folded.bytes());
  SUBCASE("a granule that is not the array's Co") {
    folded.granule = 2;
    CHECK(Contains(ReadError(m.Write()),
                   "granule is 2; compact pixels take granules of the "
                   "array's 4 output channels, which must divide its 8 "
                   "lanes"));
  }
  SUBCASE("compact pixels in a version 2 program") {
    CHECK(Contains(ReadError(WithVersion(m.Write(), 2)),
                   ": granule needs format version 3; the program says 2"));
  }
}

// Packed rows (PackLayout) take a map of one channel; the small model has
// none, so a packed 12-channel map is written to be refused.
TEST_CASE("program: a packed activation is checked on read, naming the tensor") {
  test::SmallModel m = test::MakeSmallModel("tiny");
  size_t index = 0;
  FoldedActivation(m, &index);
  ActivationLayout& other = m.code.activations[index == 0 ? 1 : 0];
  other.pack = 2;
  SUBCASE("on a map of several channels") {
    const std::string error = ReadError(m.Write());
    CHECK(Contains(error, "cannot pack 2 pixels a pixel: that takes one channel"));
    CHECK(Contains(error, "tensor " + std::to_string(other.tensor) + " ("));
  }
  SUBCASE("in a version 3 program") {
    CHECK(Contains(ReadError(WithVersion(m.Write(), 3)),
                   ": pack needs format version 4; the program says 3"));
  }
}

/// `bytes` written again with every CPU step that holds a fused node made an
/// OPU step without instructions (the writer never makes one); or, with
/// `group_nodes`, the OPU steps' groups kept, the first one's nodes that
/// many more.
std::vector<uint8_t> Rewritten(const std::vector<uint8_t>& bytes, int group_nodes = 0) {
  const opup::Program& p = *opup::GetProgram(bytes.data());
  const opup::Build& b = *p.build();
  const Graph graph = ReadOpug({p.graph()->begin(), p.graph()->end()}, "graph").value();
  flatbuffers::FlatBufferBuilder fbb;
  const auto build = opup::CreateBuildDirect(fbb, b.compiler()->c_str(), b.hw()->c_str());
  std::vector<flatbuffers::Offset<opup::Step>> steps;
  for (const opup::Step* s : *p.steps()) {
    bool fused = false;
    for (int32_t n : *s->nodes()) fused = fused || graph.nodes[static_cast<size_t>(n)].body;
    const std::vector<int32_t> nodes(s->nodes()->begin(), s->nodes()->end());
    const std::vector<int32_t> ins(s->inputs()->begin(), s->inputs()->end());
    const std::vector<int32_t> outs(s->outputs()->begin(), s->outputs()->end());
    const bool opu = fused || s->kind_type() == opup::StepKind::OpuStep;
    std::vector<opup::Word> words;
    std::vector<flatbuffers::Offset<opup::OpuGroup>> groups;
    if (!fused && opu) {
      const opup::OpuStep& step = *s->kind_as_OpuStep();
      for (const opup::Word* w : *step.words()) words.push_back(*w);
      for (flatbuffers::uoffset_t k = 0;
           group_nodes != 0 && step.groups() && k < step.groups()->size(); ++k) {
        const opup::OpuGroup& g = *step.groups()->Get(k);
        groups.push_back(opup::CreateOpuGroup(fbb, g.group(),
                                              g.nodes() + (k == 0 ? group_nodes : 0), g.words()));
      }
    }
    const auto kind =
        opu ? opup::CreateOpuStepDirect(fbb, &words, 0, nullptr, groups.empty() ? nullptr : &groups)
                  .Union()
            : opup::CreateCpuStepDirect(fbb, "").Union();
    steps.push_back(opup::CreateStepDirect(fbb, s->group(), &nodes, &ins, &outs,
                                           opu ? opup::StepKind::OpuStep : opup::StepKind::CpuStep,
                                           kind));
  }
  std::vector<flatbuffers::Offset<opup::Activation>> activations;
  for (const opup::Activation* a : *p.activations())
    activations.push_back(opup::CreateActivation(fbb, a->tensor(), a->address(), 0, a->granule()));
  const std::vector<uint8_t> g(p.graph()->begin(), p.graph()->end());
  const std::vector<uint8_t> c(p.constants()->begin(), p.constants()->end());
  // Not CreateProgramDirect: its force_align of 64 asserts in a debug build
  // (past FlatBuffers' 32); the writer aligns the constants as here.
  fbb.ForceVectorAlignment(g.size(), 1, kConstantAlignment);
  const auto graph_bytes = fbb.CreateVector(g);
  fbb.PreAlign(c.size(), 64);
  const auto constants = fbb.CreateVector(c);
  fbb.Finish(opup::CreateProgram(fbb, p.version(), build, graph_bytes, constants, p.dram_bytes(),
                                 fbb.CreateVector(activations), fbb.CreateVector(steps)),
             "OPUP");
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

TEST_CASE("program: a run's groups must hold its nodes and words, no more and no fewer") {
  const test::SmallModel m = test::MakeSmallModel("opu1024", false, false);
  const std::vector<uint8_t> good = m.Write();
  Expected<Program> program = Read(good);
  REQUIRE(program.ok());
  size_t nodes = 0, words = 0, groups = 0;
  for (const ProgramStep& step : program->steps())
    if (step.groups.size() > 1)
      nodes = step.nodes.size(), words = step.word_count, groups = step.groups.size();
  REQUIRE(groups > 1);  // its OPU groups are one run
  // One node more for the first group: the last runs past the step's.
  CHECK(Contains(ReadError(Rewritten(good, 1)), "runs past the step's " + std::to_string(nodes) +
                                                    " nodes and " + std::to_string(words) +
                                                    " words"));
  // One fewer: the groups hold less than the step.
  CHECK(Contains(ReadError(Rewritten(good, -1)),
                 "the groups hold " + std::to_string(nodes - 1) + " nodes and " +
                     std::to_string(words) + " words; the step has " + std::to_string(nodes) +
                     " and " + std::to_string(words)));
  CHECK(Contains(ReadError(WithVersion(good, 12)),
                 "groups need format version 13; the program says 12"));
}

TEST_CASE("program: an OPU step that holds a fused CPU function is refused") {
  const test::SmallModel m = test::MakeSmallModel("opu1024", false, /*cpu_tail=*/true);
  const std::vector<uint8_t> good = m.Write();
  Expected<Program> program = Read(good);
  REQUIRE(program.ok());
  const Graph& graph = program->graph();
  NodeId fused = 0;
  while (!graph.node(fused).body) ++fused;
  CHECK(graph.node(fused).name == "square/dequantize");
  CHECK(ReadError(Rewritten(good)) ==
        "small.opup: step 2 (OPU, group 3): node " + std::to_string(fused) +
            " 'square/dequantize' (fused) is a fused CPU function; the OPU cannot run it");
}

/// Changes the first word of `words` that decodes to an `Insn` with
/// `change`; returns its index and the instruction as changed.
template <typename Insn, typename Change>
std::pair<size_t, Insn> PatchWord(std::vector<isa::Word>& words, Change change) {
  for (size_t i = 0; i < words.size(); ++i) {
    isa::Instruction insn = isa::Decode(words[i]).value();
    if (auto* found = std::get_if<Insn>(&insn)) {
      change(*found);
      words[i] = isa::Encode(*found).value();
      return {i, *found};
    }
  }
  FAIL("no such instruction");
  return {};
}

TEST_CASE("program: the semantic checks name what is wrong") {
  // The fewest tiles (no tiling search): the first store is the whole map's.
  PlanOptions fewest_tiles;
  fewest_tiles.runs = false;  // a step a group: this test is about something else
  fewest_tiles.tile_search = false;
  const test::SmallModel base = test::MakeSmallModel("tiny", false, false, fewest_tiles);
  REQUIRE(base.code.activations.size() >= 2);
  // The first OPU step's index among the steps.
  size_t first_opu = 0;
  while (base.partition.groups[first_opu].id != base.code.OpuSteps()[0]->group) ++first_opu;
  const std::string step_name = "step " + std::to_string(first_opu) + " (OPU, group " +
                                std::to_string(base.code.OpuSteps()[0]->group) + ")";

  SUBCASE("an activation over the constants") {
    test::SmallModel m = base;
    m.code.activations[0].address = 0;
    CHECK(Contains(ReadError(m.Write()), "activation 0: "));
    CHECK(Contains(ReadError(m.Write()), "is outside the activation space"));
  }
  SUBCASE("two activations in one place while both hold values") {
    test::SmallModel m = base;
    // The first OPU group's input and output: both live during its step.
    const HwGroup& g = m.partition.groups[first_opu];
    ActivationLayout* in = nullptr;
    ActivationLayout* out = nullptr;
    for (ActivationLayout& a : m.code.activations) {
      if (a.tensor == g.inputs[0]) in = &a;
      if (a.tensor == g.outputs[0]) out = &a;
    }
    REQUIRE((in && out));
    out->address = in->address;
    const std::string error = ReadError(m.Write());
    CAPTURE(error);
    CHECK(Contains(error, "overlaps"));
    CHECK(Contains(error, "while both hold values (groups "));
  }
  SUBCASE("DRAM too small for its regions") {
    test::SmallModel m = base;
    m.code.dram_bytes = m.code.activations.back().address;
    CHECK(Contains(ReadError(m.Write()), "is outside the activation space"));
  }
  // A field a later format version brought, set on the first OPU step's
  // first `Insn`, in a program written as the version before: the reader
  // must refuse it at that instruction, naming the field and both versions.
  const auto too_new = [&](auto patch, uint32_t version, const std::string& refusal) {
    test::SmallModel m = base;
    const size_t at = patch(m.OpuSteps()[0]->words);
    CHECK(ReadError(WithVersion(m.Write(), version)) ==
          "small.opup: " + step_name + ": instruction " + std::to_string(at) + " " + refusal);
  };
  SUBCASE("a line slot in a version 5 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::GemmInsn>(words, [](isa::GemmInsn& g) { g.line_slot = 1; }).first;
        },
        5, "(Gemm): line_slot and carry need format version 6; the program says 5");
  }
  SUBCASE("a store of two blocks a pixel in a version 6 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::StoreInsn>(words, [](isa::StoreInsn& s) { s.extra_blocks = 1; })
              .first;
        },
        6, "(Store): extra_blocks need format version 7; the program says 6");
  }
  SUBCASE("a store of blocks of pixel pairs in a version 13 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::StoreInsn>(words,
                                           [](isa::StoreInsn& s) {
                                             s.extra_blocks = 1;
                                             s.pair = 1;
                                           })
              .first;
        },
        13, "(Store): extra_blocks with pair need format version 14; the program says 13");
  }
  SUBCASE("an i16 read whole in a version 8 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::LoadInsn>(words, [](isa::LoadInsn& l) { l.interleave = 1; }).first;
        },
        8, "(Load): interleave needs format version 9; the program says 8");
  }
  SUBCASE("depthwise output pixels in pairs in a version 9 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::GemmInsn>(words,
                                          [](isa::GemmInsn& g) {
                                            g.init = isa::GemmInsn::kPairsFromBias;
                                            g.depthwise = true;
                                          })
              .first;
        },
        9, "(Gemm): init PairsFromBias needs format version 10; the program says 9");
  }
  SUBCASE("depthwise pairs over 5 rows of 6 columns (packed) in a version 14 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::GemmInsn>(words,
                                          [](isa::GemmInsn& g) {
                                            g.init = isa::GemmInsn::kPairsFromBias;
                                            g.depthwise = true;
                                            g.window_h = 4;
                                            g.window_w = 5;
                                          })
              .first;
        },
        14,
        "(Gemm): init PairsFromBias over 5 rows of 6 columns needs format version 15; the program "
        "says 14");
  }
  SUBCASE("dense output pixels in pairs in a version 10 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::GemmInsn>(
                     words, [](isa::GemmInsn& g) { g.init = isa::GemmInsn::kPairsFromBias; })
              .first;
        },
        10,
        "(Gemm): init PairsFromBias on a dense Gemm needs format version 11; the program says 10");
  }
  SUBCASE("a store into the feature-map buffer in a version 11 program") {
    too_new(
        [](std::vector<isa::Word>& words) {
          return PatchWord<isa::StoreInsn>(words, [](isa::StoreInsn& s) { s.to_fm = 1; }).first;
        },
        11, "(Store): to_fm needs format version 12; the program says 11");
  }
  SUBCASE("a store into the constants") {
    test::SmallModel m = base;
    const auto [at, store] = PatchWord<isa::StoreInsn>(m.OpuSteps()[0]->words,
                                                       [](isa::StoreInsn& s) { s.dram_addr = 0; });
    const std::string error = ReadError(m.Write());
    CHECK(
        Contains(error, step_name + ": word " + std::to_string(at) + " (Store): DRAM bytes [0, "));
    CHECK(Contains(error, "are outside the step's outputs"));
  }
  SUBCASE("an upsampled store reaches twice as far in both axes") {
    test::SmallModel m = base;
    const auto [at, store] = PatchWord<isa::StoreInsn>(m.OpuSteps()[0]->words,
                                                       [](isa::StoreInsn& s) { s.upsample = 1; });
    // tiny's pixels are 8 bytes apart: rows 2r + 1 and columns 2c + 1 of the doubled map.
    const int64_t end = store.dram_addr + (2 * store.rows - 1) * store.dram_stride +
                        (2 * store.cols - 1) * 8 + store.lanes;
    const std::string error = ReadError(m.Write());
    CAPTURE(error);
    CHECK(Contains(error, "(Store): DRAM bytes [" + std::to_string(store.dram_addr) + ", " +
                              std::to_string(end) + ") are outside the step's outputs"));
  }
  SUBCASE("a load past its input") {
    test::SmallModel m = base;
    const int64_t past = m.code.dram_bytes - 1;
    const size_t at = PatchWord<isa::LoadInsn>(m.OpuSteps()[0]->words, [past](isa::LoadInsn& l) {
                        l.dram_addr = past;
                      }).first;
    CHECK(Contains(ReadError(m.Write()),
                   step_name + ": word " + std::to_string(at) + " (Load): DRAM bytes ["));
  }
  SUBCASE("an illegal word") {
    test::SmallModel m = base;
    m.OpuSteps()[0]->words[1] = isa::Word{};
    CHECK(Contains(ReadError(m.Write()), step_name + ": word 1: "));
  }
  // What the simulator refuses, every device refuses: the reader runs its
  // checks (CheckOpuProgram) on every OPU step.
  SUBCASE("a Gemm's weight row past the buffer") {
    test::SmallModel m = base;
    const size_t at = PatchWord<isa::GemmInsn>(m.OpuSteps()[0]->words, [](isa::GemmInsn& g) {
                        g.wgt_addr = 4452;
                      }).first;
    // tiny: 2 x 4096 bytes of rows of 4 x 8 = 256 weight rows.
    CHECK(Contains(ReadError(m.Write()),
                   step_name + ": instruction " + std::to_string(at) +
                       " (Gemm): wgt_addr reaches weight row 4452; there are 256"));
  }
  SUBCASE("a load of a param row past the buffer") {
    test::SmallModel m = base;
    std::vector<isa::Word>& words = m.OpuSteps()[0]->words;
    size_t at = 0;
    int64_t last = 0;  // the last row it writes: the step's params are resident, a row a block
    for (; at < words.size(); ++at) {
      isa::Instruction insn = isa::Decode(words[at]).value();
      auto* load = std::get_if<isa::LoadInsn>(&insn);
      if (load == nullptr || load->buffer != isa::LoadInsn::kParams) continue;
      load->sram_addr = 8;  // tiny: 2 x 64 bytes of rows of 4 x 8 = 4 param rows
      last = 8 + load->cols - 1;
      words[at] = isa::Encode(insn).value();
      break;
    }
    REQUIRE(at < words.size());
    CHECK(Contains(ReadError(m.Write()), step_name + ": instruction " + std::to_string(at) +
                                             " (Load): sram_addr reaches param row " +
                                             std::to_string(last) + "; there are 4"));
  }
  SUBCASE("a read the tokens do not order after its write") {
    // The first token from the load engine taken away (its push and its
    // pop): the first Gemm may then read feature-map rows before the loads
    // that fill them, or after; the result would depend on the timing.
    test::SmallModel m = base;
    std::vector<isa::Word>& words = m.OpuSteps()[0]->words;
    bool pushed = false, popped = false;
    for (isa::Word& word : words) {
      isa::Instruction insn = isa::Decode(word).value();
      isa::Deps& deps = isa::DepsOf(insn);
      const isa::Engine engine = isa::EngineOf(insn);
      if (!pushed && engine == isa::Engine::kLoad && deps.push_next) {
        deps.push_next = false;
        pushed = true;
      } else if (!popped && engine == isa::Engine::kCompute && deps.pop_prev) {
        deps.pop_prev = false;
        popped = true;
      } else {
        continue;
      }
      word = isa::Encode(insn).value();
    }
    REQUIRE((pushed && popped));
    const std::string error = ReadError(m.Write());
    CAPTURE(error);
    CHECK(Contains(error, step_name + ": instruction "));
    CHECK(Contains(error, "(Gemm) reads "));
    CHECK(Contains(error, "(Load) writes, with no token ordering the two"));
  }
  SUBCASE("a hardware config too large to simulate, inside the program") {
    test::SmallModel m = base;
    m.hw.buffers.feature_map.bytes_per_bank = int64_t{1} << 40;
    CHECK(Contains(ReadError(m.Write()),
                   "buffers.feature_map.bytes_per_bank is 1099511627776; "
                   "expected at most 16777216"));
  }
  SUBCASE("a group left out") {
    test::SmallModel m = base;
    m.partition.groups.pop_back();
    m.code.steps.pop_back();  // the plan follows the partition
    CHECK(Contains(ReadError(m.Write()), "is in no step"));
  }
  SUBCASE("steps out of order") {
    test::SmallModel m = base;
    std::swap(m.partition.groups[0], m.partition.groups[1]);
    std::swap(m.code.steps[0], m.code.steps[1]);
    CHECK(Contains(ReadError(m.Write()), "before any step makes it"));
  }
}

TEST_CASE("program: the writer refuses a plan that does not follow the partition") {
  const test::SmallModel base = test::MakeSmallModel("tiny");
  REQUIRE(base.code.steps.size() >= 2);
  auto write_error = [](const test::SmallModel& m) {
    Expected<std::vector<uint8_t>> bytes =
        WriteProgram(m.graph(), m.partition, m.code, m.hw, ProgramBuild{});
    return bytes.ok() ? std::string("written") : bytes.status().message();
  };
  test::SmallModel fewer = base;
  fewer.code.steps.pop_back();
  CHECK(write_error(fewer) == "the plan has " + std::to_string(base.code.steps.size() - 1) +
                                  " steps for " + std::to_string(base.code.steps.size()) +
                                  " partition groups");
  test::SmallModel swapped = base;
  std::swap(swapped.code.steps[0], swapped.code.steps[1]);
  CHECK(write_error(swapped) ==
        "planned step 0 is for group " + std::to_string(base.code.steps[1].group) +
            ", partition group 0 is group " + std::to_string(base.partition.groups[0].id));
}

}  // namespace
}  // namespace opuc
