// libFuzzer harness: the .opug reader (FlatBuffers verification, then every graph check), on
// whatever bytes the fuzzer makes (docs/robustness.md; scripts/fuzz builds and runs it). Any status
// is a fine answer: a crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/opug/opug.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  (void)opuc::ReadOpug(bytes, "fuzz.opug");
  return 0;
}
