// libFuzzer harness: the .opup program loader with its semantic checks (every index, every
// instruction's DRAM range, the step order), on whatever bytes the fuzzer makes
// (docs/robustness.md; scripts/fuzz builds and runs it). Any status is a
// fine answer: a crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/program/program.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)opuc::ReadProgram(nullptr, data, size, "fuzz.opup");
  return 0;
}
