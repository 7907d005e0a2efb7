//===- tools/opuc/disasm.cc - `opuc disasm` -------------------------------===//
//
// A program as text: how it was built, its DRAM layout, then each step in
// order; an OPU step with its instructions (one numbered line each, as
// isa::DisassembleProgram prints them), a CPU step with its nodes and why
// they are on the CPU.
//
//===----------------------------------------------------------------------===//
#include "opuc/disasm.h"

#include "opuc/exit_codes.h"
#include "opuc/program/program.h"

namespace opuc::cli {
namespace {

std::string NodeText(const Graph& graph, NodeId n) {
  const Node& node = graph.node(n);
  std::string op(OpName(node.op));
  if (node.body) {  // a fused CPU function: the ops it runs
    op += ':';
    for (const Node& member : node.body->nodes) op += ' ' + std::string(OpName(member.op));
  }
  return (node.name.empty() ? "#" + std::to_string(n) : node.name) + " (" + op + ")";
}

std::string TensorNames(const Graph& graph, const std::vector<TensorId>& ids) {
  std::string text;
  for (TensorId t : ids) text += (text.empty() ? "" : ", ") + graph.tensor(t).name;
  return text.empty() ? "-" : text;
}

}  // namespace

int RunDisasm(const DisasmOptions& options, std::ostream& out, std::ostream& err) {
  Expected<Program> loaded = LoadProgramFile(options.program);
  if (!loaded.ok()) return ReportError(loaded.status(), err);
  const Program& p = *loaded;
  const Graph& graph = p.graph();
  const ProgramBuild& b = p.build();
  out << options.program << ": format " << p.version() << ", built by " << b.compiler << " for "
      << p.hw().name << " from " << b.source_name << " (sha256 " << b.source_sha256
      << "), opt level " << b.opt_level << ", precision " << b.precision << "\n";
  out << "DRAM " << p.dram_bytes() << " bytes: constants [0, " << p.constant_bytes() << ")\n";
  for (const ActivationLayout& a : p.activations()) {
    const Tensor& t = graph.tensor(a.tensor);
    out << "  [" << a.address << ", " << a.address + a.bytes() << ")  " << t.name << ' '
        << DTypeName(t.dtype) << ShapeToString(t.shape);
    if (a.fold)  // the host writes it as a conv's im2col (docs/program-format.md)
      out << " folded: " << a.fold->kernel_h << 'x' << a.fold->kernel_w << " taps every "
          << a.fold->stride_h << 'x' << a.fold->stride_w << ", padded " << a.fold->pad_top << ','
          << a.fold->pad_left << " before, as " << a.height << 'x' << a.width << " pixels of "
          << a.channels << " channels" << (a.fold->pixels > 1 ? " (pixel pairs)" : "");
    if (a.pack > 1)  // its rows packed (docs/codegen.md, "Packed rows")
      out << " rows packed: " << a.pack << " pixels a pixel, as " << a.height << 'x' << a.width
          << " pixels of " << a.channels << " channels";
    if (a.granule > 0 && a.PixelBytes(a.blocks() - 1) < a.lanes)  // docs/isa.md, "DRAM layout"
      out << " compact: " << a.PixelBytes(a.blocks() - 1) << "-byte pixels in its last block";
    if (a.doubled)  // docs/codegen.md, "Doubled maps"
      out << ", each channel twice (doubled)";
    out << '\n';
  }
  for (size_t i = 0; i < p.steps().size(); ++i) {
    const ProgramStep& s = p.steps()[i];
    out << "\nstep " << i << "  " << (s.kind == StepKind::kOpu ? "OPU" : "CPU") << "  group "
        << s.group << "\n  nodes:";
    for (NodeId n : s.nodes) out << ' ' << NodeText(graph, n);
    out << "\n  reads: " << TensorNames(graph, s.inputs)
        << "\n  writes: " << TensorNames(graph, s.outputs) << '\n';
    if (s.kind == StepKind::kCpu) {
      out << "  why: " << s.reason << '\n';
      continue;
    }
    out << "  " << s.word_count << " instructions, " << s.tiling << ", estimated "
        << s.estimated_cycles << " cycles\n"
        << isa::DisassembleProgram(s.Words());
  }
  return kExitOk;
}

Command AddDisasmCommand(CLI::App& app) {
  return AddCommand(
      app, "disasm", "Print a program: build, DRAM layout, and every step's instructions",
      [](CLI::App& cli, DisasmOptions& o) {
        cli.add_option("PROG", o.program, "Program file (.opup)")->required();
      },
      RunDisasm);
}

}  // namespace opuc::cli
