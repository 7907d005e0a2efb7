// The ISA from its field table: the table tiles every word, broken tables
// are refused, every field round-trips at both ends of its range with its
// bits where the table says (set bit by bit here, not with the encoder's
// helpers), and one word is compared with bits worked out by hand.
#include "opuc/isa/isa.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace opuc::isa {
namespace {

// The word a lone field value should give: opcode in [3:0], the low
// `width` bits of value from bit lsb (bits 64 and up in the high half).
Word ExpectedWord(int opcode, int lsb, int width, int64_t value) {
  Word w;
  w.lo = static_cast<uint64_t>(opcode);
  for (int b = 0; b < width; ++b) {
    if (((static_cast<uint64_t>(value) >> b) & 1u) == 0) continue;
    const int bit = lsb + b;
    if (bit < 64)
      w.lo |= uint64_t{1} << bit;
    else
      w.hi |= uint64_t{1} << (bit - 64);
  }
  return w;
}

TEST_CASE("the field table covers every bit of every instruction once") {
  CHECK(CheckTable(InsnTable(), FieldTable()).ok());
  CHECK(InsnTable().size() == 11);
}

std::string Broken(std::vector<InsnInfo> insns, std::vector<FieldInfo> fields) {
  Status status = CheckTable(insns, fields);
  return status.ok() ? "accepted" : status.message();
}

TEST_CASE("broken tables are refused, naming the instruction, field and bit") {
  const std::vector<FieldInfo> common = {{"", "opcode", 0, 4, FieldKind::U, ""},
                                         {"", "rest", 4, 4, FieldKind::U, ""}};
  auto with = [&](std::vector<FieldInfo> own) {
    std::vector<FieldInfo> fields = common;
    fields.insert(fields.end(), own.begin(), own.end());
    return fields;
  };
  const std::vector<InsnInfo> one = {{"A", 1, Engine::kLoad, ""}};
  const FieldInfo a_all{"A", "x", 8, 120, FieldKind::U, ""};
  CHECK(Broken(one, with({a_all})) == "accepted");
  CHECK(Broken(one, with({{"A", "x", 8, 100, FieldKind::U, ""}})) ==
        "A: bit 108 belongs to no field (add it to a field or to 'reserved')");
  CHECK(Broken(one, with({{"A", "x", 8, 100, FieldKind::U, ""},
                          {"A", "y", 100, 28, FieldKind::R, ""}})) ==
        "A: bit 100 belongs to both A.x and A.y");
  CHECK(Broken(one, with({{"A", "x", 7, 121, FieldKind::U, ""}})) ==
        "A: bit 7 belongs to both rest and A.x");
  CHECK(Broken(one, with({{"A", "x", 8, 121, FieldKind::U, ""}})) ==
        "A: field A.x (bits 128:8) does not lie inside the 128-bit word");
  CHECK(Broken(one, with({{"A", "x", 8, 0, FieldKind::U, ""}, a_all})).find("does not lie") !=
        std::string::npos);
  CHECK(Broken(one, with({a_all, {"A", "x", 8, 1, FieldKind::U, ""}})) ==
        "A: field x is defined twice");
  CHECK(Broken({{"A", 0, Engine::kLoad, ""}}, with({a_all})) == "A: opcode 0 is not in 1 to 15");
  CHECK(Broken({{"A", 16, Engine::kLoad, ""}}, with({a_all})) == "A: opcode 16 is not in 1 to 15");
  CHECK(Broken({{"A", 1, Engine::kLoad, ""}, {"B", 1, Engine::kStore, ""}},
               with({a_all, {"B", "x", 8, 120, FieldKind::U, ""}})) ==
        "B: opcode 1 is already taken");
  CHECK(Broken({{"A", 1, Engine::kLoad, ""}, {"A", 2, Engine::kStore, ""}}, with({a_all})) ==
        "instruction A is defined twice");
  CHECK(Broken(one, with({a_all, {"C", "x", 8, 1, FieldKind::U, ""}})) ==
        "field C.x names no instruction");
  CHECK(Broken(one, {a_all}) == "the table has no common field 'opcode'");
}

// Every unsigned or signed field of every instruction, alone at its
// minimum and its maximum: the bits land where the table says, the word
// decodes to the same struct, one past either end is refused by name.
template <typename Insn, typename Member>
void RoundTrip(Member member, const char* name, int lsb, int width, FieldKind kind) {
  CAPTURE(Insn::kName);
  CAPTURE(name);
  const int64_t lo = kind == FieldKind::S ? -(int64_t{1} << (width - 1)) : 0;
  const int64_t hi =
      kind == FieldKind::S ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
  for (int64_t value : {lo, hi, int64_t{1}}) {
    Insn insn;
    insn.*member = value;
    Expected<Word> word = Encode(insn);
    REQUIRE(word.ok());
    CHECK(*word == ExpectedWord(Insn::kOpcode, lsb, width, value));
    Expected<Instruction> back = Decode(*word);
    REQUIRE(back.ok());
    REQUIRE(std::holds_alternative<Insn>(*back));
    CHECK(std::get<Insn>(*back).*member == value);
  }
  for (int64_t value : {lo - 1, hi + 1}) {
    Insn insn;
    insn.*member = value;
    Expected<Word> word = Encode(insn);
    REQUIRE_FALSE(word.ok());
    std::ostringstream expected;
    expected << Insn::kName << "." << name << " is " << value << "; the field holds " << lo
             << " to " << hi;
    CHECK(word.status().message() == expected.str());
  }
}

TEST_CASE("every field round-trips at its minimum and maximum") {
  int checked = 0;
#define OPUC_ISA_COMMON(F, L, W, K, D)
#define OPUC_ISA_INSN(N, OP, E, D)
#define OPUC_ISA_TRIP_U(N, F, L, W) \
  RoundTrip<N##Insn>(&N##Insn::F, #F, L, W, FieldKind::U), ++checked;
#define OPUC_ISA_TRIP_S(N, F, L, W) \
  RoundTrip<N##Insn>(&N##Insn::F, #F, L, W, FieldKind::S), ++checked;
#define OPUC_ISA_TRIP_R(N, F, L, W)
#define OPUC_ISA_FIELD(N, F, L, W, K, D) OPUC_ISA_TRIP_##K(N, F, L, W)
#define OPUC_ISA_END(N)
#include "opuc/isa/isa.def"
  CHECK(checked == 103);
}

TEST_CASE("dependency bits round-trip") {
  for (int bits = 0; bits < 16; ++bits) {
    StoreInsn store;
    store.deps = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0};
    Expected<Word> word = Encode(store);
    REQUIRE(word.ok());
    CHECK(word->lo == static_cast<uint64_t>(5 | bits << 4));
    CHECK(std::get<StoreInsn>(*Decode(*word)).deps == store.deps);
  }
}

