//===- tools/opuc/output.cc - What opuc sends to terminals and files ------===//
#include "opuc/output.h"

#include <cstdlib>

#include "support/sha256.h"

namespace opuc::cli {
namespace {

bool IsControl(unsigned char byte) {
  return (byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f;
}

void AppendEscaped(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
}

/// Where `text` may be cut at or before `at` without splitting a UTF-8
/// character.
size_t CharBoundary(std::string_view text, size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

bool IsNumber(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  std::strtod(copy.c_str(), &end);
  return !copy.empty() && end == copy.c_str() + copy.size();
}

}  // namespace

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (IsControl(byte))
      AppendEscaped(out, byte);
    else
      out += c;
  }
  return out;
}

std::string EscapeDelete(std::string text) {
  for (size_t at = text.find('\x7f'); at != std::string::npos; at = text.find('\x7f', at))
    text.replace(at, 1, "\\u007f");
  return text;
}

TerminalBuf::int_type TerminalBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char byte = traits_type::to_char_type(c);
  return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
}

std::streamsize TerminalBuf::xsputn(const char* s, std::streamsize n) {
  std::streamsize done = 0;
  while (done < n) {
    std::streamsize plain = done;  // a run of bytes that go as they are
    while (plain < n && !IsControl(static_cast<unsigned char>(s[plain]))) ++plain;
    if (plain > done && to_->sputn(s + done, plain - done) != plain - done) return done;
    done = plain;
    if (done == n) break;
    std::string escaped;
    AppendEscaped(escaped, static_cast<unsigned char>(s[done]));
    if (to_->sputn(escaped.data(), 4) != 4) return done;
    ++done;
  }
  return done;
}

std::string CsvCell(std::string_view text) {
  std::string cell(text);
  if (!cell.empty() && std::string_view("=+-@\t\r").find(cell[0]) != std::string_view::npos &&
      !IsNumber(cell))
    cell.insert(0, 1, '\'');
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (const char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string CutName(std::string_view name, size_t limit) {
  if (name.size() <= limit) return std::string(name);
  const size_t head = CharBoundary(name, limit * 2 / 3);
  size_t tail = name.size() - limit / 3;
  while (tail < name.size() && (static_cast<unsigned char>(name[tail]) & 0xC0) == 0x80) ++tail;
  return std::string(name.substr(0, head)) + "..." + std::string(name.substr(tail)) + " (" +
         std::to_string(name.size()) + " bytes)";
}

std::string ShortFileName(const std::string& name, size_t limit) {
  if (name.size() <= limit) return name;
  const std::string hash = Sha256Hex(name.data(), name.size()).substr(0, 16);
  return name.substr(0, CharBoundary(name, limit - hash.size() - 1)) + "_" + hash;
}

}  // namespace opuc::cli
