//===- tests/frontend/corruption.h - Damaged files for the readers -*- C++ -*-===//
//
// The robustness tests of the .opug reader and the TFLite importer feed them
// every single-byte corruption and every truncation of a small model. A
// reader passed here returns whether it produced a (verified) graph; an
// error must be a clean Status, which the reader checks itself.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_FRONTEND_CORRUPTION_H
#define OPUC_TESTS_FRONTEND_CORRUPTION_H

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace opuc::test {

struct Outcomes {
  int errors = 0;
  int graphs = 0;
};

/// Every byte of `model` set three ways (xor 0xFF, xor 0x01, 0x80), one at
/// a time: each is an error or a graph, and some are errors.
template <typename Read>
void CheckSingleByteCorruptions(const std::vector<uint8_t>& model, Read read) {
  const auto flip_ff = [](uint8_t b) { return static_cast<uint8_t>(b ^ 0xFF); };
  const auto flip_01 = [](uint8_t b) { return static_cast<uint8_t>(b ^ 0x01); };
  const auto set_80 = [](uint8_t) { return uint8_t{0x80}; };
  for (auto mutate : {+flip_ff, +flip_01, +set_80}) {
    Outcomes outcomes;
    for (size_t i = 0; i < model.size(); ++i) {
      std::vector<uint8_t> bytes = model;
      bytes[i] = mutate(bytes[i]);
      INFO("byte ", i, " of ", model.size());
      ++(read(bytes) ? outcomes.graphs : outcomes.errors);
    }
    MESSAGE(outcomes.errors, " errors, ", outcomes.graphs, " graphs of ", model.size());
    CHECK(outcomes.errors + outcomes.graphs == static_cast<int>(model.size()));
    CHECK(outcomes.errors > 0);
  }
}

/// Every proper prefix of `model`, counted.
template <typename Read>
Outcomes ReadTruncations(const std::vector<uint8_t>& model, Read read) {
  Outcomes outcomes;
  for (size_t length = 0; length < model.size(); ++length) {
    INFO("length ", length, " of ", model.size());
    ++(read(std::vector<uint8_t>(model.begin(), model.begin() + static_cast<long>(length)))
           ? outcomes.graphs
           : outcomes.errors);
  }
  return outcomes;
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_FRONTEND_CORRUPTION_H
