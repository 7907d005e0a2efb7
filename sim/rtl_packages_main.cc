//===- sim/rtl_packages_main.cc - Writes hw/rtl's generated packages ------===//
//
// opuc_rtl_packages PRESET DIR: writes DIR/opuc_isa_pkg.sv (from isa.def)
// and DIR/opu_pkg.sv (from the preset) for the RTL build; run by
// sim/CMakeLists.txt, never committed.
//
//===----------------------------------------------------------------------===//
#include <fstream>
#include <iostream>

#include "opuc/isa/isa.h"
#include "rtl_config.h"

namespace {

bool Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (out) return true;
  std::cerr << "opuc_rtl_packages: error: cannot write " << path << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: opuc_rtl_packages PRESET DIR\n";
    return 2;
  }
  opuc::Expected<opuc::HwConfig> hw = opuc::HwConfigPreset(argv[1]);
  if (hw.ok()) {
    const opuc::Status fits = opuc::rtl::CheckRtlConfig(*hw);
    if (!fits.ok()) hw = fits;
  }
  if (!hw.ok()) {
    std::cerr << "opuc_rtl_packages: error: " << hw.status().message() << "\n";
    return 2;
  }
  const std::string dir = argv[2];
  const bool ok = Write(dir + "/opuc_isa_pkg.sv", opuc::isa::IsaSystemVerilog()) &&
                  Write(dir + "/opu_pkg.sv", opuc::rtl::RtlConfigPackage(*hw));
  return ok ? 0 : 1;
}
