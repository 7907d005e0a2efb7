//===- src/program/program_reader.cc - .opup to Program -------------------===//
//
// Stages, each trusting only what the ones before established: the
// FlatBuffers verifier (offsets and vectors inside the buffer), the header
// (version, build, graph, regions), the steps (indices, order), regions
// that share bytes (never while both hold values), and last each
// instruction's DRAM accesses against the regions (dram_access.cc).
//
//===----------------------------------------------------------------------===//
#include <set>

#include "dram_access.h"
#include "opuc/file_io/aligned_bytes.h"
#include "opuc/fsim/fsim.h"
#include "opuc/opug/opug.h"
#include "opuc/program/lifetime.h"
#include "opuc/program/program.h"
#include "opup_generated.h"
#include "support/fb_damage.h"
#include "support/format.h"

namespace opuc {

namespace fb = ::opuc::opup;

namespace {

// The ISA's DRAM address fields are 32 bits wide.
constexpr int64_t kMaxDramBytes = int64_t{1} << 32;
constexpr int64_t kRegionAlign = 64;

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

std::string StepName(size_t index, bool opu, int32_t group) {
  return Cat("step ", index, " (", opu ? "OPU" : "CPU", ", group ", group, ")");
}

template <typename T>
size_t Count(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

/// The part of a program that fails verification, as precisely as it can be named.
std::optional<std::string> FindDamage(const uint8_t* data, size_t size) {
  const DamageFinder find(data, size);
  const fb::Program* program = find.Root<fb::Program>();
  if (program == nullptr) return "the root offset or the Program table's header";
  std::optional<std::string> at = find.OneTable<fb::Build>(program, fb::Program::VT_BUILD, "build");
  if (!at) at = find.Tables<fb::Activation>(program, fb::Program::VT_ACTIVATIONS, "activations");
  if (!at) at = find.Tables<fb::Step>(program, fb::Program::VT_STEPS, "steps");
  return at;
}

Status CheckBuffer(const uint8_t* data, size_t size) {
  if (size < 8)
    return InvalidArgument(Cat(size, " bytes is too short for a .opup file (at least 8)"));
  if (!fb::ProgramBufferHasIdentifier(data))
    return InvalidArgument(Cat("file identifier is ",
                               Quote(std::string_view(reinterpret_cast<const char*>(data) + 4, 4)),
                               "; expected \"OPUP\" (not a .opup program)"));
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return InvalidArgument(
        Cat(size, " bytes exceeds the FlatBuffers limit of ", FLATBUFFERS_MAX_BUFFER_SIZE));
  flatbuffers::Verifier verifier(data, size);
  if (!fb::VerifyProgramBuffer(verifier))
    return InvalidArgument(VerificationFailure(FindDamage(data, size), "Program"));
  return OkStatus();
}

}  // namespace

class ProgramReader {
 public:
  ProgramReader(std::shared_ptr<const void> owner, const fb::Program& root)
      : owner_(std::move(owner)), root_(root) {}

  Expected<Program> Read() {
    program_.owner_ = owner_;
    OPUC_RETURN_IF_ERROR(ReadHeader());
    OPUC_RETURN_IF_ERROR(ReadActivations());
    OPUC_RETURN_IF_ERROR(ReadSteps());
    OPUC_RETURN_IF_ERROR(CheckSharedRegions());
    OPUC_RETURN_IF_ERROR(CheckInstructions());
    return std::move(program_);
  }

 private:
  Status ReadHeader();
  Status ReadActivations();
  Status ReadGranule(int32_t granule, ActivationLayout& layout) const;
  Status ReadFold(const fb::InputFold& fold, ActivationLayout& layout) const;
  Status ReadSteps();
  Status CheckSharedRegions() const;
  Status CheckInstructions() const;
  Expected<ProgramStep> ReadStep(const fb::Step& step);
  Status ReadGroups(const flatbuffers::Vector<flatbuffers::Offset<fb::OpuGroup>>& list,
                    ProgramStep& step) const;
  Expected<std::vector<int32_t>> ReadIds(const flatbuffers::Vector<int32_t>* ids, size_t limit,
                                         std::string_view what) const;

