//===- src/frontend/tflite_verify.cc - Structural verification ------------===//
//
// The first stage: before any accessor runs, the FlatBuffers verifier proves
// that every offset, table, vector, string and union in the buffer lies
// inside it, so later stages can follow them safely.
//
//===----------------------------------------------------------------------===//
#include "support/fb_damage.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

/// The part of a model that fails verification, as precisely as it can be named.
std::optional<std::string> FindDamage(const uint8_t* data, size_t size) {
  const DamageFinder find(data, size);
  const tfl::Model* model = find.Root<tfl::Model>();
  if (model == nullptr) return "the root offset or the Model table's header";
  const auto in_subgraph = [&](const tfl::SubGraph* subgraph) {
    std::optional<std::string> at =
        find.Tables<tfl::Tensor>(subgraph, tfl::SubGraph::VT_TENSORS, "tensors");
    if (!at) at = find.Tables<tfl::Operator>(subgraph, tfl::SubGraph::VT_OPERATORS, "operators");
    return at;
  };
  std::optional<std::string> at =
      find.Tables<tfl::OperatorCode>(model, tfl::Model::VT_OPERATOR_CODES, "operator_codes");
  if (!at)
    at = find.Tables<tfl::SubGraph>(model, tfl::Model::VT_SUBGRAPHS, "subgraphs", in_subgraph);
  if (!at) at = find.Tables<tfl::Buffer>(model, tfl::Model::VT_BUFFERS, "buffers");
  if (!at) at = find.Tables<tfl::Metadata>(model, tfl::Model::VT_METADATA, "metadata");
  return at;
}

}  // namespace

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
    return InvalidArgument(VerificationFailure(FindDamage(data, size), "Model"));
  return OkStatus();
}

}  // namespace opuc
