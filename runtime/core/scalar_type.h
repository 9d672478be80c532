#pragma once

#include <cstddef>
#include <cstdint>

namespace etns::runtime {

// ExecuTorch's ScalarType numbering (pte-format.md §3.1); the values are on the wire.
enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,  // int8
  Short = 2,
  Int = 3,   // int32
  Long = 4,  // int64
  Half = 5,
  Float = 6,
  Double = 7,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits16 = 22,
  Float8e5m2 = 23,
  Float8e4m3fn = 24,
  Float8e5m2fnuz = 25,
  Float8e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
};

// Bytes per element, or 0 for a value that names no ScalarType.
size_t element_size(ScalarType type);
inline bool is_valid(ScalarType type) { return element_size(type) != 0; }
// float16, bfloat16, float32 or float64 (not the float8 types): what the
// portable kernels accept as "a floating type".
bool is_floating_point(ScalarType type);
// "int8", "float32", ...; "invalid(N)" is never returned: unknown values give "invalid".
const char* to_string(ScalarType type);

}  // namespace etns::runtime
