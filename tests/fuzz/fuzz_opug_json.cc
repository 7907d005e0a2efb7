// libFuzzer harness: the .opug.json reader, on whatever bytes the fuzzer makes
// (docs/robustness.md; scripts/fuzz builds and runs it). Any status is a
// fine answer: a crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/opug/opug.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)opuc::ReadOpugJson(std::string_view(reinterpret_cast<const char*>(data), size),
                           "fuzz.opug.json");
  return 0;
}