TEST_CASE("a load word, bit for bit as worked out by hand") {
  LoadInsn load;
  load.buffer = LoadInsn::kWeights;
  load.sram_addr = 2;
  load.dram_addr = 0x1000;
  load.rows = 3;
  load.cols = 4;
  load.dram_stride = 64;
  load.pad_top = 1;
  load.pad_bottom = 2;
  load.pad_left = 3;
  load.pad_right = 4;
  load.zeros_x = 1;
  load.diagonal = 1;
  load.interleave = 1;
  load.deps.push_next = true;
  Expected<Word> word = Encode(load);
  REQUIRE(word.ok());
  // opcode 1 | push_next 0x80 | buffer 1<<8 | sram 2<<10 | dram 2^12<<26 | rows 3<<58
  CHECK(word->lo == 0x0C00004000000981u);
  // cols 4<<6 | stride 64<<18 | pads 1<<42, 2<<46, 3<<50, 4<<54 | zeros_x 1<<60
  // | diagonal 1<<62 | interleave 1<<63 (bit 64 is bit 0 here)
  CHECK(word->hi == 0xD10C840001000100u);
  CHECK(
      Disassemble(load) ==
      "load buffer=1 sram_addr=2 dram_addr=4096 rows=3 cols=4 dram_stride=64 granules=0 "
      "pad_top=1 pad_bottom=2 pad_left=3 pad_right=4 zeros_y=0 zeros_x=1 diagonal=1 interleave=1 | "
      "push_next");
}

TEST_CASE("decoding refuses opcode 0, unknown opcodes and reserved bits") {
  Expected<Instruction> zero = Decode(Word{});
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.status().message() == "opcode 0 is not an instruction");
  CHECK(Decode(Word{15, 0}).status().message() == "opcode 15 is not an instruction");
  CHECK(Decode(Word{6, uint64_t{1} << 63}).status().message() ==
        "ResAdd.reserved (bits 127:124) is not 0");
  CHECK(Decode(Word{10, uint64_t{1} << 63}).status().message() ==
        "Average.reserved (bits 127:111) is not 0");
  // Reserved fields wider than 64 bits: Table's runs over bits 58..127, and
  // only its last bit is set (checked bit by bit: found by fuzz_program as
  // a shift past 64 under UBSan).
  CHECK(Decode(Word{9, uint64_t{1} << 63}).status().message() ==
        "Table.reserved (bits 127:58) is not 0");
  CHECK(Decode(Word{9 | (uint64_t{1} << 58), 0}).status().message() ==
        "Table.reserved (bits 127:58) is not 0");
  CHECK(DisassembleProgram({Word{3, 0}, Word{}}) ==
        "0: output acc_addr=0 count=0 param_addr=0 lo=0 hi=0\n"
        "1: <error: opcode 0 is not an instruction>\n");
}

