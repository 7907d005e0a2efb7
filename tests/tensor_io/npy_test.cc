// The .npy reader and writer: byte-exact files written out by hand from the
// published format, round trips of every dtype, and every malformed case.
#include "opuc/tensor_io/npy.h"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace opuc {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/opuc_npy_test_" + std::to_string(getpid()) + "_" +
         name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

Expected<HostTensor> Decode(const std::string& bytes) {
  return DecodeNpy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t.npy");
}

std::string Error(const std::string& bytes) {
  Expected<HostTensor> t = Decode(bytes);
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().code() == StatusCode::kInvalidArgument);
  return t.status().message();
}

// What numpy.save writes for np.arange(6, dtype='<f4').reshape(2, 3), from the
// format description: magic \x93NUMPY, version 1.0, header length 118 = 0x76
// little-endian, then the 59-character dict
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with 58 spaces and a '\n' so that 10 + 118 = 128 is a multiple of 64,
// then 0.0 .. 5.0 as little-endian floats (1.0 = 0x3F800000, 2.0 = 0x40000000,
// 3.0 = 0x40400000, 4.0 = 0x40800000, 5.0 = 0x40A00000).
std::string Arange6() {
  std::string file("\x93NUMPY\x01\x00\x76\x00", 10);
  file += "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  file += std::string(58, ' ') + "\n";
  file += std::string(
      "\x00\x00\x00\x00"
      "\x00\x00\x80\x3F"
      "\x00\x00\x00\x40"
      "\x00\x00\x40\x40"
      "\x00\x00\x80\x40"
      "\x00\x00\xA0\x40",
      24);
  return file;
}

/// A version 1.0 file around `dict` (padded like numpy) and `data`.
std::string NpyV1(const std::string& dict, const std::string& data) {
  std::string text = dict;
  while ((10 + text.size() + 1) % 64 != 0) text += ' ';
  text += '\n';
  std::string file("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(text.size() & 0xff);
  file += static_cast<char>(text.size() >> 8);
  return file + text + data;
}

TEST_CASE("the hand-written arange(6) file decodes") {
  REQUIRE(Arange6().size() == 128 + 24);
  Expected<HostTensor> t = Decode(Arange6());
  REQUIRE(t.ok());
  CHECK(t->dtype() == DType::kF32);
  CHECK(t->shape() == Shape{2, 3});
  for (int i = 0; i < 6; ++i) CHECK(t->data<float>()[i] == static_cast<float>(i));
}

TEST_CASE("the writer produces numpy's bytes exactly") {
  HostTensor t = HostTensor::Zeros(DType::kF32, {2, 3}).value();
  for (int i = 0; i < 6; ++i) t.data<float>()[i] = static_cast<float>(i);
  const std::string path = TempPath("arange.npy");
  REQUIRE(WriteNpy(path, t).ok());
  CHECK(ReadFile(path) == Arange6());
  std::remove(path.c_str());
  // Scalars and one-dimensional shapes print as Python tuples do.
  CHECK(Contains(EncodeNpyHeader(DType::kF32, {}), "'shape': (), }"));
  CHECK(Contains(EncodeNpyHeader(DType::kI8, {6}),
                 "{'descr': '|i1', 'fortran_order': False, "
                 "'shape': (6,), }"));
  for (const Shape& shape : {Shape{}, Shape{6}, Shape{1, 32, 32, 3}, Shape{12345678901}})
    CHECK(EncodeNpyHeader(DType::kF32, shape).size() % 64 == 0);
}

TEST_CASE("every supported dtype round-trips through a file") {
  for (DType dtype : {DType::kF32, DType::kF16, DType::kI8, DType::kI16, DType::kI32}) {
    CAPTURE(DTypeName(dtype));
    HostTensor t = HostTensor::Zeros(dtype, {2, 1, 3}).value();
    for (size_t i = 0; i < t.bytes(); ++i) t.mutable_bytes()[i] = static_cast<uint8_t>(i * 7 + 1);
    const std::string path = TempPath("roundtrip.npy");
    REQUIRE(WriteNpy(path, t).ok());
    Expected<HostTensor> back = ReadNpy(path);
    std::remove(path.c_str());
    REQUIRE(back.ok());
    CHECK(back->type() == t.type());
    CHECK(std::memcmp(back->raw(), t.raw(), t.bytes()) == 0);
  }
}

TEST_CASE("the reader accepts versions 2.0 and 3.0, any key order and either quote") {
  const std::string dict = "{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"<i2\"}";
  std::string text = dict + std::string(64 - (12 + dict.size() + 1) % 64, ' ') + "\n";
  for (char major : {'\x02', '\x03'}) {
    std::string file("\x93NUMPY", 6);
    file += major;
    file += '\0';
    const uint32_t n = static_cast<uint32_t>(text.size());
    for (int i = 0; i < 4; ++i) file += static_cast<char>((n >> (8 * i)) & 0xff);
    file += text + std::string("\x01\x00\x02\x00\xff\xff", 6);
    Expected<HostTensor> t = Decode(file);
    REQUIRE(t.ok());
    CHECK(t->dtype() == DType::kI16);
    CHECK(t->data<int16_t>()[2] == -1);
  }
  // Python 2 wrote long integers as "3L".
  Expected<HostTensor> old =
      Decode(NpyV1("{'descr': '|i1', 'fortran_order': False, "
                   "'shape': (3L,), }",
                   "abc"));
  REQUIRE(old.ok());
  CHECK(old->shape() == Shape{3});
}

TEST_CASE("malformed files are errors naming the file and the field") {
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string eight(8, '\0');
  CHECK(Contains(Error("\x93NUMPX\x01\x00"), "t.npy: not a .npy file (field 'magic'"));
  CHECK(Contains(Error(std::string("\x93NUMPY\x04\x00\x10\x00", 10)),
                 "t.npy: field 'version' is 4.0; expected 1.0, 2.0 or 3.0"));
  CHECK(Contains(Error(NpyV1("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", eight)),
                 "t.npy: header field 'fortran_order' is True; only C order is supported"));
  CHECK(Contains(Error(NpyV1("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", eight)),
                 "header field 'descr' is '>f4': big-endian data is not supported"));
  CHECK(Contains(Error(NpyV1("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", eight)),
                 "header field 'descr' is '<f8'; supported"));
  CHECK(Contains(Error(NpyV1("{'descr': '<f4', 'shape': (2,), }", eight)),
                 "header field 'fortran_order' is missing"));
  CHECK(Contains(Error(NpyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), "
                             "'extra': 1, }",
                             eight)),
                 "unexpected or repeated key 'extra'"));
  CHECK(Contains(Error(NpyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", eight)),
                 "header field 'shape'"));
  CHECK(Contains(Error(NpyV1(good, std::string(7, '\0'))),
                 "t.npy: data holds 7 bytes; 'shape' (2,) of '<f4' needs 8 (truncated)"));
  CHECK(Contains(Error(NpyV1(good, std::string(9, '\0'))), "(trailing bytes)"));
  // The header length points past the end of the file.
  CHECK(Contains(Error(Arange6().substr(0, 60)), "field 'header_len' is 118 bytes but the file"));
  // No '\n' at the end of the header.
  std::string no_newline = Arange6();
  no_newline[127] = ' ';
  CHECK(Contains(Error(no_newline), "final '\\n'"));
}

