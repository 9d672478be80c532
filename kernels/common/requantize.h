#pragma once

#include <cstdint>
#include "runtime/core/target_layout.h"

// CMSIS-NN's fixed-point requantisation, default build (no single rounding):
// docs/numerics.md#requantize and operators.md §1.3. Every int8 kernel here
// uses these three functions; vector variants must match them bit for bit.
namespace etns::kernels {

// A real factor M * 2^S / 2^31; validated at load: M in [0, 2^31), S in [-31, 30].
struct Requant {
  int32_t multiplier = 0;
  int32_t shift = 0;
};
ETNS_TARGET_LAYOUT(Requant, runtime::StructLayout().member(runtime::fixed<int32_t>(), 2).done());

// round(a * m / 2^31), ties toward +infinity. Saturates the one overflowing
// case (a = m = INT32_MIN) as CMSIS and VQRDMULH do.
inline int32_t doubling_high_multiply(int32_t a, int32_t m) {
  if (a == INT32_MIN && m == INT32_MIN) return INT32_MAX;
  const int64_t product = static_cast<int64_t>(a) * m + (int64_t{1} << 30);
  // Floor division by 2^31; written as a division plus correction because
  // right-shifting a negative value is implementation-defined in C++17.
  int64_t quotient = product / (int64_t{1} << 31);
  if (product % (int64_t{1} << 31) < 0) quotient -= 1;
  return static_cast<int32_t>(quotient);
}

// x / 2^exponent rounded to nearest, ties away from zero; exponent in [0, 31].
inline int32_t rounding_divide_by_pow2(int32_t x, int32_t exponent) {
  if (exponent == 0) return x;
  const int64_t wide = x;
  const int64_t half = int64_t{1} << (exponent - 1);
  const int64_t magnitude = ((wide < 0 ? -wide : wide) + half) >> exponent;
  return static_cast<int32_t>(wide < 0 ? -magnitude : magnitude);
}

// RQ(v, M, S) = RDIV(DHM(v * 2^max(S,0), M), max(-S,0)); v * 2^L wraps modulo
// 2^32 as CMSIS does (callers keep it in range).
inline int32_t requantize(int32_t value, Requant q) {
  const int32_t left = q.shift > 0 ? q.shift : 0;
  const int32_t right = q.shift < 0 ? -q.shift : 0;
  const int32_t scaled =
      static_cast<int32_t>(static_cast<uint32_t>(value) << static_cast<uint32_t>(left));
  return rounding_divide_by_pow2(doubling_high_multiply(scaled, q.multiplier), right);
}

inline int32_t clamp_s32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

}  // namespace etns::kernels
