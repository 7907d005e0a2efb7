//===- src/frontend/tflite_opcodes.cc - Operator codes and their names ----===//
//
// An OperatorCode names its builtin twice: the legacy signed byte of slot 0
// (which stops at 127, "see builtin_code") and the int of slot 3, added later.
// Old files set only the byte, new ones both; TFLite reads the larger of the
// two, and so does opuc.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "support/format.h"
#include "tflite_import.h"

namespace opuc {

int32_t BuiltinCode(const tfl::OperatorCode& code) {
  return std::max<int32_t>(code.deprecated_builtin_code(),
                           static_cast<int32_t>(code.builtin_code()));
}

std::string BuiltinName(int32_t builtin) {
  // EnumNameBuiltinOperator returns "" for values the schema does not list.
  const char* name = tfl::EnumNameBuiltinOperator(static_cast<tfl::BuiltinOperator>(builtin));
  if (name && *name) return name;
  return Cat("BUILTIN_", builtin);
}

std::vector<OperatorCodeInfo> ReadOperatorCodes(const tfl::Model& model) {
  std::vector<OperatorCodeInfo> codes;
  if (!model.operator_codes()) return codes;
  for (const tfl::OperatorCode* code : *model.operator_codes()) {
    OperatorCodeInfo info;
    info.builtin = BuiltinCode(*code);
    if (code->custom_code()) info.custom_code = code->custom_code()->str();
    info.name = info.builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)
                    ? Cat("CUSTOM:", info.custom_code)
                    : BuiltinName(info.builtin);
    codes.push_back(std::move(info));
  }
  return codes;
}

}  // namespace opuc
