#pragma once

#include <cstddef>
#include <cstdint>

// Sizes computed from a file's values, in fixed-width 64-bit arithmetic with
// overflow detected, so that the host and the 32-bit Cortex-M55 (where size_t
// has 32 bits) reach the same verdict on every program. No product of values
// a file controls is ever formed in size_t.
namespace etns::runtime {

// a * b, or false when it leaves uint64_t.
inline bool checked_mul(uint64_t a, uint64_t b, uint64_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}

// a + b, or false when it leaves uint64_t.
inline bool checked_add(uint64_t a, uint64_t b, uint64_t* sum) {
  return !__builtin_add_overflow(a, b, sum);
}

// A shape's element count, and its extent: the product with every empty dim
// counted as 1. The extent bounds every product of a subset of the dims, which
// is what kernels form when they flatten or walk a shape, empty or not.
struct ShapeSize {
  uint64_t numel = 1;
  uint64_t extent = 1;
};

// The element count and extent of `sizes`, each dim >= 0; false when a dim is
// negative or the extent passes `limit`.
inline bool shape_size(const int32_t* sizes, size_t rank, uint64_t limit, ShapeSize* out) {
  ShapeSize s;
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0) return false;
    const uint64_t size = static_cast<uint64_t>(sizes[d]);
    s.numel *= size;  // <= extent, which is checked below
    if (!checked_mul(s.extent, size > 0 ? size : 1, &s.extent) || s.extent > limit) return false;
  }
  *out = s;
  return true;
}

}  // namespace etns::runtime
