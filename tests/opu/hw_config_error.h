// What ParseHwConfigJson says of a JSON text it refuses, for the HwConfig
// tests.
#ifndef OPUC_TESTS_OPU_HW_CONFIG_ERROR_H
#define OPUC_TESTS_OPU_HW_CONFIG_ERROR_H

#include <doctest/doctest.h>

#include <string>

#include "opuc/opu/hw_config.h"

namespace opuc::testing {

/// The message of the refusal; the test fails if `json` parses.
inline std::string ErrorOf(const std::string& json) {
  Expected<HwConfig> c = ParseHwConfigJson(json);
  REQUIRE_FALSE(c.ok());
  return c.status().message();
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_OPU_HW_CONFIG_ERROR_H
