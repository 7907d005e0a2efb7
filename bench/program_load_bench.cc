//===- bench/program_load_bench.cc - Loading a .opup reads it in place ----===//
//
// Claim (issue 16): loading a program (ReadProgram: the FlatBuffers
// verifier, the semantic checks, the graph's tables) does not copy or read
// the constants or the weights: its time follows the instructions (each is
// decoded and its DRAM accesses checked), a constant cost per word, not the
// bytes of weights. Programs
// for one fully connected layer of 1024 inputs and N outputs are compiled
// for opu1024 with N from 64 to 16384 (64 KiB to 16 MiB of int8 weights,
// held twice: in the graph and in the array's order in the constant blob). Each
// is loaded many times from one aligned buffer; the median is reported per
// instruction and per MiB of program, with what copying the buffer once
// costs, for scale. More outputs also mean more instructions (one output
// block of the array at a time), which is why the time per word is the
// number to watch.
//
//   build/bench/program_load_bench
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "opuc/compiler/compile.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/program/program.h"
#include "opuc/tensor_io/random_input.h"

namespace {

using namespace opuc;
using Clock = std::chrono::steady_clock;

constexpr int64_t kInputs = 1024;

std::vector<uint8_t> CompileFc(int64_t n) {
  GraphBuilder b("fc");
  const TensorId x = b.Input("x", DType::kF32, {1, kInputs});
  std::vector<float> w(static_cast<size_t>(n * kInputs));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 251) / 251.0f - 0.5f;
  b.Output(b.Op(OpKind::kFullyConnected, "fc", {x, b.ConstantF32("w", {n, kInputs}, w)}));
  Graph graph = std::move(b).Finish().value();
  std::vector<std::vector<HostTensor>> samples(2);
  for (size_t i = 0; i < samples.size(); ++i)
    samples[i].push_back(RandomTensor(DType::kF32, {1, kInputs}, i + 1).value());
  Expected<CompiledModel> compiled =
      CompileModel(std::move(graph), samples, HwConfigPreset("opu1024").value(), {});
  if (!compiled.ok()) {
    std::fprintf(stderr, "compile: %s\n", compiled.status().ToString().c_str());
    std::exit(1);
  }
  return compiled->program;
}

double MedianMicros(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  std::printf("%8s %10s %8s %11s %11s %12s %12s\n", "N", "program", "words", "load (us)",
              "memcpy (us)", "ns/word", "us/MiB");
  double first_word = 0, last_word = 0, first_mib = 0, last_mib = 0;
  for (int64_t n = 64; n <= 16384; n *= 4) {
    const std::vector<uint8_t> bytes = CompileFc(n);
    auto owner =
        std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size()],
                                 [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
    std::memcpy(owner.get(), bytes.data(), bytes.size());
    std::vector<double> loads, copies;
    std::vector<uint8_t> copy(bytes.size());
    for (int rep = 0; rep < 41; ++rep) {
      const auto t0 = Clock::now();
      Expected<Program> p = ReadProgram(owner, owner.get(), bytes.size(), "fc.opup");
      const auto t1 = Clock::now();
      if (!p.ok()) {
        std::fprintf(stderr, "load: %s\n", p.status().ToString().c_str());
        return 1;
      }
      std::memcpy(copy.data(), owner.get(), bytes.size());
      const auto t2 = Clock::now();
      loads.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      copies.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
    }
    size_t words = 0;
    const Program loaded = ReadProgram(owner, owner.get(), bytes.size(), "fc.opup").value();
    for (const ProgramStep& s : loaded.steps()) words += s.word_count;
    const double load = MedianMicros(loads), memcpy_us = MedianMicros(copies);
    const double per_word = 1000.0 * load / static_cast<double>(words);
    const double per_mib = load / (static_cast<double>(bytes.size()) / (1 << 20));
    if (first_word == 0) {
      first_word = per_word;
      first_mib = per_mib;
    }
    last_word = per_word;
    last_mib = per_mib;
    std::printf("%8lld %10zu %8zu %11.1f %11.1f %12.1f %12.1f\n", static_cast<long long>(n),
                bytes.size(), words, load, memcpy_us, per_word, per_mib);
    std::fflush(stdout);
  }
  std::printf(
      "\nlargest / smallest program (256x the weights): %.2fx the time per word, "
      "%.3fx the time per MiB\n",
      last_word / first_word, last_mib / first_mib);
  return 0;
}
