//===- support/sha256.h - SHA-256 of a byte string ----------------*- C++ -*-===//
//
// FIPS 180-4 SHA-256, for recording which model file a program was built
// from (docs/program-format.md). Small and dependency-free: opuc links no
// crypto library for one digest.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_SUPPORT_SHA256_H
#define OPUC_SRC_SUPPORT_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace opuc {

class Sha256 {
 public:
  Sha256();
  /// Adds `size` more bytes of the message.
  void Update(const void* data, size_t size);
  /// The digest of everything added; the object must not be used afterwards.
  std::array<uint8_t, 32> Finish();

 private:
  void Block(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> pending_{};
  size_t pending_size_ = 0;
  uint64_t total_bytes_ = 0;
};

/// The digest of `size` bytes as 64 lowercase hex digits.
std::string Sha256Hex(const void* data, size_t size);

}  // namespace opuc

#endif  // OPUC_SRC_SUPPORT_SHA256_H
