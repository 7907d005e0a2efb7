//===- src/isa/isa_table.cc - Checking and printing the field table ---===//
//
// CheckTable is what a generator must refuse (riscv-opcodes and QEMU's
// decodetree reject overlaps, gaps and duplicate opcodes the same way); the
// Markdown and SystemVerilog printers are the other two products of the
// table besides the C++ in isa.cc.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cctype>
#include <set>

#include "opuc/isa/isa.h"
#include "support/format.h"

namespace opuc::isa {
namespace {

std::string Bits(const FieldInfo& f) {
  return f.width == 1 ? Cat(f.lsb) : Cat(f.lsb + f.width - 1, ":", f.lsb);
}

std::string FieldName(const FieldInfo& f) {
  return f.insn.empty() ? std::string(f.name) : Cat(f.insn, ".", f.name);
}

// Marks the bits of `f` in `owner`; the first clash names both fields.
Status Claim(std::vector<const FieldInfo*>& owner, const FieldInfo& f, std::string_view insn) {
  if (f.width < 1 || f.lsb < 0 || f.lsb + f.width > kWordBits)
    return InvalidArgument(Cat(insn, ": field ", FieldName(f), " (bits ", Bits(f),
                               ") does not lie inside the ", kWordBits, "-bit word"));
  for (int b = f.lsb; b < f.lsb + f.width; ++b) {
    if (owner[static_cast<size_t>(b)] != nullptr)
      return InvalidArgument(Cat(insn, ": bit ", b, " belongs to both ",
                                 FieldName(*owner[static_cast<size_t>(b)]), " and ", FieldName(f)));
    owner[static_cast<size_t>(b)] = &f;
  }
  return OkStatus();
}

const FieldInfo* Common(const std::vector<FieldInfo>& fields, std::string_view name) {
  for (const FieldInfo& f : fields)
    if (f.insn.empty() && f.name == name) return &f;
  return nullptr;
}

// A value's name in SystemVerilog: "FeatureMap" -> "FEATURE_MAP", "I16" -> "I16".
std::string Snake(std::string_view name) {
  std::string text;
  for (size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (i > 0 && std::isupper(c) && std::islower(static_cast<unsigned char>(name[i - 1])))
      text += '_';
    text += static_cast<char>(std::toupper(c));
  }
  return text;
}

std::string_view KindText(FieldKind kind) {
  switch (kind) {
    case FieldKind::U: return "unsigned";
    case FieldKind::S: return "signed";
    case FieldKind::R: return "reserved, 0";
  }
  return "?";
}

}  // namespace

Status CheckTable(const std::vector<InsnInfo>& insns, const std::vector<FieldInfo>& fields) {
  const FieldInfo* opcode = Common(fields, "opcode");
  if (opcode == nullptr) return InvalidArgument("the table has no common field 'opcode'");
  std::set<int> opcodes;
  std::set<std::string_view> names;
  for (const InsnInfo& insn : insns) {
    if (!names.insert(insn.name).second)
      return InvalidArgument(Cat("instruction ", insn.name, " is defined twice"));
    if (insn.opcode < 1 || insn.opcode >= (1 << opcode->width))
      return InvalidArgument(
          Cat(insn.name, ": opcode ", insn.opcode, " is not in 1 to ", (1 << opcode->width) - 1));
    if (!opcodes.insert(insn.opcode).second)
      return InvalidArgument(Cat(insn.name, ": opcode ", insn.opcode, " is already taken"));
    std::vector<const FieldInfo*> owner(kWordBits, nullptr);
    std::set<std::string_view> field_names;
    for (const FieldInfo& f : fields) {
      if (!f.insn.empty() && f.insn != insn.name) continue;
      if (!field_names.insert(f.name).second)
        return InvalidArgument(Cat(insn.name, ": field ", f.name, " is defined twice"));
      OPUC_RETURN_IF_ERROR(Claim(owner, f, insn.name));
    }
    const auto gap = std::find(owner.begin(), owner.end(), nullptr);
    if (gap != owner.end())
      return InvalidArgument(Cat(insn.name, ": bit ", gap - owner.begin(),
                                 " belongs to no field (add it to a field or to 'reserved')"));
  }
  for (const FieldInfo& f : fields) {
    if (!f.insn.empty() && names.count(f.insn) == 0)
      return InvalidArgument(Cat("field ", FieldName(f), " names no instruction"));
  }
  return OkStatus();
}

Status CheckValues(const std::vector<FieldInfo>& fields, const std::vector<ValueInfo>& values) {
  for (size_t v = 0; v < values.size(); ++v) {
    const ValueInfo& value = values[v];
    const std::string name = Cat(value.insn, ".", value.field, " ", value.name);
    const auto field = std::find_if(fields.begin(), fields.end(), [&](const FieldInfo& f) {
      return f.insn == value.insn && f.name == value.field;
    });
    if (field == fields.end()) return InvalidArgument(Cat(name, " names no field"));
    if (field->kind != FieldKind::U || value.value < 0 ||
        value.value >= (int64_t{1} << field->width))
      return InvalidArgument(Cat(name, " is ", value.value, "; the field holds 0 to ",
                                 (int64_t{1} << field->width) - 1));
    for (size_t w = 0; w < v; ++w) {
      const ValueInfo& other = values[w];
      if (other.insn != value.insn) continue;
      if (other.name == value.name)
        return InvalidArgument(Cat(name, ": ", value.insn, " already names a value ", value.name));
      if (other.field == value.field && other.value == value.value)
        return InvalidArgument(Cat(name, " is ", value.value, ", as ", other.name, " is"));
    }
  }
  return OkStatus();
}

std::string IsaMarkdown() {
  std::string text = "| instruction | opcode | engine | field | bits | kind | meaning |\n";
  text += "|---|---|---|---|---|---|---|\n";
  for (const FieldInfo& f : FieldTable()) {
    if (!f.insn.empty()) continue;
    text += Cat("| (every) | | | `", f.name, "` | ", Bits(f), " | ", KindText(f.kind), " | ",
                f.meaning, " |\n");
  }
  for (const InsnInfo& insn : InsnTable()) {
    text += Cat("| **", insn.name, "** | ", insn.opcode, " | ", EngineName(insn.engine),
                " | | | | ", insn.meaning, " |\n");
    for (const FieldInfo& f : FieldTable()) {
      if (f.insn != insn.name) continue;
      text += Cat("| | | | `", f.name, "` | ", Bits(f), " | ", KindText(f.kind), " | ", f.meaning,
                  " |\n");
    }
  }
  return text;
}

std::string IsaSystemVerilog() {
  std::string text =
      "// Generated from include/opuc/isa/isa.def by `opuc isa --sv`: do not edit.\n"
      "package opuc_isa_pkg;\n";
  text += Cat("  localparam int unsigned WORD_BITS = ", kWordBits, ";\n");
  text +=
      "  typedef enum logic [1:0] { ENGINE_LOAD = 2'd0, ENGINE_COMPUTE = 2'd1, "
      "ENGINE_STORE = 2'd2 } engine_e;\n";
  for (const InsnInfo& insn : InsnTable()) {
    std::string upper(insn.name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    text += Cat("  localparam logic [3:0] OP_", upper, " = 4'd", insn.opcode, ";\n");
    text += Cat("  localparam engine_e ENGINE_OF_", upper, " = ENGINE_",
                insn.engine == Engine::kLoad      ? "LOAD"
                : insn.engine == Engine::kCompute ? "COMPUTE"
                                                  : "STORE",
                ";\n");
  }
  for (const FieldInfo& f : FieldTable()) {
    std::string name = f.insn.empty() ? std::string(f.name) : Cat(f.insn, "_", f.name);
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    text += Cat("  localparam int unsigned ", name, "_LSB = ", f.lsb, ";\n");
    text += Cat("  localparam int unsigned ", name, "_WIDTH = ", f.width, ";\n");
  }
  for (const ValueInfo& v : ValueTable()) {
    std::string field = Cat(v.insn, "_", v.field);  // as the field's names above
    for (char& c : field) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    text += Cat("  localparam logic [", field, "_WIDTH-1:0] ", field, "_", Snake(v.name), " = ",
                v.value, ";\n");
  }
  text += "endpackage\n";
  return text;
}

}  // namespace opuc::isa
