//===- opuc/file_io/file_io.h - Whole-file reads and writes ----*- C++ -*-===//
#ifndef OPUC_FILE_IO_FILE_IO_H
#define OPUC_FILE_IO_FILE_IO_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "opuc/file_io/aligned_bytes.h"
#include "opuc/status.h"

namespace opuc {

/// The whole file at `path`, read once into a buffer aligned to
/// kConstantAlignment. Errors name the path and the OS reason.
Expected<AlignedBytes> ReadFileAligned(const std::string& path);

/// Replaces the file at `path` with `size` bytes at `data`: written beside
/// it and renamed, never over a file this process read as an input
/// (support/output_file.h).
Status WriteFileBytes(const std::string& path, const void* data, size_t size);

}  // namespace opuc

#endif  // OPUC_FILE_IO_FILE_IO_H
