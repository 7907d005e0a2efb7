// Tests of the typed pass options: declared keys only, declared types only.
#include <doctest/doctest.h>

#include "opuc/pass/pass_config.h"

namespace opuc {
namespace {

TEST_CASE("options have their declared defaults until set") {
  PassConfig config;
  CHECK(config.GetInt("FuseOps.max_depth") == 256);
  CHECK(config.GetInt("FuseOps.max_function_args") == 0);
  REQUIRE(config.Set("FuseOps.max_depth", int64_t{8}).ok());
  CHECK(config.GetInt("FuseOps.max_depth") == 8);
  REQUIRE(config.SetFromString("FuseOps.max_function_args=12").ok());
  CHECK(config.GetInt("FuseOps.max_function_args") == 12);
}

TEST_CASE("unknown keys, wrong types and malformed text are errors naming the key") {
  PassConfig config;
  Status unknown = config.Set("FuseOps.depth", int64_t{1});
  CHECK(unknown.code() == StatusCode::kNotFound);
  CHECK(unknown.message().rfind("unknown pass option 'FuseOps.depth' (known: FuseOps.max_depth,",
                                0) == 0);
  Status type = config.Set("FuseOps.max_depth", 2.5);
  CHECK(type.message() == "pass option 'FuseOps.max_depth' takes int, not float");
  Status text = config.SetFromString("FuseOps.max_depth=deep");
  CHECK(text.message() == "pass option 'FuseOps.max_depth': 'deep' is not a valid int");
  Status form = config.SetFromString("FuseOps.max_depth");
  CHECK(form.message() == "pass option 'FuseOps.max_depth' is not of the form key=value");
  CHECK(config.GetInt("FuseOps.max_depth") == 256);  // nothing was set
}

}  // namespace
}  // namespace opuc
