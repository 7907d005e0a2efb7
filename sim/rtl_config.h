//===- sim/rtl_config.h - The RTL's parameters from a HwConfig ----*- C++ -*-===//
//
// hw/rtl reads its shapes from a SystemVerilog package, opu_pkg, made per
// HwConfig from the same BufferUnits the functional simulator sizes its
// buffers with (the shapes derived from them: hw/rtl/opu_shapes.svh); the
// ISA comes from opuc_isa_pkg (isa::IsaSystemVerilog).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SIM_RTL_CONFIG_H
#define OPUC_SIM_RTL_CONFIG_H

#include <string>

#include "opuc/opu/hw_config.h"
#include "opuc/status.h"

namespace opuc::rtl {

/// OK when the RTL can be built for `hw`; else an error naming the field:
/// the RTL reads DRAM one feature-map unit (L bytes) at a time, so a param
/// row (CO x 8 bytes) must be a whole number of them.
Status CheckRtlConfig(const HwConfig& hw);

/// The package opu_pkg for `hw` (CheckRtlConfig must pass).
std::string RtlConfigPackage(const HwConfig& hw);

}  // namespace opuc::rtl

#endif  // OPUC_SIM_RTL_CONFIG_H
