//===- src/status/status.cc - Status formatting -------------------------------===//
#include "opuc/status.h"

namespace opuc {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid argument";
    case StatusCode::kNotFound: return "not found";
    case StatusCode::kUnsupported: return "unsupported";
    case StatusCode::kIoError: return "i/o error";
    case StatusCode::kInternal: return "internal error";
  }
  return "unknown";
}

Status Status::WithContext(std::string_view where) const {
  if (ok()) return *this;
  std::string message(where);
  message += ": ";
  message += message_;
  return Status(code_, std::move(message));
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

}  // namespace opuc
