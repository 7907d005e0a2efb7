//===- src/isa/isa.cc - Encoder, decoder and disassembler from isa.def ===//
//
// Each function below is the .def table expanded once more: no field is
// named twice by hand, so the encoder, the decoder and the listing cannot
// drift apart.
//
//===----------------------------------------------------------------------===//
#include "opuc/isa/isa.h"

#include <cctype>

#include "bits.h"
#include "support/format.h"

namespace opuc::isa {
namespace {

Status Put(Word& word, std::string_view insn, std::string_view field, int lsb, int width,
           FieldKind kind, int64_t value) {
  const int64_t lo = kind == FieldKind::S ? -(int64_t{1} << (width - 1)) : 0;
  const int64_t hi =
      kind == FieldKind::S ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
  if (value < lo || value > hi)
    return InvalidArgument(
        Cat(insn, ".", field, " is ", value, "; the field holds ", lo, " to ", hi));
  SetBits(word, lsb, width, static_cast<uint64_t>(value));
  return OkStatus();
}

void PutCommon(Word& word, int opcode, const Deps& deps) {
  SetBits(word, 0, 4, static_cast<uint64_t>(opcode));
  SetBits(word, 4, 1, deps.pop_prev);
  SetBits(word, 5, 1, deps.pop_next);
  SetBits(word, 6, 1, deps.push_prev);
  SetBits(word, 7, 1, deps.push_next);
}

Deps GetDeps(const Word& word) {
  Deps deps;
  deps.pop_prev = GetBits(word, 4, 1) != 0;
  deps.pop_next = GetBits(word, 5, 1) != 0;
  deps.push_prev = GetBits(word, 6, 1) != 0;
  deps.push_next = GetBits(word, 7, 1) != 0;
  return deps;
}

std::string DepsText(const Deps& deps) {
  std::string text;
  if (deps.pop_prev) text += " pop_prev";
  if (deps.pop_next) text += " pop_next";
  if (deps.push_prev) text += " push_prev";
  if (deps.push_next) text += " push_next";
  return text.empty() ? text : " |" + text;
}

// "bit 127" or "bits 127:112", as an error names a field.
std::string BitRange(int lsb, int width) {
  return width == 1 ? Cat("bit ", lsb) : Cat("bits ", lsb + width - 1, ":", lsb);
}

std::string Lower(std::string_view name) {
  std::string text(name);
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Encode: one function per instruction.
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)                \
  Expected<Word> EncodeOne(const N##Insn& insn) { \
    Word word;                                    \
    PutCommon(word, OP, insn.deps);
#define OPUC_ISA_PUT_U(N, F, L, W) \
  OPUC_RETURN_IF_ERROR(Put(word, #N, #F, L, W, FieldKind::U, insn.F));
#define OPUC_ISA_PUT_S(N, F, L, W) \
  OPUC_RETURN_IF_ERROR(Put(word, #N, #F, L, W, FieldKind::S, insn.F));
#define OPUC_ISA_PUT_R(N, F, L, W)
#define OPUC_ISA_FIELD(N, F, L, W, K, D) OPUC_ISA_PUT_##K(N, F, L, W)
#define OPUC_ISA_END(N) \
  return word;          \
  }
#include "opuc/isa/isa.def"

// Decode: one function per instruction.
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)                                  \
  Expected<Instruction> DecodeOne(const Word& word, N##Insn insn) { \
    insn.deps = GetDeps(word);
#define OPUC_ISA_GET_U(N, F, L, W) insn.F = static_cast<int64_t>(GetBits(word, L, W));
#define OPUC_ISA_GET_S(N, F, L, W) insn.F = SignExtend(GetBits(word, L, W), W);
#define OPUC_ISA_GET_R(N, F, L, W) \
  if (AnyBits(word, L, W))         \
    return InvalidArgument(Cat(#N ".", #F, " (", BitRange(L, W), ") is not 0"));
#define OPUC_ISA_FIELD(N, F, L, W, K, D) OPUC_ISA_GET_##K(N, F, L, W)
#define OPUC_ISA_END(N)     \
  return Instruction(insn); \
  }
#include "opuc/isa/isa.def"

// Disassemble: one function per instruction.
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)           \
  std::string TextOne(const N##Insn& insn) { \
    std::string text = Lower(#N);
#define OPUC_ISA_TEXT_U(F) text += Cat(" " #F "=", insn.F);
#define OPUC_ISA_TEXT_S(F) text += Cat(" " #F "=", insn.F);
#define OPUC_ISA_TEXT_R(F)
#define OPUC_ISA_FIELD(N, F, L, W, K, D) OPUC_ISA_TEXT_##K(F)
#define OPUC_ISA_END(N)              \
  return text + DepsText(insn.deps); \
  }
#include "opuc/isa/isa.def"

}  // namespace

std::string_view EngineName(Engine engine) {
  switch (engine) {
    case Engine::kLoad: return "load";
    case Engine::kCompute: return "compute";
    case Engine::kStore: return "store";
  }
  return "?";
}

Engine EngineOf(const Instruction& insn) {
  return std::visit([](const auto& i) { return std::decay_t<decltype(i)>::kEngine; }, insn);
}
const Deps& DepsOf(const Instruction& insn) {
  return std::visit([](const auto& i) -> const Deps& { return i.deps; }, insn);
}
Deps& DepsOf(Instruction& insn) {
  return std::visit([](auto& i) -> Deps& { return i.deps; }, insn);
}

Expected<Word> Encode(const Instruction& insn) {
  return std::visit([](const auto& i) { return EncodeOne(i); }, insn);
}

Expected<Instruction> Decode(const Word& word) {
  const auto opcode = static_cast<int>(GetBits(word, 0, 4));
  switch (opcode) {
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D) \
  case OP:                         \
    return DecodeOne(word, N##Insn{});
#define OPUC_ISA_FIELD(N, F, L, W, K, D)
#define OPUC_ISA_END(N)
#include "opuc/isa/isa.def"
    default: break;
  }
  return InvalidArgument(Cat("opcode ", opcode, " is not an instruction"));
}

std::string Disassemble(const Instruction& insn) {
  return std::visit([](const auto& i) { return TextOne(i); }, insn);
}

std::string DisassembleProgram(const std::vector<Word>& words) {
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    Expected<Instruction> insn = Decode(words[i]);
    text += Cat(i, ": ",
                insn.ok() ? Disassemble(*insn) : "<error: " + insn.status().message() + ">", "\n");
  }
  return text;
}

const std::vector<FieldInfo>& FieldTable() {
  static const std::vector<FieldInfo> table = {
#define OPUC_ISA_COMMON(F, L, W, K, D) {"", #F, L, W, FieldKind::K, D},
#define OPUC_ISA_INSN(N, OP, E, D)
#define OPUC_ISA_FIELD(N, F, L, W, K, D) {#N, #F, L, W, FieldKind::K, D},
#define OPUC_ISA_END(N)
#include "opuc/isa/isa.def"
  };
  return table;
}

const std::vector<ValueInfo>& ValueTable() {
  static const std::vector<ValueInfo> table = {
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)
#define OPUC_ISA_FIELD(N, F, L, W, K, D)
#define OPUC_ISA_VALUE(N, F, V, X, D) {#N, #F, #V, X, D},
#define OPUC_ISA_END(N)
#include "opuc/isa/isa.def"
  };
  return table;
}

const std::vector<InsnInfo>& InsnTable() {
  static const std::vector<InsnInfo> table = {
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D) {#N, OP, Engine::E, D},
#define OPUC_ISA_FIELD(N, F, L, W, K, D)
#define OPUC_ISA_END(N)
#include "opuc/isa/isa.def"
  };
  return table;
}

}  // namespace opuc::isa
