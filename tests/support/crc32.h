#pragma once

#include <cstddef>
#include <cstdint>

namespace etns::testing {

// CRC-32 with zlib's polynomial (0xEDB88320, reflected), as the spec quotes it.
inline uint32_t crc32(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= bytes[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc ^ 0xFFFFFFFFu;
}

}  // namespace etns::testing
