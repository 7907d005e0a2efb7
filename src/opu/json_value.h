//===- src/opu/json_value.h - A small JSON reader -----------------*- C++ -*-===//
//
// The library links only FlatBuffers and Eigen, so hardware config files are
// read by this small recursive-descent reader: objects (order kept),
// arrays, strings with the standard escapes (\uXXXX as UTF-8), numbers,
// true, false, null. Nesting is limited so hostile input cannot exhaust
// the stack. Errors give the line and column.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPU_JSON_VALUE_H
#define OPUC_SRC_OPU_JSON_VALUE_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opuc/status.h"

namespace opuc::json {

struct Value {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0.0;
  std::string text;                                    // kString
  std::vector<Value> items;                            // kArray
  std::vector<std::pair<std::string, Value>> members;  // kObject, in file order

  /// The member called `key`, or nullptr.
  const Value* Find(std::string_view key) const;
};

/// "null", "bool", "number", "string", "array", "object".
const char* TypeName(Value::Type type);

/// Parses one JSON document (surrounding white space allowed).
Expected<Value> Parse(std::string_view text);

}  // namespace opuc::json

#endif  // OPUC_SRC_OPU_JSON_VALUE_H
