//===- src/frontend/tflite_verify.cc - Structural verification ------------===//
//
// The first stage: before any accessor runs, the FlatBuffers verifier proves
// that every offset, table, vector, string and union in the buffer lies
// inside it, so later stages can follow them safely.
//
//===----------------------------------------------------------------------===//
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {

Status VerifyTfliteBuffer(const uint8_t* data, size_t size) {
  // The identifier sits after the 4-byte root offset.
  if (size < 8)
    return InvalidArgument(Cat(size, " bytes is too short for a .tflite file (at least 8)"));
  if (!tfl::ModelBufferHasIdentifier(data))
    return InvalidArgument(Cat("file identifier is ",
                               Quote(std::string_view(reinterpret_cast<const char*>(data) + 4, 4)),
                               "; expected \"TFL3\" (not a .tflite file)"));
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Unsupported(Cat(size, " bytes exceeds the FlatBuffers limit of ",
                           FLATBUFFERS_MAX_BUFFER_SIZE, "; models this large are not supported"));
  // The defaults (nesting depth 64, a million tables) bound the work a
  // hostile file can cause; real models stay far below them.
  flatbuffers::Verifier verifier(data, size);
  if (!tfl::VerifyModelBuffer(verifier))
    return InvalidArgument(
        "FlatBuffers verification failed: the file is truncated or corrupt"
        " (an offset, table, vector or string lies outside the buffer)");
  return OkStatus();
}

}  // namespace opuc
