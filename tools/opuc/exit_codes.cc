//===- tools/opuc/exit_codes.cc - How opuc ends ---------------------------===//
#include "opuc/exit_codes.h"

#include <string>

namespace opuc::cli {

int ReportError(const Status& status, std::ostream& err) {
  // One line, however the message was built; a control byte that came from
  // a file (a tensor's name) is shown as \xNN, never sent to the terminal.
  std::string message;
  for (const char c : status.message()) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n') {
      message += ' ';
    } else if (byte < 0x20 || byte == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      message += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
    } else {
      message += c;
    }
  }
  err << "opuc: error: " << message << '\n';
  return status.code() == StatusCode::kInternal ? kExitInternal : kExitBadInput;
}

}  // namespace opuc::cli
