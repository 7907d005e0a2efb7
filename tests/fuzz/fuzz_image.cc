// libFuzzer harness: PNG and JPEG decoding (Debian's libspng and libjpeg-turbo are not
// instrumented: the coverage seen is opuc's side of the calls), on whatever bytes the fuzzer makes
// (docs/robustness.md; scripts/fuzz builds and runs it). Any status is a
// fine answer: a crash, a leak, a hang or a sanitizer report is the bug.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/image/image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  (void)opuc::DecodeImage(bytes, "fuzz.png");
  return 0;
}
