// libFuzzer harness: the TFLite reader and importer, and the operator census `opuc inspect`
// falls back to, on whatever bytes the fuzzer makes
// (docs/robustness.md; scripts/fuzz builds and runs it). Any status is a
// fine answer: a crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/frontend/tflite.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  (void)opuc::ReadTflite(bytes, "fuzz.tflite");
  (void)opuc::ReadTfliteOperators(data, size, "fuzz.tflite");
  return 0;
}
