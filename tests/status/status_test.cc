// Tests for opuc/status.h: Status, Expected and the two macros.
#include "opuc/status.h"

#include <doctest/doctest.h>

#include <memory>

namespace opuc {
namespace {

Expected<int> Half(int x) {
  if (x % 2) return InvalidArgument("odd value " + std::to_string(x));
  return x / 2;
}

Expected<int> Quarter(int x) {
  OPUC_ASSIGN_OR_RETURN(int half, Half(x));
  OPUC_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

Status CheckPositive(int x) {
  if (x <= 0) return InvalidArgument("not positive");
  return OkStatus();
}

Status CheckBoth(int a, int b) {
  OPUC_RETURN_IF_ERROR(CheckPositive(a));
  OPUC_RETURN_IF_ERROR(CheckPositive(b).WithContext("second"));
  return OkStatus();
}

TEST_CASE("Status carries code and message - ok by default") {
  Status ok;
  CHECK(ok.ok());
  CHECK(ok.ToString() == "ok");
  Status bad = NotFound("tensor 'x'");
  CHECK_FALSE(bad.ok());
  CHECK(bad.code() == StatusCode::kNotFound);
  CHECK(bad.ToString() == "not found: tensor 'x'");
  CHECK(bad.WithContext("model.opug").message() == "model.opug: tensor 'x'");
  CHECK(ok.WithContext("model.opug").ok());
}

TEST_CASE("Expected holds a value or an error and the macros propagate") {
  CHECK(Quarter(12).value() == 3);
  Expected<int> odd = Quarter(6);  // 6 -> 3 -> odd
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.status().message() == "odd value 3");
  CHECK(CheckBoth(1, 2).ok());
  CHECK(CheckBoth(0, 2).message() == "not positive");
  CHECK(CheckBoth(1, -2).message() == "second: not positive");
}

TEST_CASE("Expected works with move-only values") {
  Expected<std::unique_ptr<int>> e(std::make_unique<int>(7));
  REQUIRE(e.ok());
  std::unique_ptr<int> p = std::move(e).value();
  CHECK(*p == 7);
}

}  // namespace
}  // namespace opuc
