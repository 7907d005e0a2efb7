//===- tools/opuc/output.h - What opuc sends to terminals and files -*- C++ -*-===//
//
// Names come from files (a tensor's, a photograph's) and may be any bytes.
// One function each for how they leave opuc: JSON with U+FFFD for bytes
// that are not UTF-8, text with control bytes as \xNN (every command's
// stdout and stderr pass through TerminalBuf), CSV cells a spreadsheet
// will not take for formulas, and names cut to a length a message or a
// file system takes.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_OUTPUT_H
#define OPUC_TOOLS_OUTPUT_H

#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace opuc::cli {

/// `text` (JSON) with DEL, which JSON may hold raw and TerminalBuf would
/// turn into an invalid "\x7f", as \u007f.
std::string EscapeDelete(std::string text);

/// `json` as text, indented; a string that is not UTF-8 (a tensor named
/// "\xff") has U+FFFD for each bad byte instead of throwing, and no byte
/// of it is a control byte (nlohmann escapes the others).
template <typename Json>
std::string JsonText(const Json& json, int indent = 2) {
  return EscapeDelete(json.dump(indent, ' ', false, Json::error_handler_t::replace));
}

/// `text` with each control byte but line feed and tab (ESC, CR, NUL,
/// DEL, ...) written as \xNN: a name cannot move the cursor or recolour
/// the terminal.
std::string TerminalText(std::string_view text);

/// Passes everything written to `to`, control bytes as TerminalText
/// writes them; a write that `to` refuses (a full disk) fails here too.
class TerminalBuf : public std::streambuf {
 public:
  explicit TerminalBuf(std::streambuf* to) : to_(to) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override { return to_->pubsync(); }

 private:
  std::streambuf* to_;
};

/// A CSV field: quoted when it holds a comma, quote or line break, and a
/// leading =, +, -, @, tab or CR (a spreadsheet formula) behind a quote
/// mark ', as OWASP recommends, unless the whole cell is a number.
std::string CsvCell(std::string_view text);

/// `name` when it has at most `limit` bytes; else its start and its end
/// around "...", never cutting a UTF-8 character (for messages).
std::string CutName(std::string_view name, size_t limit);

/// A file name from `name` of at most `limit` bytes, unique for distinct
/// names: a long one keeps its start and gains 16 hex digits of its
/// SHA-256 ("very_long_na..._3fa1c0d2e4b59a77").
std::string ShortFileName(const std::string& name, size_t limit);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_OUTPUT_H
