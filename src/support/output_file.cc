//===- src/support/output_file.cc - Files written whole, never over an input ===//
// 64-bit file offsets on 32-bit targets too (armhf). Before any system header.
#define _FILE_OFFSET_BITS 64

#include "support/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "support/format.h"

namespace opuc {
namespace {

struct Inputs {
  std::mutex mutex;
  bool guarded = false;
  std::map<std::pair<dev_t, ino_t>, std::string> files;  // (device, inode) -> the path read
};

Inputs& TheInputs() {
  static Inputs inputs;
  return inputs;
}

std::string OsError(const std::string& path, const char* doing) {
  return Cat(path, ": cannot ", doing, ": ", std::strerror(errno));
}

/// Writes all of `pieces` to `fd`; false with errno set on failure.
bool WriteAll(int fd, const std::vector<std::string_view>& pieces) {
  for (std::string_view piece : pieces) {
    size_t done = 0;
    while (done < piece.size()) {
      const ssize_t n = ::write(fd, piece.data() + done, piece.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return false;
      done += static_cast<size_t>(n);
    }
  }
  return true;
}

/// A device, a pipe, a terminal: written where it is, as it is.
std::string WriteInPlace(const std::string& path, const std::vector<std::string_view>& pieces) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return OsError(path, "open");
  const bool written = WriteAll(fd, pieces);
  const int saved = errno;
  if (::close(fd) != 0 || !written) {
    if (!written) errno = saved;
    return OsError(path, "write");
  }
  return {};
}

std::string Folder(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void GuardInputFiles() {
  Inputs& inputs = TheInputs();
  const std::lock_guard<std::mutex> lock(inputs.mutex);
  inputs.guarded = true;
}

void NoteInputFile(const std::string& path) {
  Inputs& inputs = TheInputs();
  const std::lock_guard<std::mutex> lock(inputs.mutex);
  struct stat info;
  if (!inputs.guarded || ::stat(path.c_str(), &info) != 0) return;
  inputs.files.emplace(std::make_pair(info.st_dev, info.st_ino), path);
}

std::string OverwritesInput(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return {};
  Inputs& inputs = TheInputs();
  const std::lock_guard<std::mutex> lock(inputs.mutex);
  const auto input = inputs.files.find({info.st_dev, info.st_ino});
  if (input == inputs.files.end()) return {};
  return Cat(path, ": is the input ", input->second,
             "; writing there would destroy it (choose another output)");
}

std::string WriteWhole(const std::string& path, const std::vector<std::string_view>& pieces) {
  struct stat info;
  const bool exists = ::stat(path.c_str(), &info) == 0;
  if (exists && !S_ISREG(info.st_mode)) return WriteInPlace(path, pieces);
  // Through a symbolic link, the file it names is replaced, not the link.
  std::string target = path;
  struct stat link;
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (resolved == nullptr) return OsError(path, "resolve");
    target = resolved;
    std::free(resolved);
  }
  std::string temp = Folder(target) + "/.opuc-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return OsError(path, "create");
  // The mode a new file gets (0666 less the umask), or the old file's.
  mode_t mode = exists ? info.st_mode & 07777 : 0;
  if (!exists) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  const bool written = WriteAll(fd, pieces) && ::fchmod(fd, mode) == 0;
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    if (!written) errno = saved;
    const std::string error = OsError(path, "write");
    std::remove(temp.c_str());
    return error;
  }
  if (std::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string error = OsError(path, "replace");
    std::remove(temp.c_str());
    return error;
  }
  return {};
}

}  // namespace opuc
