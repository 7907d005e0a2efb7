//===- tools/opuc/profile.h - What a run counted, kept for the report -*- C++ -*-===//
//
// `opuc run PROG --profile FILE` (and `opuc detect`) write what the device's
// engines counted on each OPU step; `opuc report PROG --profile FILE` reads
// it back beside the estimates. A small JSON file (docs/cli.md, "opuc
// report"): the device, the program it ran (its model's SHA-256 and step
// count, so a profile of another program is refused) and per OPU step the
// cycles (0 for devices without a clock), DRAM bytes, array issues,
// post-processed entries and instructions per engine.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_PROFILE_H
#define OPUC_TOOLS_PROFILE_H

#include <string>
#include <vector>

#include "opuc/fsim/fsim.h"
#include "opuc/program/program.h"
#include "opuc/status.h"

namespace opuc::cli {

/// Writes the `counters` of a run of `program` on `device` (one per step).
Status WriteProfile(const std::string& path, const Program& program, const std::string& device,
                    const std::vector<OpuCounters>& counters);

struct Profile {
  std::string device;
  std::vector<OpuCounters> counters;  ///< One per program step; zero for CPU steps.
};

/// Reads a profile written for `program`. Errors name the file and the
/// field, or say which program the profile belongs to.
Expected<Profile> ReadProfile(const std::string& path, const Program& program);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_PROFILE_H
