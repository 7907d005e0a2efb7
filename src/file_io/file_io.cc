//===- src/file_io/file_io.cc - Whole-file reads and writes --------------===//
// 64-bit file sizes on 32-bit targets too (armhf), so that a file too large
// to hold in memory gets our message rather than EOVERFLOW from open().
// Before any system header.
#define _FILE_OFFSET_BITS 64

#include "opuc/file_io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "support/format.h"
#include "support/output_file.h"

namespace opuc {
namespace {

Status OsError(const std::string& path, std::string_view doing) {
  return IoError(Cat(path, ": cannot ", doing, ": ", std::strerror(errno)));
}

/// Closes the descriptor on every path out of a function.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Expected<AlignedBytes> ReadFileAligned(const std::string& path) {
  // O_NONBLOCK: opening a named pipe returns at once (to be refused below)
  // instead of waiting for a writer; reads of a regular file ignore it.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return OsError(path, "open");
  struct stat info;
  if (::fstat(fd.get(), &info) != 0) return OsError(path, "stat");
  if (!S_ISREG(info.st_mode)) return IoError(Cat(path, ": not a regular file"));
  NoteInputFile(path);
  // No object is larger than PTRDIFF_MAX; with a 32-bit size_t that is 2 GiB.
  if (static_cast<uintmax_t>(info.st_size) > static_cast<uintmax_t>(PTRDIFF_MAX))
    return IoError(Cat(path, ": ", static_cast<uintmax_t>(info.st_size),
                       " bytes is more than this build can hold in memory (at most ", PTRDIFF_MAX,
                       ")"));
  const auto size = static_cast<size_t>(info.st_size);
  Expected<AlignedBytes> bytes = AllocateAligned(size);
  if (!bytes.ok()) return bytes.status().WithContext(path);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd.get(), bytes->data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return OsError(path, "read");
    if (n == 0)
      return IoError(Cat(path, ": file shrank while being read (", done, " of ", size, " bytes)"));
    done += static_cast<size_t>(n);
  }
  return bytes;
}

Status WriteFileBytes(const std::string& path, const void* data, size_t size) {
  return WriteOutputFile(path, {std::string_view(static_cast<const char*>(data), size)});
}

}  // namespace opuc