TEST_CASE("signed fields sign-extend") {
  ClampInsn clamp;
  clamp.shift = -3;
  clamp.lo = -32768;
  clamp.hi = 255;
  const Instruction back = *Decode(*Encode(clamp));
  CHECK(std::get<ClampInsn>(back).shift == -3);
  CHECK(std::get<ClampInsn>(back).lo == -32768);
  CHECK(std::get<ClampInsn>(back).hi == 255);
}

TEST_CASE("docs/isa.md holds the table the .def generates") {
  std::ifstream file(OPUC_SOURCE_DIR "/docs/isa.md");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  CHECK_MESSAGE(text.str().find(IsaMarkdown()) != std::string::npos,
                "regenerate the table: opuc isa --markdown");
}

TEST_CASE("the SystemVerilog package names every opcode and field") {
  const std::string sv = IsaSystemVerilog();
  CHECK(sv.find("localparam logic [3:0] OP_GEMM = 4'd2;") != std::string::npos);
  CHECK(sv.find("localparam int unsigned LOAD_DRAM_ADDR_LSB = 26;") != std::string::npos);
  CHECK(sv.find("localparam int unsigned LOAD_DRAM_ADDR_WIDTH = 32;") != std::string::npos);
  CHECK(sv.find("localparam int unsigned PUSH_NEXT_LSB = 7;") != std::string::npos);
  CHECK(sv.find("localparam logic [LOAD_BUFFER_WIDTH-1:0] LOAD_BUFFER_FEATURE_MAP = 0;") !=
        std::string::npos);
  CHECK(sv.find("localparam logic [GEMM_INIT_WIDTH-1:0] GEMM_INIT_FROM_ZERO = 2;") !=
        std::string::npos);
  CHECK(sv.find("localparam logic [RESADD_RES_FORMAT_WIDTH-1:0] RESADD_RES_FORMAT_I16 = 2;") !=
        std::string::npos);
}

// The values as docs/isa.md's meanings number them, worked out by hand.
TEST_CASE("named field values: the table's, and C++ constants of the same value") {
  CHECK(CheckValues(FieldTable(), ValueTable()).ok());
  static_assert(LoadInsn::kFeatureMap == 0 && LoadInsn::kWeights == 1 && LoadInsn::kParams == 2);
  static_assert(GemmInsn::kAccumulate == 0 && GemmInsn::kFromBias == 1 &&
                GemmInsn::kFromZero == 2 && GemmInsn::kPairsFromBias == 3);
  static_assert(TableInsn::kI8 == 0 && TableInsn::kU8 == 1 && TableInsn::kI16 == 2);
  static_assert(ResAddInsn::kI8 == 0 && ResAddInsn::kU8 == 1 && ResAddInsn::kI16 == 2);
  static_assert(GemmInsn::kI8 == 0 && GemmInsn::kU8 == 1 && GemmInsn::kHigh == 2 &&
                GemmInsn::kI16 == 3);
  CHECK(ValueTable().size() == 17);
  CHECK(ValueTable()[1].name == "Weights");
  CHECK(ValueTable()[1].field == "buffer");
}

std::string BrokenValues(std::vector<ValueInfo> values) {
  const std::vector<FieldInfo> fields = {{"A", "x", 8, 2, FieldKind::U, ""},
                                         {"A", "y", 10, 2, FieldKind::S, ""}};
  Status status = CheckValues(fields, values);
  return status.ok() ? "accepted" : status.message();
}

TEST_CASE("broken named values are refused, naming the value") {
  CHECK(BrokenValues({{"A", "x", "P", 0, ""}, {"A", "x", "Q", 3, ""}}) == "accepted");
  CHECK(BrokenValues({{"A", "z", "P", 0, ""}}) == "A.z P names no field");
  CHECK(BrokenValues({{"A", "x", "P", 4, ""}}) == "A.x P is 4; the field holds 0 to 3");
  CHECK(BrokenValues({{"A", "y", "P", 1, ""}}) == "A.y P is 1; the field holds 0 to 3");
  CHECK(BrokenValues({{"A", "x", "P", 0, ""}, {"A", "x", "P", 1, ""}}) ==
        "A.x P: A already names a value P");
  CHECK(BrokenValues({{"A", "x", "P", 1, ""}, {"A", "x", "Q", 1, ""}}) == "A.x Q is 1, as P is");
}

}  // namespace
}  // namespace opuc::isa
