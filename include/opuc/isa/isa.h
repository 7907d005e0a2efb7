//===- opuc/isa/isa.h - OPU instructions: types, encoder, decoder -*- C++ -*-===//
//
// Everything here is produced from isa.def by the preprocessor: one struct
// per instruction with a member per field, Encode (which rejects a value
// that does not fit its field, naming it), Decode (which rejects an unknown
// opcode or a reserved bit set) and the field table as data for the
// generators and tests. docs/isa.md says what each instruction does.
//
// Three engines run the instructions of a program, each in program order:
// load (DRAM -> buffers), compute (inner products and the post-processing
// stages, on the accumulator) and store (accumulator -> DRAM). They
// synchronize only through dependency tokens between neighbours (load <->
// compute <-> store), as TVM's VTA does: an instruction may wait for a token
// from the previous or next engine before it runs and give one when done.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_ISA_ISA_H
#define OPUC_ISA_ISA_H

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "opuc/status.h"

namespace opuc::isa {

inline constexpr int kWordBits = 128;

/// One instruction: bits [63:0] in lo, [127:64] in hi.
struct Word {
  uint64_t lo = 0;
  uint64_t hi = 0;
  bool operator==(const Word& o) const { return lo == o.lo && hi == o.hi; }
  bool operator!=(const Word& o) const { return !(*this == o); }
};

enum class Engine : uint8_t { kLoad, kCompute, kStore };
inline constexpr int kNumEngines = 3;
/// "load", "compute", "store".
std::string_view EngineName(Engine engine);

enum class FieldKind : uint8_t { U, S, R };

/// One row of the field table.
struct FieldInfo {
  std::string_view insn;  ///< "" for the common fields.
  std::string_view name;
  int lsb;
  int width;
  FieldKind kind;
  std::string_view meaning;
};

/// A named value of a field (Load.buffer's Weights is 1).
struct ValueInfo {
  std::string_view insn;
  std::string_view field;
  std::string_view name;  ///< UpperCamel: "FeatureMap".
  int64_t value;
  std::string_view meaning;
};

struct InsnInfo {
  std::string_view name;
  int opcode;
  Engine engine;
  std::string_view meaning;
};

/// The dependency-token bits every instruction carries.
struct Deps {
  bool pop_prev = false;
  bool pop_next = false;
  bool push_prev = false;
  bool push_next = false;
  bool operator==(const Deps& o) const {
    return pop_prev == o.pop_prev && pop_next == o.pop_next && push_prev == o.push_prev &&
           push_next == o.push_next;
  }
};

// One struct per instruction (LoadInsn, GemmInsn, ...); reserved fields are
// not members, named values are constants (LoadInsn::kWeights).
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)                \
  struct N##Insn {                                \
    static constexpr int kOpcode = OP;            \
    static constexpr Engine kEngine = Engine::E;  \
    static constexpr std::string_view kName = #N; \
    Deps deps;
#define OPUC_ISA_FIELD_U(F) int64_t F = 0;
#define OPUC_ISA_FIELD_S(F) int64_t F = 0;
#define OPUC_ISA_FIELD_R(F)
#define OPUC_ISA_FIELD(N, F, L, W, K, D) OPUC_ISA_FIELD_##K(F)
#define OPUC_ISA_VALUE(N, F, V, X, D) static constexpr int64_t k##V = X;
#define OPUC_ISA_END(N) \
  }                     \
  ;
#include "opuc/isa/isa.def"
#undef OPUC_ISA_FIELD_U
#undef OPUC_ISA_FIELD_S
#undef OPUC_ISA_FIELD_R

using Instruction = std::variant<LoadInsn, GemmInsn, OutputInsn, ClampInsn, PReluInsn, TableInsn,
                                 ResAddInsn, PoolInsn, AverageInsn, StoreInsn, FenceInsn>;

/// The engine that runs `insn`.
Engine EngineOf(const Instruction& insn);
const Deps& DepsOf(const Instruction& insn);
Deps& DepsOf(Instruction& insn);

/// The word of `insn`; InvalidArgument naming the field ("Load.rows is 5000;
/// the field holds 0 to 4095") when a value does not fit.
Expected<Word> Encode(const Instruction& insn);
/// The instruction of `word`; InvalidArgument for opcode 0 or an unknown
/// one, or a reserved bit set ("Gemm.reserved (bits 127:112) is not 0").
Expected<Instruction> Decode(const Word& word);

/// One line: "gemm acc_addr=0 fm_addr=3 ... | pop_prev push_next".
std::string Disassemble(const Instruction& insn);
/// A whole stream, one numbered line per word; an undecodable word prints
/// as "<error: ...>" rather than stopping the listing.
std::string DisassembleProgram(const std::vector<Word>& words);

/// The table, common fields first, then each instruction's in .def order.
const std::vector<FieldInfo>& FieldTable();
const std::vector<InsnInfo>& InsnTable();
/// The named values, in .def order.
const std::vector<ValueInfo>& ValueTable();

/// Checks a table as the generators need it: every instruction has a unique
/// opcode that fits the opcode field, every field has width >= 1 and lies
/// inside the word, and the common fields plus each instruction's own cover
/// bits [0, 128) exactly once (no overlap, no gap). The message names the
/// instruction, the field and the bit.
Status CheckTable(const std::vector<InsnInfo>& insns, const std::vector<FieldInfo>& fields);

/// Checks the named values: each names a field of its instruction, fits the
/// field and is unique there by name and by value. The message names the
/// value.
Status CheckValues(const std::vector<FieldInfo>& fields, const std::vector<ValueInfo>& values);

/// The table as the Markdown of docs/isa.md, and as a SystemVerilog package
/// (opuc_isa_pkg: opcode and engine constants, for each field its LSB and
/// width, and each named value, as localparams) for hw/.
std::string IsaMarkdown();
std::string IsaSystemVerilog();

}  // namespace opuc::isa

#endif  // OPUC_ISA_ISA_H