  std::shared_ptr<const void> owner_;
  const fb::Program& root_;
  Program program_;
};

Status ProgramReader::ReadHeader() {
  program_.version_ = root_.version();
  if (program_.version_ == 0 || program_.version_ > kProgramVersion)
    return InvalidArgument(
        Cat("format version is ", program_.version_, "; this opuc reads 1 to ", kProgramVersion));
  const fb::Build& build = *root_.build();
  ProgramBuild& b = program_.build_;
  b.compiler = Str(build.compiler());
  b.opt_level = build.opt_level();
  for (size_t i = 0; i < Count(build.disabled_passes()); ++i)
    b.disabled_passes.push_back(Str(build.disabled_passes()->Get(static_cast<uint32_t>(i))));
  b.precision = Str(build.precision());
  b.source_name = Str(build.source_name());
  b.source_sha256 = Str(build.source_sha256());
  OPUC_ASSIGN_OR_RETURN(program_.hw_,
                        ParseHwConfigJson(Str(build.hw()), "build.hw (the HwConfig)"));
  const auto* graph = root_.graph();
  Expected<Graph> read = ReadOpug(owner_, graph->data(), graph->size(), "graph");
  if (!read.ok()) return read.status();
  program_.graph_ = std::move(read).value();

  program_.dram_bytes_ = root_.dram_bytes();
  program_.constant_bytes_ = static_cast<int64_t>(Count(root_.constants()));
  program_.constants_ = root_.constants() ? root_.constants()->data() : nullptr;
  if (program_.dram_bytes_ < program_.constant_bytes_ || program_.dram_bytes_ > kMaxDramBytes)
    return InvalidArgument(Cat("dram_bytes is ", program_.dram_bytes_, "; it must hold the ",
                               program_.constant_bytes_, " constant bytes and be at most 2^32"));
  return OkStatus();
}

Status ProgramReader::ReadFold(const fb::InputFold& f, ActivationLayout& layout) const {
  if (program_.version_ < kInputFoldVersion)
    return InvalidArgument(Cat("fold needs format version ", kInputFoldVersion,
                               "; the program says ", program_.version_));
  InputFold fold;
  fold.kernel_h = f.kernel_h();
  fold.kernel_w = f.kernel_w();
  fold.stride_h = f.stride_h();
  fold.stride_w = f.stride_w();
  fold.pad_top = f.pad_top();
  fold.pad_left = f.pad_left();
  fold.out_h = f.out_h();
  fold.out_w = f.out_w();
  fold.pixels = f.pixels();
  if (fold.pixels > 1 && program_.version_ < kPixelPairsVersion)
    return InvalidArgument(Cat(DescribeTensor(program_.graph_, layout.tensor), ": fold.pixels ",
                               "needs format version ", kPixelPairsVersion, "; the program says ",
                               program_.version_));
  return FoldLayout(layout, fold).WithContext(DescribeTensor(program_.graph_, layout.tensor));
}

// Compact pixels are whole granules of the array's Co bytes, at most three
// of them below L: what a Load's and a Store's `granules` field says.
Status ProgramReader::ReadGranule(int32_t granule, ActivationLayout& layout) const {
  const std::string what = DescribeTensor(program_.graph_, layout.tensor);
  if (program_.version_ < kCompactPixelsVersion)
    return InvalidArgument(Cat(what, ": granule needs format version ", kCompactPixelsVersion,
                               "; the program says ", program_.version_));
  const int64_t co = program_.hw_.array.output_channels;
  if (granule != co || layout.lanes % co != 0)
    return InvalidArgument(Cat(what, ": granule is ", granule, "; compact pixels take granules of ",
                               "the array's ", co, " output channels, which must divide its ",
                               layout.lanes, " lanes"));
  layout.granule = granule;
  const int64_t last = layout.PixelBytes(layout.blocks() - 1);
  if (last < layout.lanes && last / granule > kMaxPixelGranules)
    return InvalidArgument(Cat(what, ": its compact pixels take ", last / granule,
                               " granules; a Load or Store moves at most ", kMaxPixelGranules));
  return OkStatus();
}

Status ProgramReader::ReadActivations() {
  const Graph& graph = program_.graph_;
  program_.activation_of_.assign(graph.tensors.size(), -1);
  const int64_t lanes = program_.hw_.array.input_channels;
  const int64_t first = (program_.constant_bytes_ + kRegionAlign - 1) / kRegionAlign * kRegionAlign;
  for (size_t i = 0; i < Count(root_.activations()); ++i) {
    const fb::Activation& a = *root_.activations()->Get(static_cast<uint32_t>(i));
    const std::string where = Cat("activation ", i);
    if (a.tensor() < 0 || static_cast<size_t>(a.tensor()) >= graph.tensors.size())
      return InvalidArgument(Cat(where, ": tensor ", a.tensor(), " does not exist (the graph has ",
                                 graph.tensors.size(), ")"));
    if (program_.activation_of_[static_cast<size_t>(a.tensor())] >= 0)
      return InvalidArgument(
          Cat(where, ": ", DescribeTensor(graph, a.tensor()), " already has a region"));
    Expected<ActivationLayout> layout = LayoutActivation(graph, a.tensor(), lanes, a.address());
    if (!layout.ok()) return layout.status().WithContext(where);
    if (a.fold() != nullptr) OPUC_RETURN_IF_ERROR(ReadFold(*a.fold(), *layout).WithContext(where));
    if (a.pack() != 0) {
      if (program_.version_ < kPackedRowsVersion)
        return InvalidArgument(Cat(where, ": ", DescribeTensor(graph, a.tensor()),
                                   ": pack needs format version ", kPackedRowsVersion,
                                   "; the program says ", program_.version_));
      OPUC_RETURN_IF_ERROR(PackLayout(*layout, a.pack()).WithContext(where));
    }
    if (a.granule() != 0)
      OPUC_RETURN_IF_ERROR(ReadGranule(a.granule(), *layout).WithContext(where));
    if (a.doubled()) {
      if (program_.version_ < kDoubledMapsVersion)
        return InvalidArgument(Cat(where, ": ", DescribeTensor(graph, a.tensor()),
                                   ": doubled needs format version ", kDoubledMapsVersion,
                                   "; the program says ", program_.version_));
      OPUC_RETURN_IF_ERROR(DoubleLayout(*layout).WithContext(where));
    }
    const int64_t end = a.address() + layout->bytes();
    if (a.address() < first || end > program_.dram_bytes_)
      return InvalidArgument(Cat(where, ": ", DescribeTensor(graph, a.tensor()), " at [",
                                 a.address(), ", ", end, ") is outside the activation space [",
                                 first, ", ", program_.dram_bytes_, ")"));
    program_.activation_of_[static_cast<size_t>(a.tensor())] =
        static_cast<int32_t>(program_.activations_.size());
    program_.activations_.push_back(*layout);
  }
  return OkStatus();
}

Expected<std::vector<int32_t>> ProgramReader::ReadIds(const flatbuffers::Vector<int32_t>* ids,
                                                      size_t limit, std::string_view what) const {
  std::vector<int32_t> out;
  for (size_t i = 0; i < Count(ids); ++i) {
    const int32_t id = ids->Get(static_cast<uint32_t>(i));
    if (id < 0 || static_cast<size_t>(id) >= limit)
      return InvalidArgument(Cat(what, " ", i, " is ", id, "; there are ", limit));
    out.push_back(id);
  }
  return out;
}

// An OPU step's groups (a chained pair's, a run's): each holds some of
// its nodes and words, in order, and together all of them.
Status ProgramReader::ReadGroups(const flatbuffers::Vector<flatbuffers::Offset<fb::OpuGroup>>& list,
                                 ProgramStep& step) const {
  if (program_.version_ < kRunsVersion)
    return InvalidArgument(
        Cat("groups need format version ", kRunsVersion, "; the program says ", program_.version_));
  size_t node = 0, word = 0;
  for (flatbuffers::uoffset_t i = 0; i < list.size(); ++i) {
    const fb::OpuGroup& g = *list.Get(i);
    if (g.nodes() < 1 || static_cast<size_t>(g.nodes()) > step.nodes.size() - node ||
        g.words() > step.word_count - word)
      return InvalidArgument(Cat("group ", i, " (", g.nodes(), " nodes, ", g.words(),
                                 " words) runs past the step's ", step.nodes.size(), " nodes and ",
                                 step.word_count, " words"));
    step.groups.push_back({g.group(), node, static_cast<size_t>(g.nodes()), word,
                           static_cast<size_t>(g.words()), Str(g.tiling()), g.estimated_cycles()});
    node += static_cast<size_t>(g.nodes());
    word += g.words();
  }
  if (node != step.nodes.size() || word != step.word_count)
    return InvalidArgument(Cat("the groups hold ", node, " nodes and ", word,
                               " words; the step has ", step.nodes.size(), " and ",
                               step.word_count));
  return OkStatus();
}

Expected<ProgramStep> ProgramReader::ReadStep(const fb::Step& s) {
  const Graph& graph = program_.graph_;
  ProgramStep step;
  step.group = s.group();
  OPUC_ASSIGN_OR_RETURN(step.nodes, ReadIds(s.nodes(), graph.nodes.size(), "node"));
  OPUC_ASSIGN_OR_RETURN(step.inputs, ReadIds(s.inputs(), graph.tensors.size(), "input"));
  OPUC_ASSIGN_OR_RETURN(step.outputs, ReadIds(s.outputs(), graph.tensors.size(), "output"));
  if (const fb::CpuStep* cpu = s.kind_as_CpuStep()) {
    step.kind = StepKind::kCpu;
    step.reason = Str(cpu->reason());
    return step;
  }
  const fb::OpuStep* opu = s.kind_as_OpuStep();
  if (opu == nullptr) return InvalidArgument("kind is neither OpuStep nor CpuStep");
  for (NodeId n : step.nodes)
    if (graph.node(n).body)
      return InvalidArgument(
          Cat(DescribeNode(graph, n), " is a fused CPU function; the OPU cannot run it"));
  step.kind = StepKind::kOpu;
  step.estimated_cycles = opu->estimated_cycles();
  step.tiling = Str(opu->tiling());
  if (opu->words() != nullptr) {
    step.words = reinterpret_cast<const uint8_t*>(opu->words()->data());
    step.word_count = opu->words()->size();
  }
  if (opu->groups() != nullptr) OPUC_RETURN_IF_ERROR(ReadGroups(*opu->groups(), step));
  for (const auto* list : {&step.inputs, &step.outputs})
    for (TensorId t : *list)
      if (program_.Find(t) == nullptr)
        return InvalidArgument(Cat(DescribeTensor(graph, t), " has no DRAM region"));
  for (TensorId t : step.outputs)
    if (program_.Find(t)->fold)
      return InvalidArgument(Cat("output ", DescribeTensor(graph, t),
                                 " has a folded region; only the host writes a folded input"));
  return step;
}

Status ProgramReader::ReadSteps() {
  const Graph& graph = program_.graph_;
  // Values that exist before a step runs: graph inputs and constants, then
  // what earlier steps wrote.
  std::vector<bool> made(graph.tensors.size(), false), computed(graph.nodes.size(), false);
  for (TensorId t : graph.inputs) made[static_cast<size_t>(t)] = true;
  for (size_t t = 0; t < graph.tensors.size(); ++t)
    if (graph.tensors[t].is_constant()) made[t] = true;
  for (size_t i = 0; i < Count(root_.steps()); ++i) {
    const fb::Step& s = *root_.steps()->Get(static_cast<uint32_t>(i));
    const std::string where = StepName(i, s.kind_as_OpuStep() != nullptr, s.group());
    Expected<ProgramStep> step = ReadStep(s);
    if (!step.ok()) return step.status().WithContext(where);
    for (NodeId n : step->nodes) {
      if (computed[static_cast<size_t>(n)])
        return InvalidArgument(Cat(where, ": ", DescribeNode(graph, n), " is computed twice"));
      computed[static_cast<size_t>(n)] = true;
      for (TensorId t : graph.node(n).inputs)
        if (t != kNoTensor && !made[static_cast<size_t>(t)])
          return InvalidArgument(Cat(where, ": ", DescribeNode(graph, n), " reads ",
                                     DescribeTensor(graph, t), " before any step makes it"));
      for (TensorId t : graph.node(n).outputs) made[static_cast<size_t>(t)] = true;
    }
    for (TensorId t : step->outputs) {
      bool own = false;
      for (NodeId n : step->nodes)
        for (TensorId o : graph.node(n).outputs) own = own || o == t;
      if (!own)
        return InvalidArgument(
            Cat(where, ": output ", DescribeTensor(graph, t), " is made by none of its nodes"));
    }
    program_.steps_.push_back(std::move(step).value());
  }
  for (size_t n = 0; n < computed.size(); ++n)
    if (!computed[n])
      return InvalidArgument(Cat(DescribeNode(graph, static_cast<NodeId>(n)), " is in no step"));
  return OkStatus();
}

// Two regions may share bytes only when no step needs both values; in a
// step of several groups, no group (its loads all come before the stores
// of the groups after it, and a load of what a store before it wrote waits
// for that store: the simulator's checks refuse a program where not).
Status ProgramReader::CheckSharedRegions() const {
  const Graph& graph = program_.graph_;
  std::vector<std::vector<TensorId>> inputs, outputs;
  for (const ProgramStep& s : program_.steps_) {
    if (s.groups.empty()) {
      inputs.push_back(s.inputs);
      outputs.push_back(s.outputs);
      continue;
    }
    for (const ProgramStep& part : StepParts(program_, s)) {
      inputs.push_back(part.inputs);
      outputs.push_back(part.outputs);
    }
  }
  const std::vector<Lifetime> lives =
      Lifetimes(graph.tensors.size(), inputs, outputs, graph.outputs);
  const std::vector<ActivationLayout>& regions = program_.activations_;
  for (size_t i = 0; i < regions.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      const ActivationLayout &a = regions[i], &b = regions[j];
      const Lifetime &la = lives[static_cast<size_t>(a.tensor)],
                     &lb = lives[static_cast<size_t>(b.tensor)];
      if (a.address < b.address + b.bytes() && b.address < a.address + a.bytes() && la.Meets(lb))
        return InvalidArgument(Cat("activation ", i, ": ", DescribeTensor(graph, a.tensor), " at [",
                                   a.address, ", ", a.address + a.bytes(), ") overlaps ",
                                   DescribeTensor(graph, b.tensor), " at [", b.address, ", ",
                                   b.address + b.bytes(), ") while both hold values (groups ",
                                   la.first, "-", la.last, " and ", lb.first, "-", lb.last, ")"));
    }
  return OkStatus();
}

// Last, with the regions known to be consistent: each instruction's DRAM
// accesses stay inside the regions its step may touch (dram_access.h), and
// the words pass the simulator's checks without data (CheckOpuProgram:
// ranges, tokens, hazards), so that every device refuses what fsim refuses.
Status ProgramReader::CheckInstructions() const {
  for (size_t i = 0; i < program_.steps_.size(); ++i) {
    const ProgramStep& step = program_.steps_[i];
    if (step.kind != StepKind::kOpu) continue;
    const std::string where = StepName(i, true, step.group);
    if (program_.version_ < kProgramVersion) {
      const std::vector<isa::Word> words = step.Words();
      for (size_t w = 0; w < words.size(); ++w) {
        Expected<isa::Instruction> insn = isa::Decode(words[w]);
        if (!insn.ok() || InstructionVersion(*insn) <= program_.version_) continue;
        const std::string_view name =
            std::visit([](const auto& x) { return std::decay_t<decltype(x)>::kName; }, *insn);
        return InvalidArgument(Cat(where, ": instruction ", w, " (", name, "): ",
                                   VersionReason(*insn), "; the program says ", program_.version_));
      }
    }
    OPUC_RETURN_IF_ERROR(CheckDramAccesses(program_, step).WithContext(where));
    OPUC_RETURN_IF_ERROR(
        CheckOpuProgram(program_.hw_, step.Words(), program_.dram_bytes_).WithContext(where));
  }
  return OkStatus();
}

Expected<Program> ReadProgram(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                              std::string_view source_name) {
  return ReadInPlace(
      std::move(owner), data, size, source_name,
      [](std::shared_ptr<const void> o, const uint8_t* d, size_t n) -> Expected<Program> {
        OPUC_RETURN_IF_ERROR(CheckBuffer(d, n));
        return ProgramReader(std::move(o), *fb::GetProgram(d)).Read();
      });
}

}  // namespace opuc
