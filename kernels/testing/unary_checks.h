#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/common/byte_table.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"

// The checks every elementwise int8 -> int8 operator's variants go through,
// for kernels whose functions are void(const Params&, const int8_t*, int8_t*, size_t).
namespace etns::kernels::testing {

// All 256 codes through every variant with one parameter set.
template <typename Params, size_t N>
void check_unary_all_codes(const Variant<void (*)(const Params&, const int8_t*, int8_t*, size_t)> (
                               &variants)[N],
                           const Params& p, const char* what) {
  int8_t codes[256];
  byte_table_inputs(codes);
  ETNS_CHECK_VARIANTS(
      variants, 256,
      [&](auto fn, void* out) { fn(p, codes, static_cast<int8_t*>(out), 256); },
      "all codes, %s", what);
}

// `cases` random parameter sets from make_params(rng), all 256 codes each; then
// random inputs of every tile length, aligned and one byte off, each with
// fresh parameters.
template <typename Params, size_t N, typename MakeParams>
void check_unary_random(const Variant<void (*)(const Params&, const int8_t*, int8_t*, size_t)> (
                            &variants)[N],
                        MakeParams&& make_params, uint64_t seed, int cases) {
  Rng rng(seed);
  for (int i = 0; i < cases; ++i) {
    check_unary_all_codes(variants, make_params(rng), "random parameters");
    ETNS_RETURN_IF_FAILED();
  }
  for (size_t n : kTileLengths) {
    TestMemoryScope scope;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, n + 1);
    rng.fill_s8(in, n + 1);
    for (size_t offset : {size_t{0}, size_t{1}}) {
      const Params p = make_params(rng);
      ETNS_CHECK_VARIANTS(
          variants, n,
          [&](auto fn, void* out) { fn(p, in + offset, static_cast<int8_t*>(out), n); },
          "random input, seed %llu, n %zu, input offset %zu",
          static_cast<unsigned long long>(seed), n, offset);
    }
  }
}

// Every output offset within a 64-byte cache line, apart from the input and
// in place (in == out), for lengths around a few of the widest vectors: for
// variants that align their stores and overlap the first and last vectors.
template <typename Params, size_t N>
void check_unary_layouts(const Variant<void (*)(const Params&, const int8_t*, int8_t*, size_t)> (
                             &variants)[N],
                         const Params& p, uint64_t seed) {
  constexpr size_t kLine = 64;
  Rng rng(seed);
  for (size_t n : {size_t{127}, size_t{128}, size_t{129}, size_t{200}, size_t{383}, size_t{1000}}) {
    TestMemoryScope scope;
    int8_t* in = ETNS_TEST_ARRAY(int8_t, n);
    rng.fill_s8(in, n);
    int8_t* buffer = ETNS_TEST_ARRAY(int8_t, n + 2 * kLine);
    int8_t* line = buffer + (kLine - reinterpret_cast<uintptr_t>(buffer) % kLine) % kLine;
    for (size_t offset = 0; offset < kLine; ++offset) {
      for (bool in_place : {false, true}) {
        int8_t* at = line + offset;
        ETNS_CHECK_VARIANTS(
            variants, n,
            [&](auto fn, void* out) {
              if (in_place) {
                std::memcpy(at, in, n);
                fn(p, at, at, n);
              } else {
                fn(p, in, at, n);
              }
              std::memcpy(out, at, n);
            },
            "n %zu, output offset %zu in a cache line%s", n, offset, in_place ? ", in place" : "");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// A tensor of the tier1 size (1x16x32x32) with one parameter set.
template <typename Params, size_t N>
void check_unary_tier1_size(const Variant<void (*)(const Params&, const int8_t*, int8_t*, size_t)> (
                                &variants)[N],
                            const Params& p, uint64_t seed) {
  constexpr size_t kCount = 16384;
  TestMemoryScope scope;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kCount);
  Rng rng(seed);
  rng.fill_s8(in, kCount);
  ETNS_CHECK_VARIANTS(
      variants, kCount, [&](auto fn, void* out) { fn(p, in, static_cast<int8_t*>(out), kCount); },
      "tier1 size, seed %llu", static_cast<unsigned long long>(seed));
}

}  // namespace etns::kernels::testing
