//===- tests/tools/bad_input_cli_test.cc - docs/robustness.md's table ------===//
//
// Every kind of file opuc reads (model, program, .npy, HwConfig, photograph,
// profile), each empty, truncated, corrupt, oversized, of the wrong type and
// adversarial, through the commands that read it: each must exit 2 with one
// line "opuc: error: <file>: <what>" naming the file, and the cause the
// table in docs/robustness.md states. Nothing here may crash, hang or
// allocate what a file merely declares.
//
//===----------------------------------------------------------------------===//
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cli_util.h"
#include "frontend/tflite_builder.h"
#include "opuc/image/image.h"

namespace opuc::cli_test {
namespace {

namespace tfl = opuc::test::tfl;
using namespace std::string_literals;

/// One row of the table: the command line, and what its one line must say.
struct BadInput {
  std::string args;
  std::string file;   ///< the file the message names
  std::string cause;  ///< a part of the message after the file's name
};

void Expect(const BadInput& row) {
  CAPTURE(row.args);
  Run run = Opuc(row.args);
  CHECK(run.exit_code == 2);
  CHECK(CountLines(run.err) == 1);
  CHECK(run.err.rfind("opuc: error: ", 0) == 0);
  CHECK_MESSAGE(run.err.find(row.file) != std::string::npos, run.err);
  CHECK_MESSAGE(run.err.find(row.cause) != std::string::npos, run.err);
}

std::string Write(const std::string& name, const std::string& bytes) {
  const std::string path = TempPath(name);
  WriteFile(path, bytes);
  return path;
}

std::string Folder(const std::string& name) {
  const std::string path = TempPath(name);
  std::filesystem::create_directories(path);
  return path;
}

std::string Pipe(const std::string& name) {
  const std::string path = TempPath(name);
  std::remove(path.c_str());
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

std::string Bytes(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

/// relu on an input of `shape`: a 1-operator model whose only size is its input's.
std::string ReluModel(const std::vector<int32_t>& shape, const std::string& input_name = "x") {
  test::TfliteBuilder b;
  const int32_t x = b.Input(input_name, shape);
  const int32_t y = b.Tensor("y", shape);
  b.Op(tfl::BuiltinOperator::RELU, {x}, {y});
  b.Output(y);
  return Bytes(b.Finish());
}

/// A .npy file's preamble and header for `shape_text`, then `data`.
std::string Npy(const std::string& descr, const std::string& shape_text, const std::string& data) {
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_text + ", }";
  header += std::string(63 - (10 + header.size()) % 64, ' ') + "\n";
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string Floats(size_t count, float value) {
  std::string out(count * sizeof(float), '\0');
  for (size_t i = 0; i < count; ++i) std::memcpy(&out[i * sizeof(float)], &value, sizeof(float));
  return out;
}

/// The CRC-32 of PNG chunks (ISO 3309), bit by bit.
uint32_t Crc32(const std::string& bytes) {
  uint32_t crc = 0xffffffffu;
  for (char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return crc ^ 0xffffffffu;
}

std::string BigEndian(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

/// A PNG whose header declares width x height RGB pixels and holds none.
std::string PngDeclaring(uint32_t width, uint32_t height) {
  const std::string ihdr = "IHDR" + BigEndian(width) + BigEndian(height) + "\x08\x02\0\0\0"s;
  return "\x89PNG\r\n\x1a\n"s + BigEndian(13) + ihdr + BigEndian(Crc32(ihdr)) + BigEndian(0) +
         "IEND" + BigEndian(Crc32("IEND"));
}

/// The example compiled for tiny, as `<name>.opup`.
std::string CompiledExample(const std::string& name) {
  const std::string samples = SampleDir(name + "_samples", 1);
  const std::string program = TempPath(name + ".opup");
  REQUIRE(Opuc(std::string("compile ") + OPUC_EXAMPLE_MODEL + " --hw tiny --calibration " +
               samples + " -o " + program)
              .exit_code == 0);
  return program;
}

TEST_CASE("models: empty, truncated, corrupt, oversized, wrong type, adversarial") {
  const std::string model = ReluModel({1, 4, 4, 3});
  const std::string empty = Write("empty.tflite", "");
  const std::string cut = Write("cut.tflite", model.substr(0, model.size() / 2));
  std::string flipped = model;
  flipped[0] = '\x7f';  // the root offset, far past the end
  const std::string corrupt = Write("corrupt.tflite", flipped);
  // 64 GiB of input: imported (a shape is only numbers), refused when a run would allocate it.
  const std::string huge = Write("huge.tflite", ReluModel({1, 65536, 65536, 4}));
  const std::string photo = Write("photo.tflite", PngDeclaring(4, 4));
  const std::string folder = Folder("folder.tflite");
  const std::string pipe = Pipe("pipe.tflite");
  const std::string control = Write("control.tflite", ReluModel({1, 4, 4, 3}, "x\x1b[31m{0}"));
  const std::string deep = Write("deep.opug.json", "{\"tensors\": " + std::string(100000, '['));
  const std::string sample = Write("sample.npy", Npy("<f4", "(1, 4, 4, 3)", Floats(48, 0.5f)));
  const std::vector<BadInput> rows = {
      {"inspect " + empty, empty, ": file is empty; expected a model"},
      {"opt " + cut + " -o " + TempPath("o.opug"), cut, ": FlatBuffers verification failed in "},
      {"partition " + corrupt, corrupt,
       ": FlatBuffers verification failed in the root offset or the Model table's header"},
      {"run " + huge + " --device ref", "input 'x'",
       "f32[1,65536,65536,4] needs 68719476736 bytes (64 GiB), more than the 1 GiB"},
      {"quantize " + photo, photo,
       ": file identifier is \"\\u000d\\n\\u001a\\n\"; expected \"TFL3\""},
      {"compile " + folder + " -o " + TempPath("o.opup"), folder, ": not a regular file"},
      {"inspect " + pipe, pipe, ": not a regular file"},
      // The escape sequence would turn the terminal red: shown, not sent.
      {"run " + control + " --device ref --input y=" + sample, "--input 'y=" + sample,
       "has no input 'y' (inputs: x\\x1b[31m{0})"},
      {"inspect " + deep, deep, ": line 1, column 15: expecting: string constant instead got: ["},
  };
  for (const BadInput& row : rows) Expect(row);
}

TEST_CASE("a name's control bytes are shown in a --dot drawing, not written") {
  const std::string model = Write("control_dot.tflite", ReluModel({1, 4, 4, 3}, "x\x1b[31m\x07"));
  const std::string dot = TempPath("control.dot");
  REQUIRE(Opuc("partition " + model + " --dot " + dot).exit_code == 0);
  const std::string text = ReadFile(dot);
  CHECK(text.find("label=\"x\\\\x1b[31m\\\\x07\"") != std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
}

TEST_CASE("programs: empty, truncated, corrupt, wrong type") {
  const std::string program = CompiledExample("good");
  const std::string bytes = ReadFile(program);
  const std::string empty = Write("empty.opup", "");
  const std::string cut = Write("cut.opup", bytes.substr(0, bytes.size() / 2));
  std::string flipped = bytes;
  flipped[3] = '\x7f';  // the root offset's high byte: 2 GB on, past any program's end
  const std::string corrupt = Write("corrupt.opup", flipped);
  const std::string model = Write("model.opup", ReadFile(OPUC_EXAMPLE_MODEL));
  const std::string folder = Folder("folder.opup");
  const std::vector<BadInput> rows = {
      {"disasm " + empty, empty, ": 0 bytes is too short for a .opup file (at least 8)"},
      {"verify " + cut, cut, ": FlatBuffers verification failed in "},
      {"report " + corrupt, corrupt, ": FlatBuffers verification failed in the root offset"},
      {"run " + model + " --device fsim", model,
       ": file identifier is \"OPUG\"; expected \"OPUP\" (not a .opup program)"},
      {"detect " + folder + " " + TempPath("x.png"), folder, ": not a regular file"},
  };
  for (const BadInput& row : rows) Expect(row);
}

TEST_CASE(".npy inputs and samples: empty, truncated, oversized, wrong shape, NaN, pipe") {
  const std::string run = std::string("run ") + OPUC_EXAMPLE_MODEL + " --device ref --input input=";
  const std::string good = Npy("<f4", "(1, 32, 32, 3)", Floats(3072, 0.5f));
  const std::string empty = Write("empty.npy", "");
  const std::string cut = Write("cut.npy", good.substr(0, good.size() - 100));
  // Declares 4 TB in a file of 128 bytes: refused before allocating.
  const std::string huge = Write("huge.npy", Npy("<f4", "(100000, 100000, 100)", ""));
  const std::string shape = Write("shape.npy", Npy("<f4", "(1, 8, 8, 3)", Floats(192, 0.5f)));
  const std::string pipe = Pipe("pipe.npy");
  const std::string nan_dir = Folder("nan_samples");
  WriteFile(nan_dir + "/nan.npy",
            Npy("<f4", "(1, 32, 32, 3)", Floats(3072, std::numeric_limits<float>::quiet_NaN())));
  const std::vector<BadInput> rows = {
      {run + empty, empty, ": not a .npy file (field 'magic'"},
      {run + cut, cut, "needs 12288 (truncated)"},
      {run + huge, huge, "needs 4000000000000 (truncated)"},
      {run + shape, shape, "f32[1,8,8,3]"},
      {run + pipe, pipe, ": not a regular file"},
      {std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration " + nan_dir,
       nan_dir + "/nan.npy",
       ": element 0 is nan; calibration and evaluation samples must be finite"},
  };
  for (const BadInput& row : rows) Expect(row);
}

TEST_CASE("HwConfig files: empty, truncated, deep, wrong types, unknown fields, huge numbers") {
  const std::string partition = std::string("partition ") + OPUC_EXAMPLE_MODEL + " --hw ";
  const std::string empty = Write("empty.hw.json", "");
  const std::string cut = Write("cut.hw.json", "{\"base\": ");
  const std::string deep = Write("deep.hw.json", std::string(100, '[') + std::string(100, ']'));
  const std::string type = Write("type.hw.json", R"({"base": "tiny", "array": []})");
  const std::string unknown = Write("unknown.hw.json", R"({"base": "tiny", "arary": {}})");
  const std::string huge =
      Write("huge.hw.json", R"({"base": "tiny", "array": {"input_channels": 1e300}})");
  const std::string overflow = Write("overflow.hw.json", "[6e66666666666666666666]");
  const std::string folder = Folder("folder.hw.json");
  const std::vector<BadInput> rows = {
      {partition + empty, empty, ": JSON line 1 column 1: syntax error"},
      {partition + cut, cut, ": JSON line 1 column 10: syntax error"},
      {partition + deep, deep, ": JSON nests deeper than 32 levels"},
      {partition + type, type, ": array is an array; expected an object"},
      {partition + unknown, unknown, ": arary is not a known field"},
      {partition + huge, huge, ": array.input_channels is 1e+300; expected an integer"},
      {partition + overflow, overflow, ": JSON: number overflow"},
      {partition + folder, folder, "is not a regular file"},
  };
  for (const BadInput& row : rows) Expect(row);
}

TEST_CASE("photographs: empty, truncated, corrupt, oversized, wrong type") {
  Image gray;
  gray.width = gray.height = 8;
  gray.pixels.assign(8 * 8 * 3, 120);
  const std::string png = Bytes(EncodePng(gray, "gray.png").value());
  const auto dir_with = [](const std::string& name, const std::string& bytes) {
    const std::string dir = Folder(name);
    WriteFile(dir + "/photo.png", bytes);
    return dir + "/photo.png";
  };
  const std::string empty = dir_with("empty_photo", "");
  const std::string cut = dir_with("cut_photo", png.substr(0, png.size() - 20));
  std::string flipped = png;
  flipped[40] = static_cast<char>(flipped[40] ^ 0x55);  // inside the pixels: the CRC catches it
  const std::string corrupt = dir_with("corrupt_photo", flipped);
  const std::string huge = dir_with("huge_photo", PngDeclaring(100000, 100000));
  const std::string model = dir_with("model_photo", ReadFile(OPUC_EXAMPLE_MODEL));
  const std::string quantize = std::string("quantize ") + OPUC_EXAMPLE_MODEL + " --calibration ";
  const auto folder_of = [](const std::string& file) {
    return std::filesystem::path(file).parent_path().string();
  };
  const std::vector<BadInput> rows = {
      {quantize + folder_of(empty), empty, ": neither a PNG nor a JPEG file"},
      {quantize + folder_of(cut), cut, ": not a readable PNG"},
      {quantize + folder_of(corrupt), corrupt, ": not a readable PNG"},
      {quantize + folder_of(huge), huge, ": not a readable PNG: header: image width exceeds"},
      {quantize + folder_of(model), model, ": neither a PNG nor a JPEG file"},
  };
  for (const BadInput& row : rows) Expect(row);
}

TEST_CASE("profiles: empty, cut, deep, wrong type") {
  const std::string program = CompiledExample("profiled");
  const std::string report = "report " + program + " --profile ";
  const std::string empty = Write("empty.profile.json", "");
  const std::string cut = Write("cut.profile.json", "{\"format\": \"opuc-profile\",");
  const std::string deep = Write("deep.profile.json", std::string(1000, '['));
  const std::string array = Write("array.profile.json", "[1, 2]");
  const std::vector<BadInput> rows = {
      {report + empty, empty, ": JSON line 1 column 1: syntax error"},
      {report + cut, cut, ": JSON line 1 column 27: syntax error"},
      {report + deep, deep, ": JSON nests deeper than 16 levels"},
      {report + array, array, ": not a JSON object"},
  };
  for (const BadInput& row : rows) Expect(row);
}

}  // namespace
}  // namespace opuc::cli_test
