// HwConfig numbers do not depend on the C locale (the reader it replaced
// used strtod, which reads "187.5" as 187 where the decimal point is a comma).
#include <doctest/doctest.h>

#include <clocale>
#include <string>

#include "opuc/opu/hw_config.h"

namespace opuc {
namespace {

TEST_CASE("numbers read and write the same in a locale with a decimal comma") {
  // setup generates de_DE.UTF-8; strtod there would read "187.5" as 187.
  REQUIRE(std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr);
  Expected<HwConfig> c = ParseHwConfigJson(
      R"({"base": "tiny", "array": {"clock_mhz": 187.5}, "dram": {"bandwidth_gb_per_s": 3.75}})");
  const std::string written = c.ok() ? HwConfigToJson(*c) : "";
  std::setlocale(LC_ALL, "C");
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  CHECK(c->array.clock_mhz == 187.5);
  CHECK(written.find("\"clock_mhz\": 187.5\n") != std::string::npos);
  CHECK(written.find("\"bandwidth_gb_per_s\": 3.75,") != std::string::npos);
}

}  // namespace
}  // namespace opuc
