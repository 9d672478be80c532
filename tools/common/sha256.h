#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace etns::tools {

// SHA-256 (FIPS 180-4) of the `size` bytes at `data` (which may be null when
// `size` is 0), as 64 lower-case hex digits. Identifies .pte files in result
// bundles and checks them against the digests in shared/golden/golden.json.
std::string sha256_hex(const uint8_t* data, size_t size);
// Of a whole file; throws Failure when it cannot be read.
std::string sha256_hex_file(const std::string& path);

}  // namespace etns::tools
