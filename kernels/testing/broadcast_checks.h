#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/broadcast_walk.h"
#include "kernels/common/byte_table.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

// The checks every variant of a broadcast-walked int8 binary operator
// (kernels/common/broadcast_walk.h: minimum, maximum) goes through against its
// reference, on the host and on the Cortex-M55.
namespace etns::kernels::testing {

using BroadcastFn = void (*)(const BroadcastWalk& p, const int8_t* self, const int8_t* other,
                             int8_t* out);

inline size_t out_count(const BroadcastWalk& p) {
  return p.dims[0] * p.dims[1] * p.dims[2] * p.dims[3];
}

template <size_t N>
void check_broadcast_case(const Variant<BroadcastFn> (&variants)[N], const BroadcastWalk& p,
                          const int8_t* self, const int8_t* other, const char* what) {
  ETNS_CHECK_VARIANTS(
      variants, out_count(p),
      [&](BroadcastFn fn, void* out) { fn(p, self, other, static_cast<int8_t*>(out)); },
      "%s, dims [%zu, %zu, %zu, %zu], self strides [%zu, %zu, %zu, %zu], other strides "
      "[%zu, %zu, %zu, %zu]",
      what, p.dims[0], p.dims[1], p.dims[2], p.dims[3], p.self_strides[0], p.self_strides[1],
      p.self_strides[2], p.self_strides[3], p.other_strides[0], p.other_strides[1],
      p.other_strides[2], p.other_strides[3]);
}

// A flat row of n elements; a stride of 0 repeats that operand's first byte.
inline BroadcastWalk flat_walk(size_t n, size_t self_stride, size_t other_stride) {
  BroadcastWalk p;
  p.dims[3] = n;
  p.self_strides[3] = self_stride;
  p.other_strides[3] = other_stride;
  return p;
}

// Broadcasting of two 4-D operands as prepare sees it before merging dims:
// out takes the larger size of each dim, an operand of size 1 gets stride 0.
inline BroadcastWalk unmerged_walk(const size_t self_dims[4], const size_t other_dims[4]) {
  BroadcastWalk p;
  size_t self_step = 1;
  size_t other_step = 1;
  for (int k = 3; k >= 0; --k) {
    p.dims[k] = self_dims[k] == 1 ? other_dims[k] : self_dims[k];
    p.self_strides[k] = self_dims[k] == 1 ? 0 : self_step;
    p.other_strides[k] = other_dims[k] == 1 ? 0 : other_step;
    self_step *= self_dims[k];
    other_step *= other_dims[k];
  }
  return p;
}

// All 65,536 code pairs, on the two-operand and both scalar rows.
template <size_t N>
void check_broadcast_all_code_pairs(const Variant<BroadcastFn> (&variants)[N]) {
  int8_t codes[256];
  byte_table_inputs(codes);
  int8_t* repeated = ETNS_TEST_ARRAY(int8_t, 256);
  for (int a = -128; a <= 127; ++a) {
    for (int i = 0; i < 256; ++i) repeated[i] = static_cast<int8_t>(a);
    check_broadcast_case(variants, flat_walk(256, 1, 1), codes, repeated,
                         "codes vs a row of one code");
    ETNS_RETURN_IF_FAILED();
    check_broadcast_case(variants, flat_walk(256, 1, 0), codes, repeated,
                         "codes vs a scalar other");
    ETNS_RETURN_IF_FAILED();
    check_broadcast_case(variants, flat_walk(256, 0, 1), repeated, codes, "a scalar self vs codes");
    ETNS_RETURN_IF_FAILED();
  }
}

// Every tile length on every row kind, and buffers one byte off alignment.
template <size_t N>
void check_broadcast_lengths(const Variant<BroadcastFn> (&variants)[N], uint64_t seed) {
  Rng rng(seed);
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    int8_t* a = ETNS_TEST_ARRAY(int8_t, n + 1);
    int8_t* b = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(a, n + 1);
    rng.fill_s8(b, n + 1);
    for (size_t offset : {size_t{0}, size_t{1}}) {
      check_broadcast_case(variants, flat_walk(n, 1, 1), a + offset, b, "two rows");
      ETNS_RETURN_IF_FAILED();
      check_broadcast_case(variants, flat_walk(n, 0, 1), a, b + offset, "scalar self");
      ETNS_RETURN_IF_FAILED();
      check_broadcast_case(variants, flat_walk(n, 1, 0), a + offset, b, "scalar other");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// Random 4-D broadcasts: each dim of each operand is the out size or 1, with
// sizes around the tile (1 ... 33) and empty dims.
template <size_t N>
void check_broadcast_random(const Variant<BroadcastFn> (&variants)[N], uint64_t seed) {
  Rng rng(seed);
  const size_t sizes[] = {1, 1, 2, 3, 4, 5, 7, 15, 16, 17, 33};
  for (int trial = 0; trial < 300; ++trial) {
    TestMemoryScope scope;
    size_t self_dims[4];
    size_t other_dims[4];
    for (int k = 0; k < 4; ++k) {
      const size_t full = trial % 50 == 49 && k == 1 ? 0 : rng.pick(sizes);
      const int64_t which = rng.uniform(0, 3);  // both full, self 1, other 1, both 1
      self_dims[k] = which == 1 || which == 3 ? 1 : full;
      other_dims[k] = which == 2 || which == 3 ? 1 : full;
    }
    // Keep each case small: at most about 40,000 output bytes.
    size_t total = 1;
    for (int k = 0; k < 4; ++k)
      total *= self_dims[k] > other_dims[k] ? self_dims[k] : other_dims[k];
    if (total > 40000) continue;
    const size_t self_n = self_dims[0] * self_dims[1] * self_dims[2] * self_dims[3];
    const size_t other_n = other_dims[0] * other_dims[1] * other_dims[2] * other_dims[3];
    const size_t offset = rng.coin() ? 1 : 0;
    int8_t* self = ETNS_TEST_ARRAY(int8_t, self_n + 1) + offset;
    int8_t* other = ETNS_TEST_ARRAY(int8_t, other_n + 1);
    rng.fill_s8(self, self_n);
    rng.fill_s8(other, other_n);
    check_broadcast_case(variants, unmerged_walk(self_dims, other_dims), self, other,
                         "random broadcast");
    ETNS_RETURN_IF_FAILED();
  }
}

// The hand-merged forms prepare produces for common broadcasts, and strides no
// prepare produces (every variant must still follow the reference).
template <size_t N>
void check_broadcast_merged_and_unusual(const Variant<BroadcastFn> (&variants)[N], uint64_t seed) {
  Rng rng(seed);
  int8_t* a = ETNS_TEST_ARRAY(int8_t, 16 * 1024);
  int8_t* b = ETNS_TEST_ARRAY(int8_t, 16 * 1024);
  rng.fill_s8(a, 16 * 1024);
  rng.fill_s8(b, 16 * 1024);
  BroadcastWalk p;
  // [1,16,1,1] vs [1,16,32,32]: a per-row scalar.
  p.dims[2] = 16;
  p.dims[3] = 1024;
  p.self_strides[2] = 1;
  p.other_strides[2] = 1024;
  p.other_strides[3] = 1;
  check_broadcast_case(variants, p, a, b, "channel scalar per row");
  ETNS_RETURN_IF_FAILED();
  // [1,1,32,32] vs [1,16,32,32]: one row repeated.
  p.self_strides[2] = 0;
  p.self_strides[3] = 1;
  check_broadcast_case(variants, p, a, b, "repeated row");
  ETNS_RETURN_IF_FAILED();
  // Inner strides of 2 and 3 (the fallback).
  p = BroadcastWalk{};
  p.dims[2] = 5;
  p.dims[3] = 100;
  p.self_strides[2] = 7;
  p.self_strides[3] = 2;
  p.other_strides[3] = 3;
  check_broadcast_case(variants, p, a, b, "inner strides 2 and 3");
  ETNS_RETURN_IF_FAILED();
  // Both inner strides 0: a row of one repeated result.
  p = BroadcastWalk{};
  p.dims[2] = 3;
  p.dims[3] = 40;
  p.self_strides[2] = 1;
  check_broadcast_case(variants, p, a, b, "both operands repeated");
}

// The elements of bench_broadcast_row's row, tier1_arm c0i2's 1x16x32x32.
inline constexpr size_t kBroadcastBenchCount = size_t{16} * 32 * 32;

// The benchmark of minimum and maximum: one row of 16,384 bytes (tier1_arm
// c0i2's 1x16x32x32) against a second row (other_stride 1) or a repeated
// scalar 50 (other_stride 0), every variant.
template <size_t N>
void bench_broadcast_row(Bench& bench, const Variant<BroadcastFn> (&variants)[N],
                         size_t other_stride) {
  constexpr size_t kCount = kBroadcastBenchCount;
  const BroadcastWalk p = flat_walk(kCount, 1, other_stride);
  int8_t* self = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* other = ETNS_TEST_ARRAY(int8_t, kCount);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kCount);
  Rng rng(kCount);
  rng.fill_s8(self, kCount);
  rng.fill_s8(other, kCount);
  other[0] = 50;
  for (const auto& v : variants) {
    bench.measure(v.isa, [&] { v.fn(p, self, other, out); });
  }
}

}  // namespace etns::kernels::testing
