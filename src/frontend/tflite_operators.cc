//===- src/frontend/tflite_operators.cc - A .tflite's operator list ---------===//
//
// What `opuc inspect` shows of a model opuc cannot import: the buffer is
// verified and its indices checked as for an import, then only the operator
// codes of subgraph 0 are read and each is looked up among the converters.
//
//===----------------------------------------------------------------------===//
#include "opuc/frontend/tflite.h"

#include "aligned_bytes.h"
#include "tflite_import.h"
#include "support/format.h"

namespace opuc {
namespace {

Expected<TfliteOperators> ReadOperatorsAligned(const uint8_t* data, size_t size) {
  OPUC_RETURN_IF_ERROR(VerifyTfliteBuffer(data, size));
  const tfl::Model& model = *tfl::GetModel(data);
  OPUC_RETURN_IF_ERROR(CheckTfliteModel(model, size));
  const std::vector<OperatorCodeInfo> codes = ReadOperatorCodes(model);
  const tfl::SubGraph& subgraph = *model.subgraphs()->Get(0);
  TfliteOperators result;
  if (!subgraph.operators()) return result;
  for (const tfl::Operator* op : *subgraph.operators()) {
    const OperatorCodeInfo& code = codes[op->opcode_index()];
    if (++result.counts[code.name] == 1 && !FindConverter(code))
      result.unsupported.push_back(code.name);
  }
  std::sort(result.unsupported.begin(), result.unsupported.end());
  return result;
}

}  // namespace

Expected<TfliteOperators> ReadTfliteOperators(const uint8_t* data, size_t size,
                                              std::string_view source_name) {
  Expected<TfliteOperators> result = [&]() -> Expected<TfliteOperators> {
    if (reinterpret_cast<uintptr_t>(data) % kConstantAlignment == 0)
      return ReadOperatorsAligned(data, size);
    OPUC_ASSIGN_OR_RETURN(AlignedBytes copy, CopyAligned(data, size));  // FlatBuffers reads in place
    return ReadOperatorsAligned(copy.data(), copy.size);
  }();
  if (!result.ok()) return result.status().WithContext(source_name);
  return result;
}

}  // namespace opuc
