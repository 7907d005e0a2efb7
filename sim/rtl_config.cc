//===- sim/rtl_config.cc - The RTL's parameters from a HwConfig -----------===//
#include "rtl_config.h"

#include "opuc/fsim/fsim.h"
#include "opuc/isa/isa.h"
#include "support/format.h"

namespace opuc::rtl {

Status CheckRtlConfig(const HwConfig& hw) {
  const OpuBufferUnits u = BufferUnits(hw);
  if ((u.out_lanes * 8) % u.lanes != 0)
    return InvalidArgument(Cat("hw '", hw.name, "': array.output_channels x 8 = ", u.out_lanes * 8,
                               " is not a multiple of array.input_channels = ", u.lanes,
                               "; the RTL loads params in units of L bytes"));
  if ((u.lanes & (u.lanes - 1)) != 0 || u.lanes % u.out_lanes != 0)
    return InvalidArgument(Cat("hw '", hw.name, "': array.input_channels is ", u.lanes,
                               " and array.output_channels ", u.out_lanes,
                               "; the RTL's beats are L bytes, aligned, in granules of Co: L must ",
                               "be a power of two and a multiple of Co"));
  if (u.lanes > 256)
    return InvalidArgument(Cat("hw '", hw.name, "': array.input_channels is ", u.lanes,
                               "; the RTL's ResAdd res_lane field reaches 256"));
  if (u.fm_rows < 2 || u.acc_entries < 8)
    return InvalidArgument(Cat("hw '", hw.name, "': the feature-map buffer has ", u.fm_rows,
                               " rows and the accumulator ", u.acc_entries,
                               " entries; the RTL needs at least 2 rows and 8 entries (three "
                               "accumulator banks)"));
  if (u.AccBank1() % 2 != 0)
    return InvalidArgument(Cat("hw '", hw.name, "': the accumulator's second bank starts at entry ",
                               u.AccBank1(),
                               "; the RTL needs it even (its banks hold even and odd ",
                               "entries apart, a pair in one row)"));
  return OkStatus();
}

std::string RtlConfigPackage(const HwConfig& hw) {
  const OpuBufferUnits u = BufferUnits(hw);
  // One package, no imports: Yosys 0.23 reads neither `import` nor one
  // package's names inside another (docs/decisions-hardware.md), so the ISA's word
  // width is copied here and opu_shapes.svh derives the rest in place.
  return Cat("// Generated for HwConfig '", hw.name, "' by opuc_rtl_packages: do not edit.\n",
             "package opu_pkg;\n", "  localparam int unsigned L = ", u.lanes,
             ";  // array.input_channels\n", "  localparam int unsigned CO = ", u.out_lanes,
             ";  // array.output_channels\n", "  localparam int unsigned FM_ROWS = ", u.fm_rows,
             ";\n", "  localparam int unsigned WGT_ROWS = ", u.weight_rows, ";\n",
             "  localparam int unsigned PARAM_ROWS = ", u.param_rows, ";\n",
             "  localparam int unsigned ACC_ENTRIES = ", u.acc_entries, ";\n",
             "  localparam int unsigned ACC_BANK1 = ", u.AccBank1(),
             ";  // the accumulator's banks: [0, ACC_BANK1), [ACC_BANK1, ACC_SUMS)\n",
             "  localparam int unsigned ACC_SUMS = ", u.AccSumsBank(),
             ";  // and [ACC_SUMS, ACC_ENTRIES)\n",
             "  localparam int unsigned LINE_COLS = ", hw.ipa.depthwise_line,
             ";  // ipa.depthwise_line: the depthwise window's line buffers\n",
             "  localparam int unsigned WORD_BITS = ", isa::kWordBits, ";  // opuc_isa_pkg's\n",
             "`include \"opu_shapes.svh\"\n", "endpackage\n");
}

}  // namespace opuc::rtl
