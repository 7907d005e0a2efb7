//===- support/format.h - Message and text formatting helpers -*- C++ -*-===//
//
// Small helpers for building error messages and stable text: Cat() joins any
// streamable values, FormatDouble() prints the shortest text that reads back
// to the same double, Quote() escapes a string as JSON does.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_SUPPORT_FORMAT_H
#define OPUC_SRC_SUPPORT_FORMAT_H

#include <sstream>
#include <string>
#include <string_view>

namespace opuc {

template <typename... Args>
std::string Cat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

/// Shortest round-trip text of `value`, always with a '.' or an exponent so it
/// reads as a float ("1.0", "0.25", "1e-07", "nan", "inf").
std::string FormatDouble(double value);

/// `text` in double quotes with JSON escapes.
std::string Quote(std::string_view text);

/// `text` with U+FFFD for each byte that is not part of well-formed UTF-8
/// (what a JSON file must hold; names from files may be any bytes).
std::string ValidUtf8(std::string_view text);

/// "[a,b,c]" with `format` applied to each element.
template <typename List, typename Format>
std::string JoinList(const List& list, Format format) {
  std::string text = "[";
  bool first = true;
  for (const auto& item : list) {
    if (!first) text += ',';
    first = false;
    text += format(item);
  }
  return text + "]";
}

}  // namespace opuc

#endif  // OPUC_SRC_SUPPORT_FORMAT_H
