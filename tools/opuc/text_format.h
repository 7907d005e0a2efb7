//===- tools/opuc/text_format.h - Numbers as the commands print them -*- C++ -*-===//
#ifndef OPUC_TOOLS_TEXT_FORMAT_H
#define OPUC_TOOLS_TEXT_FORMAT_H

#include <cstdio>
#include <string>

namespace opuc::cli {

/// `v` with `digits` digits after the point ("3.842"), in the C locale's
/// notation whatever the user's locale.
inline std::string Fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_TEXT_FORMAT_H