TEST_CASE("ReadNpy checks the data against the file and names it") {
  const std::string path = TempPath("truncated.npy");
  WriteFile(path, Arange6().substr(0, 140));
  Expected<HostTensor> t = ReadNpy(path);
  std::remove(path.c_str());
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().message() ==
        path + ": data holds 12 bytes; 'shape' (2, 3) of '<f4' needs 24 (truncated)");
  Expected<HostTensor> missing = ReadNpy("/nonexistent/x.npy");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == StatusCode::kIoError);
  CHECK(Contains(missing.status().message(), "/nonexistent/x.npy"));
}

TEST_CASE("a declared length beyond the file is refused before anything is allocated") {
  // Version 2.0 with header_len 0xffffffff in 12 bytes: reading it used to
  // reserve 4 GiB for the header text first.
  const std::string path = TempPath("huge_header.npy");
  WriteFile(path, std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12));
  const std::string expected =
      path + ": field 'header_len' is 4294967295 bytes but the file ends after 0";
#ifndef __SANITIZE_ADDRESS__  // ASan's shadow memory does not fit under the limit
  // In a child with 1 GiB of address space: reserving 4 GiB would throw there.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit limit{rlim_t{1} << 30, rlim_t{1} << 30};
    setrlimit(RLIMIT_AS, &limit);
    try {
      Expected<HostTensor> t = ReadNpy(path);
      _exit(!t.ok() && t.status().message() == expected ? 0 : 1);
    } catch (...) {
      _exit(2);  // bad_alloc: the length was believed before the file was checked
    }
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
#endif
  Expected<HostTensor> t = ReadNpy(path);
  std::remove(path.c_str());
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().message() == expected);
}

TEST_CASE("a folder or a named pipe is refused without opening it") {
  const std::string dir = TempPath("npy_dir");
  std::remove(dir.c_str());
  REQUIRE(mkdir(dir.c_str(), 0700) == 0);
  CHECK(ReadNpy(dir).status().message() == dir + ": not a regular file (a .npy file is needed)");
  const std::string pipe = dir + "/pipe.npy";
  REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
  // fopen() of a pipe with no writer blocks; the check comes first.
  CHECK(ReadNpy(pipe).status().code() == StatusCode::kInvalidArgument);
  std::remove(pipe.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace opuc
