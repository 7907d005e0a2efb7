//===- opuc/status.h - Errors as values -------------------------*- C++ -*-===//
//
// Every public opuc entry point returns a Status or an Expected<T>. Nothing
// throws across the API (but std::bad_alloc from copying a tensor that
// already exists, as a std::vector copy would) and nothing aborts on bad
// input: a message names the file, node, tensor or field at fault and says
// what was expected.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_STATUS_H
#define OPUC_STATUS_H

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace opuc {

/// Broad classes of failure; callers branch on these, users read the message.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  ///< Malformed input: a file, a graph, an option.
  kNotFound,         ///< A named thing (file, tensor, op, pass) does not exist.
  kUnsupported,      ///< Well-formed but beyond what opuc implements.
  kIoError,          ///< The operating system refused a read or write.
  kInternal,         ///< A bug in opuc: an invariant did not hold.
};

/// Returns a short lower-case name such as "invalid argument".
const char* StatusCodeName(StatusCode code);

/// The outcome of an operation: ok, or a code and a message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  /// Prefixes the message with where it happened, e.g. the file name:
  /// "model.opug: tensor 3 'w': ...". An ok status stays ok.
  Status WithContext(std::string_view where) const;

  /// "invalid argument: <message>", or "ok".
  std::string ToString() const;

  /// Marks a status as deliberately dropped.
  void IgnoreError() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }
inline Status InvalidArgument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}
inline Status NotFound(std::string m) { return Status(StatusCode::kNotFound, std::move(m)); }
inline Status Unsupported(std::string m) { return Status(StatusCode::kUnsupported, std::move(m)); }
inline Status IoError(std::string m) { return Status(StatusCode::kIoError, std::move(m)); }
inline Status InternalError(std::string m) { return Status(StatusCode::kInternal, std::move(m)); }

/// A value of type T, or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}        // NOLINT: implicit by design
  Expected(Status status) : state_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(state_).ok() && "Expected built from an ok Status");
  }

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  /// The error; an ok Status when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(state_); }

  T& value() & {
    assert(ok() && "value() on an error");
    return std::get<T>(state_);
  }
  const T& value() const& {
    assert(ok() && "value() on an error");
    return std::get<T>(state_);
  }
  T&& value() && {
    assert(ok() && "value() on an error");
    return std::get<T>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace opuc

#define OPUC_CONCAT_INNER_(a, b) a##b
#define OPUC_CONCAT_(a, b) OPUC_CONCAT_INNER_(a, b)

/// Returns the Status of `expr` from the enclosing function if it is an error.
#define OPUC_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::opuc::Status opuc_status_ = (expr);        \
    if (!opuc_status_.ok()) return opuc_status_; \
  } while (false)

/// Evaluates `expr` (an Expected<T>); on error returns its Status, otherwise
/// moves the value into `lhs`, which may be a declaration (`auto x`).
#define OPUC_ASSIGN_OR_RETURN(lhs, expr) \
  OPUC_ASSIGN_OR_RETURN_IMPL_(OPUC_CONCAT_(opuc_expected_, __LINE__), lhs, expr)
#define OPUC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#endif  // OPUC_STATUS_H
