#include "tools/common/sha256.h"

#include <nettle/sha2.h>

#include <vector>

#include "tools/common/files.h"

namespace etns::tools {

// Nettle's SHA-256 (Debian's nettle-dev): host code uses the installed
// library rather than a hand-written compression function.
std::string sha256_hex(const uint8_t* data, size_t size) {
  sha256_ctx context;
  sha256_init(&context);
  if (size > 0) sha256_update(&context, size, data);
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&context, sizeof(digest), digest);

  static const char kHexDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * sizeof(digest));
  for (uint8_t byte : digest) {
    hex += kHexDigits[byte >> 4];
    hex += kHexDigits[byte & 0xf];
  }
  return hex;
}

std::string sha256_hex_file(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return sha256_hex(bytes.data(), bytes.size());
}

}  // namespace etns::tools
