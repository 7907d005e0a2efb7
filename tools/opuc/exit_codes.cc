//===- tools/opuc/exit_codes.cc - How opuc ends ---------------------------===//
#include "opuc/exit_codes.h"

#include <algorithm>
#include <string>

#include "opuc/output.h"

namespace opuc::cli {

int ReportError(const Status& status, std::ostream& err) {
  // One line, however the message was built, and of a readable length (a
  // 100 kB file name is cut); a control byte that came from a file (a
  // tensor's name) is shown as \xNN, never sent to the terminal.
  std::string message = status.message();
  std::replace(message.begin(), message.end(), '\n', ' ');
  err << "opuc: error: " << TerminalText(CutName(message, 2000)) << '\n';
  return status.code() == StatusCode::kInternal ? kExitInternal : kExitBadInput;
}

}  // namespace opuc::cli
