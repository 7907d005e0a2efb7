// SHA-256 against the examples published with FIPS 180-2 (appendix B) and
// the empty message; feeding a message in pieces gives the same digest.
#include "support/sha256.h"

#include <doctest/doctest.h>

#include <string>

namespace opuc {
namespace {

std::string Hex(const std::string& text) { return Sha256Hex(text.data(), text.size()); }

TEST_CASE("sha256: the published examples") {
  CHECK(Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(Hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: a message given in pieces of any size") {
  std::string message;
  for (int i = 0; i < 300; ++i) message += static_cast<char>(i * 7 + 3);
  const std::string whole = Hex(message);
  for (size_t piece : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 299u}) {
    CAPTURE(piece);
    Sha256 sha;
    for (size_t at = 0; at < message.size(); at += piece)
      sha.Update(message.data() + at, std::min(piece, message.size() - at));
    std::string hex;
    for (uint8_t byte : sha.Finish()) {
      static const char kHex[] = "0123456789abcdef";
      hex += kHex[byte >> 4];
      hex += kHex[byte & 15];
    }
    CHECK(hex == whole);
  }
}

}  // namespace
}  // namespace opuc
