#pragma once

#include <cstdint>
#include <cstring>

// float32 <-> its bit pattern, for tests that name special values (NaN
// payloads, denormals, signed zeros) exactly.
namespace etns::kernels::testing {

inline float float_from_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline uint32_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

}  // namespace etns::kernels::testing
