#pragma once

#include <cstddef>
#include <cstdint>

namespace etns::runtime {

// CRC-32 with zlib's polynomial (0xEDB88320, reflected). Bitwise, no table:
// it only fingerprints outputs, so 1 KiB of ROM matters more than speed.
// Chain calls with crc32_update(crc32_update(0, a, n), b, m).
inline uint32_t crc32_update(uint32_t crc, const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  crc = ~crc;
  for (size_t i = 0; i < size; ++i) {
    crc ^= bytes[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline uint32_t crc32(const void* data, size_t size) { return crc32_update(0, data, size); }

}  // namespace etns::runtime
