//===- src/image/preprocess_options.cc - The --preprocess text ------------===//
#include <charconv>
#include <cmath>
#include <set>

#include "opuc/image/preprocess.h"
#include "support/format.h"

namespace opuc {
namespace {

std::string_view Trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

// A whole decimal such as "-1", "0.0078431373" or "1e-3".
bool ParseDecimal(std::string_view text, double* value) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end && !text.empty();
}

// A decimal, or a quotient "a/b" of two decimals ("2/255").
Status ParseNumber(std::string_view key, std::string_view text, double* value) {
  const size_t slash = text.find('/');
  double numerator = 0.0;
  double denominator = 1.0;
  const bool ok = slash == std::string_view::npos
                      ? ParseDecimal(text, &numerator)
                      : ParseDecimal(Trim(text.substr(0, slash)), &numerator) &&
                            ParseDecimal(Trim(text.substr(slash + 1)), &denominator) &&
                            denominator != 0.0;
  if (ok) *value = numerator / denominator;
  if (!ok || !std::isfinite(*value))
    return InvalidArgument(Cat("preprocess: ", key, ": '", text,
                               "' is not a finite number (a decimal such as 0.5 or -1, or a "
                               "quotient such as 2/255)"));
  return OkStatus();
}

bool ParseSide(std::string_view text, int32_t* side) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *side);
  return ec == std::errc() && ptr == end && *side > 0 && *side <= kMaxPreprocessSide;
}

Status ParseSize(std::string_view text, PreprocessOptions* options) {
  const size_t x = text.find('x');
  if (x == std::string_view::npos || !ParseSide(Trim(text.substr(0, x)), &options->height) ||
      !ParseSide(Trim(text.substr(x + 1)), &options->width))
    return InvalidArgument(Cat("preprocess: size: '", text,
                               "' is not HxW, two whole numbers from 1 to ", kMaxPreprocessSide,
                               " (e.g. 128x128: height x width)"));
  return OkStatus();
}

Status ParseOrder(std::string_view text, ChannelOrder* order) {
  if (text == "rgb") {
    *order = ChannelOrder::kRgb;
    return OkStatus();
  }
  if (text == "bgr") {
    *order = ChannelOrder::kBgr;
    return OkStatus();
  }
  return InvalidArgument(Cat("preprocess: order: '", text, "' is not rgb or bgr"));
}

Status ParsePair(std::string_view key, std::string_view value, PreprocessOptions* options) {
  if (key == "size") return ParseSize(value, options);
  if (key == "scale") return ParseNumber(key, value, &options->scale);
  if (key == "offset") return ParseNumber(key, value, &options->offset);
  if (key == "order") return ParseOrder(value, &options->order);
  return InvalidArgument(
      Cat("preprocess: unknown key '", key, "' (keys: size, scale, offset, order)"));
}

}  // namespace

Expected<PreprocessOptions> ParsePreprocess(std::string_view text,
                                            const PreprocessOptions& defaults) {
  PreprocessOptions options = defaults;
  std::set<std::string_view> seen;
  if (Trim(text).empty()) return options;
  while (true) {
    const size_t comma = text.find(',');
    const std::string_view pair = Trim(text.substr(0, comma));
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos)
      return InvalidArgument(
          Cat("preprocess: '", pair, "' is not key=value (keys: size, scale, offset, order)"));
    const std::string_view key = Trim(pair.substr(0, equals));
    if (!seen.insert(key).second)
      return InvalidArgument(Cat("preprocess: key '", key, "' is given twice"));
    OPUC_RETURN_IF_ERROR(ParsePair(key, Trim(pair.substr(equals + 1)), &options));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return options;
}

std::string FormatPreprocess(const PreprocessOptions& options) {
  std::string text;
  if (options.height > 0 && options.width > 0)
    text = Cat("size=", options.height, "x", options.width, ",");
  return Cat(text, "scale=", FormatDouble(options.scale), ",offset=", FormatDouble(options.offset),
             ",order=", ChannelOrderName(options.order));
}

}  // namespace opuc
