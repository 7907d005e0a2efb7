//===- src/frontend/tflite_operators.cc - A .tflite's operator list ---------===//
//
// What `opuc inspect` shows of a model opuc cannot import: the buffer is
// verified and its indices checked as for an import, then only the operator
// codes of subgraph 0 are read and each is looked up among the converters.
//
//===----------------------------------------------------------------------===//
#include "opuc/frontend/tflite.h"

#include "opuc/file_io/aligned_bytes.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

Expected<TfliteOperators> ReadOperatorsAligned(std::shared_ptr<const void>, const uint8_t* data,
                                               size_t size) {
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
  return ReadInPlace(nullptr, data, size, source_name, ReadOperatorsAligned);
}

}  // namespace opuc
