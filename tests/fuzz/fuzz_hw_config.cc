// libFuzzer harness: the HwConfig JSON reader and its validation, on whatever bytes the fuzzer
// makes (docs/robustness.md; scripts/fuzz builds and runs it). Any status is a fine answer: a
// crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/opu/hw_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)opuc::ParseHwConfigJson(std::string_view(reinterpret_cast<const char*>(data), size),
                                "fuzz.json");
  return 0;
}
