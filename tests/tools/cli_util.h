//===- tests/tools/cli_util.h - Running `opuc` as a user would -*- C++ -*-===//
//
// A child process, its exit code, its stdout and its stderr; temporary
// files kept apart per process (ctest runs cases in parallel).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_TOOLS_CLI_UTIL_H
#define OPUC_TESTS_TOOLS_CLI_UTIL_H

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include <filesystem>

#include "opuc/tensor_io/npy.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::cli_test {

struct Run {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  // ctest runs cases in parallel processes; the pid keeps their files apart.
  return std::string(dir ? dir : "/tmp") + "/opuc_cli_test_" + std::to_string(getpid()) + "_" +
         name;
}

inline Run Opuc(const std::string& args) {
  const std::string out = TempPath("stdout"), err = TempPath("stderr");
  const std::string command = std::string(OPUC_CLI_PATH) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(command.c_str());
  Run run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadFile(out);
  run.err = ReadFile(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return run;
}

/// A folder with `count` samples for the example's input, s0.npy, s1.npy, ...
inline std::string SampleDir(const std::string& name, int count) {
  const std::string dir = TempPath(name);
  std::filesystem::create_directories(dir);
  for (int i = 0; i < count; ++i) {
    opuc::Expected<opuc::HostTensor> x =
        opuc::RandomTensor(opuc::DType::kF32, {1, 32, 32, 3}, static_cast<uint64_t>(i + 1));
    REQUIRE(x.ok());
    REQUIRE(opuc::WriteNpy(dir + "/s" + std::to_string(i) + ".npy", *x).ok());
  }
  return dir;
}

inline size_t CountLines(const std::string& text) {
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

}  // namespace opuc::cli_test

#endif  // OPUC_TESTS_TOOLS_CLI_UTIL_H
