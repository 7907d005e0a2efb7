//===- support/json_parse.h - JSON documents from files -----------*- C++ -*-===//
//
// One way to parse a JSON file for every reader of one (HwConfig files,
// profiles): nesting bounded before anything deep is built, and nlohmann's
// exceptions turned into a status whose message a user can act on,
// "JSON line 1 column 20: syntax error ..." rather than
// "[json.exception.parse_error.101] ...". Header-only: the libraries that
// read JSON link nlohmann-json; opuc_support does not.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_JSON_PARSE_H
#define OPUC_SUPPORT_JSON_PARSE_H

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "opuc/status.h"

namespace opuc {

/// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column
/// 20: syntax error ..." as "JSON line 1 column 20: syntax error ...", and
/// "[json.exception.out_of_range.406] number overflow ..." as "JSON: number
/// overflow ...".
inline std::string JsonSyntaxError(const std::string& what) {
  const std::string at = "parse error at line ";
  const size_t begin = what.find(at);
  if (begin == std::string::npos) {  // no position: drop the "[json.exception.x.N] " tag
    const size_t tag = what.find("] ");
    const bool tagged = what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos;
    return "JSON: " + (tagged ? what.substr(tag + 2) : what);
  }
  std::string rest = what.substr(begin + at.size());
  const size_t comma = rest.find(", column ");
  if (comma != std::string::npos) rest.replace(comma, 2, " ");
  return "JSON line " + rest;
}

/// The document in `text`, or why not; nesting deeper than `max_depth` is
/// refused without being built.
inline Expected<nlohmann::ordered_json> ParseJsonText(std::string_view text, int max_depth) {
  using Json = nlohmann::ordered_json;
  bool too_deep = false;
  const Json::parser_callback_t depth_guard = [&](int depth, Json::parse_event_t, Json&) {
    too_deep = too_deep || depth > max_depth;
    return !too_deep;  // discard everything once too deep: nothing more is built
  };
  try {
    Json doc = Json::parse(text.begin(), text.end(), depth_guard);
    if (too_deep)
      return InvalidArgument("JSON nests deeper than " + std::to_string(max_depth) + " levels");
    return doc;
  } catch (const Json::parse_error& e) {
    // Deep nesting that also ends badly is reported as too deep.
    if (too_deep)
      return InvalidArgument("JSON nests deeper than " + std::to_string(max_depth) + " levels");
    return InvalidArgument(JsonSyntaxError(e.what()));
  } catch (const Json::out_of_range& e) {  // a number past double's range (found by fuzz_hw_config)
    return InvalidArgument(JsonSyntaxError(e.what()));
  }
}

}  // namespace opuc

#endif  // OPUC_SUPPORT_JSON_PARSE_H
