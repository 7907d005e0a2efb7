// The four devices (ref, fsim, rtl, cpu) for the RTL's model tests, and
// the check they share: a program agrees on every one of them, bit for bit.
#ifndef OPUC_TESTS_SIM_EVERY_DEVICE_H
#define OPUC_TESTS_SIM_EVERY_DEVICE_H

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "opuc/runtime/run_program.h"
#include "rtl.h"

namespace opuc::test {

/// Every device the runtime has, the RTL's registered first.
inline std::vector<std::unique_ptr<Device>> EveryDevice() {
  rtl::RegisterRtlDevice();
  std::vector<std::unique_ptr<Device>> devices;
  for (const std::string& name : DeviceNames()) devices.push_back(MakeDevice(name).value());
  REQUIRE(devices.size() == 4);
  return devices;
}

/// `program` run on `devices` over `inputs`: every step's outputs equal.
inline void CheckAgree(const Program& program, const std::vector<std::unique_ptr<Device>>& devices,
                       const std::vector<HostTensor>& inputs) {
  Expected<VerifyResult> verify = VerifyProgram(program, devices, inputs);
  REQUIRE_MESSAGE(verify.ok(), verify.status().ToString());
  CHECK_FALSE(verify->divergence.has_value());
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_SIM_EVERY_DEVICE_H
