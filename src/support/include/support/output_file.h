//===- support/output_file.h - Files written whole, never over an input -*- C++ -*-===//
//
// Every file opuc writes goes through WriteOutputFile: the bytes go to a
// temporary file beside the target, which is renamed over it once written
// and closed, so an interrupted run leaves the old file or the new one,
// never half of one. A target that is not a regular file (/dev/null, a
// pipe, /dev/stdout) is written in place. Where the command line asked for
// it (GuardInputFiles), the files the process has read are remembered by
// device and inode, and an output that is one of them is refused before a
// byte is written: `compile m.opug -o m.opug` must not destroy the model.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_OUTPUT_FILE_H
#define OPUC_SUPPORT_OUTPUT_FILE_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opuc/status.h"

namespace opuc {

/// From now on, remember the files read (NoteInputFile) and refuse to
/// write over them. The opuc command line turns it on; a library user
/// who reads and rewrites one file keeps the default (off).
void GuardInputFiles();

/// The file at `path` was read as an input (a no-op unless guarded).
void NoteInputFile(const std::string& path);

/// Why `path` cannot be written: it is a file read as an input ("x.opug:
/// is the input x.opug; ..."); empty when it may be.
std::string OverwritesInput(const std::string& path);

/// Replaces the file at `path` with `pieces`, one after another; the empty
/// string, or what went wrong naming the path and the OS's reason. The
/// caller checks OverwritesInput first.
std::string WriteWhole(const std::string& path, const std::vector<std::string_view>& pieces);

/// Both, as a Status (support is below opuc_status in the layers, so this
/// one is inline, in the callers).
inline Status WriteOutputFile(const std::string& path,
                              const std::vector<std::string_view>& pieces) {
  if (std::string clash = OverwritesInput(path); !clash.empty())
    return InvalidArgument(std::move(clash));
  if (std::string error = WriteWhole(path, pieces); !error.empty())
    return IoError(std::move(error));
  return OkStatus();
}

}  // namespace opuc

#endif  // OPUC_SUPPORT_OUTPUT_FILE_H
