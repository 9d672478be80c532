// Helium variant "mve_gemm" of cortex_m::quantized_conv2d.out (conv2d.h),
// bit-exact with conv2d_s8_ref (docs/numerics.md#conv2d). Shapes it does not
// handle go to conv2d_s8_mve.
//
// One group: an output pixel is one dot product per output channel over its
// window of K = filter_h * filter_w * filter_c bytes, in the weight row's
// (OHWI) order, so the convolution is a matrix product of windows and weight
// rows. Three output pixels at a time (in memory order, across rows and
// batches): their windows are read in place (1x1 filters) or gathered into
// scratch, padding as the input zero point; then every pair of output
// channels runs over them with six accumulators in general registers, K in
// chunks of 32 bytes whose six window vectors stay in Q registers for all
// pairs (per pair and chunk: four weight loads, twelve VMLADAVA). The sums
// go to scratch and are requantised per pixel, four channels per vector.
#include "kernels/cortex_m/conv2d/conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize_mve.h"
#include "kernels/cortex_m/conv2d/conv2d_mve_gemm_windows.h"

namespace etns::cortex_m {
namespace {

// Pixels per block: 3 pixels x 2 channels = 6 accumulators, in r0, r2, ...,
// r10 (VMLADAVA accumulates into even registers only).
constexpr int32_t kPixels = 3;
// Windows laid out per call of window_sources: four blocks, when their
// staging fits kMaxStagingBytes (else one block).
constexpr int32_t kChunkPixels = 4 * kPixels;
constexpr int64_t kMaxStagingBytes = 4096;
// The scratch a shape may need before it is declined.
constexpr size_t kMaxScratchBytes = 8192;
// Per channel pair, in int32 words: six accumulator starts (the corrected
// bias per pixel and channel, LDM'd), then six results (STM'd).
constexpr int32_t kPairWords = 12;

bool pointwise(const Conv2dParams& p) { return p.filter_h == 1 && p.filter_w == 1; }

// Staging slots: a window's round16(K) bytes and 16 for a row copy's overrun.
int64_t staging_slot_bytes(const Conv2dParams& p) {
  return ((int64_t{p.filter_h} * p.filter_w * p.filter_c + 15) & ~int64_t{15}) + 16;
}
int32_t chunk_pixels(const Conv2dParams& p) {
  return kChunkPixels * staging_slot_bytes(p) <= kMaxStagingBytes ? kChunkPixels : kPixels;
}

// Scratch, carved at 16-byte offsets from a 16-byte aligned base:
//   pairs    int32[ceil(output_c / 2)][12]: per channel pair, the corrected
//            bias (bias + input_offset * sum(w)) for [pixel][channel], then
//            the block's sums in the same order
//   zeros    int8[round16(K)]: the input zero point (windows outside the image)
//   staging  int8[12 or 3][round16(K) + 16]: windows gathered (not for 1x1
//            filters, whose window is one input pixel's channels, read in
//            place); the 16 extra bytes take a row copy's overrun
struct Layout {
  size_t pairs = 0, zeros = 0, staging = 0, total = 0;
  int64_t window_bytes = 0;  // K
  int64_t slot_bytes = 0;    // round16(K)
};

Layout layout(const Conv2dParams& p) {
  Layout l;
  l.window_bytes = int64_t{p.filter_h} * p.filter_w * p.filter_c;
  l.slot_bytes = (l.window_bytes + 15) & ~int64_t{15};
  const int64_t pairs = (int64_t{p.output_c} + 1) / 2;
  const int64_t staging = pointwise(p) ? 0 : chunk_pixels(p) * staging_slot_bytes(p);
  const int64_t total = pairs * kPairWords * 4 + l.slot_bytes + staging + 15;
  // Far too large (and maybe past a 32-bit size_t): the caller declines.
  if (total > static_cast<int64_t>(kMaxScratchBytes) * 4) {
    l.total = SIZE_MAX;
    return l;
  }
  l.pairs = 0;
  l.zeros = static_cast<size_t>(pairs) * kPairWords * 4;
  l.staging = l.zeros + static_cast<size_t>(l.slot_bytes);
  l.total = static_cast<size_t>(total);
  return l;
}

#if ETNS_HAVE_MVE

// Sum of n int8 values, 16 per step, the tail predicated.
int32_t sum_s8(const int8_t* x, int32_t n) {
  int32_t sum = 0;
  for (; n >= 16; n -= 16, x += 16) sum = vaddvaq_s8(sum, vld1q_s8(x));
  if (n > 0) sum = vaddvaq_s8(sum, vldrbq_z_s8(x, vctp8q(static_cast<uint32_t>(n))));
  return sum;
}

// The pair table's two halves: the first chunk of K starts each pair's six
// accumulators from the corrected bias (words 0-5) and leaves its sums in
// words 6-11; later chunks add to those sums in place.
#define ETNS_GEMM_FIRST_LOAD "ldm r7!, {r0, r2, r4, r6, r8, r10}\n\t"
#define ETNS_GEMM_FIRST_STORE "stm r7!, {r0, r2, r4, r6, r8, r10}\n\t"
#define ETNS_GEMM_NEXT_LOAD "ldm r7, {r0, r2, r4, r6, r8, r10}\n\t"
#define ETNS_GEMM_NEXT_STORE              \
  "stm r7, {r0, r2, r4, r6, r8, r10}\n\t" \
  "add r7, r7, #48\n\t"

// Every channel pair over one chunk of at most 16 bytes of the three windows
// (x0, x1, x2: `bytes` readable there): the three window vectors stay in Q
// registers for every pair; per pair two weight loads and six VMLADAVA, all
// loads predicated to `bytes` lanes (lanes past it load as 0). weight is the
// chunk's start in the first row, rows `stride` (K) bytes apart. r0, r2 and
// r5 carry x2, `bytes` and x1 in, before they become accumulators and the
// second weight row. pairs >= 1.
template <bool kFirst>
__attribute__((noinline)) void mac_pairs_one_slice(const int8_t* x0, const int8_t* x1,
                                                   const int8_t* x2, const int8_t* weight,
                                                   int32_t* table, int32_t pairs, int32_t stride,
                                                   int32_t bytes) {
  register const int8_t* p0 asm("r1") = x0;
  register const int8_t* p1 asm("r5") = x1;
  register const int8_t* p2 asm("r0") = x2;
  register int32_t lanes asm("r2") = bytes;
  register const int8_t* w asm("r3") = weight;
  register int32_t* t asm("r7") = kFirst ? table : table + 6;
  register int32_t row asm("r9") = stride;
  register int32_t left asm("r12") = pairs;
  int8x16_t w0, w1, a0, a1, a2;
#define ETNS_GEMM_ONE_SLICE(LOAD, STORE)                                                          \
  asm volatile(                                                                                   \
      "vmrs r11, p0\n\t" /* the compiler's predicate, if it keeps one there */                    \
      "vctp.8 r2\n\t"                                                                             \
      "vpsttt\n\t"                                                                                \
      "vldrbt.8 %q[a0], [r1]\n\t"                                                                 \
      "vldrbt.8 %q[a1], [r5]\n\t"                                                                 \
      "vldrbt.8 %q[a2], [r0]\n\t"                                                                 \
      "dls lr, r12\n"                                                                             \
      "1:\n\t" LOAD                                                                               \
      "add r5, r3, r9\n\t"                                                                        \
      "vpstt\n\t"                                                                                 \
      "vldrbt.8 %q[w0], [r3]\n\t"                                                                 \
      "vldrbt.8 %q[w1], [r5]\n\t"                                                                 \
      "add r3, r5, r9\n\t"                                                                        \
      "vmladava.s8 r0, %q[a0], %q[w0]\n\t"                                                        \
      "vmladava.s8 r4, %q[a1], %q[w0]\n\t"                                                        \
      "vmladava.s8 r8, %q[a2], %q[w0]\n\t"                                                        \
      "vmladava.s8 r2, %q[a0], %q[w1]\n\t"                                                        \
      "vmladava.s8 r6, %q[a1], %q[w1]\n\t"                                                        \
      "vmladava.s8 r10, %q[a2], %q[w1]\n\t" STORE                                                 \
      "le lr, 1b\n\t"                                                                             \
      "vmsr p0, r11\n"                                                                            \
      : [w0] "=&w"(w0), [w1] "=&w"(w1), [a0] "=&w"(a0), [a1] "=&w"(a1), [a2] "=&w"(a2), "+r"(p1), \
        "+r"(p2), "+r"(lanes), "+r"(w), "+r"(t)                                                   \
      : "r"(p0), "r"(row), "r"(left)                                                              \
      : "r4", "r6", "r8", "r10", "r11", "lr", "memory")
  if constexpr (kFirst) {
    ETNS_GEMM_ONE_SLICE(ETNS_GEMM_FIRST_LOAD, ETNS_GEMM_FIRST_STORE);
  } else {
    ETNS_GEMM_ONE_SLICE(ETNS_GEMM_NEXT_LOAD, ETNS_GEMM_NEXT_STORE);
  }
#undef ETNS_GEMM_ONE_SLICE
}

// The same over a chunk of 17 to 32 bytes: six window vectors in Q registers
// for every pair; per pair four weight loads and twelve VMLADAVA, the second
// slice's loads predicated to `bytes` - 16 lanes.
template <bool kFirst, bool kFull>
__attribute__((noinline)) void mac_pairs_two_slices(const int8_t* x0, const int8_t* x1,
                                                    const int8_t* x2, const int8_t* weight,
                                                    int32_t* table, int32_t pairs, int32_t stride,
                                                    int32_t bytes) {
  register const int8_t* p0 asm("r1") = x0;
  register const int8_t* p1 asm("r5") = x1;
  register const int8_t* p2 asm("r0") = x2;
  register int32_t lanes asm("r2") = bytes - 16;
  register const int8_t* w asm("r3") = weight;
  register int32_t* t asm("r7") = kFirst ? table : table + 6;
  register int32_t row asm("r9") = stride;
  register int32_t left asm("r12") = pairs;
  int8x16_t w0, w1, a0, a1, a2, b0, b1, b2;
#define ETNS_GEMM_TWO_SLICES(LOAD, STORE, PST, LDB)                                               \
  asm volatile(                                                                                   \
      "vmrs r11, p0\n\t" /* the compiler's predicate, if it keeps one there */                    \
      "vldrb.8 %q[a0], [r1]\n\t"                                                                  \
      "vldrb.8 %q[a1], [r5]\n\t"                                                                  \
      "vldrb.8 %q[a2], [r0]\n\t"                                                                  \
      "vctp.8 r2\n\t"                                                                             \
      "vpsttt\n\t"                                                                                \
      "vldrbt.8 %q[b0], [r1, #16]\n\t"                                                            \
      "vldrbt.8 %q[b1], [r5, #16]\n\t"                                                            \
      "vldrbt.8 %q[b2], [r0, #16]\n\t"                                                            \
      "dls lr, r12\n"                                                                             \
      "1:\n\t" LOAD                                                                               \
      "add r5, r3, r9\n\t"                                                                        \
      "vldrb.8 %q[w0], [r3]\n\t"                                                                  \
      "vmladava.s8 r0, %q[a0], %q[w0]\n\t"                                                        \
      "vmladava.s8 r4, %q[a1], %q[w0]\n\t"                                                        \
      "vmladava.s8 r8, %q[a2], %q[w0]\n\t" PST LDB                                                \
      " %q[w0], [r3, #16]\n\t"                                                                    \
      "vmladava.s8 r0, %q[b0], %q[w0]\n\t"                                                        \
      "vmladava.s8 r4, %q[b1], %q[w0]\n\t"                                                        \
      "vmladava.s8 r8, %q[b2], %q[w0]\n\t"                                                        \
      "vldrb.8 %q[w1], [r5]\n\t"                                                                  \
      "vmladava.s8 r2, %q[a0], %q[w1]\n\t"                                                        \
      "vmladava.s8 r6, %q[a1], %q[w1]\n\t"                                                        \
      "vmladava.s8 r10, %q[a2], %q[w1]\n\t" PST LDB                                               \
      " %q[w1], [r5, #16]\n\t"                                                                    \
      "add r3, r5, r9\n\t"                                                                        \
      "vmladava.s8 r2, %q[b0], %q[w1]\n\t"                                                        \
      "vmladava.s8 r6, %q[b1], %q[w1]\n\t"                                                        \
      "vmladava.s8 r10, %q[b2], %q[w1]\n\t" STORE                                                 \
      "le lr, 1b\n\t"                                                                             \
      "vmsr p0, r11\n"                                                                            \
      : [w0] "=&w"(w0), [w1] "=&w"(w1), [a0] "=&w"(a0), [a1] "=&w"(a1), [a2] "=&w"(a2),           \
        [b0] "=&w"(b0), [b1] "=&w"(b1), [b2] "=&w"(b2), "+r"(p1), "+r"(p2), "+r"(lanes), "+r"(w), \
        "+r"(t)                                                                                   \
      : "r"(p0), "r"(row), "r"(left)                                                              \
      : "r4", "r6", "r8", "r10", "r11", "lr", "memory")
  // A full chunk (32 bytes) needs no predication of the weights' second slice.
  if constexpr (kFirst && kFull) {
    ETNS_GEMM_TWO_SLICES(ETNS_GEMM_FIRST_LOAD, ETNS_GEMM_FIRST_STORE, "", "vldrb.8");
  } else if constexpr (kFirst) {
    ETNS_GEMM_TWO_SLICES(ETNS_GEMM_FIRST_LOAD, ETNS_GEMM_FIRST_STORE, "vpst\n\t", "vldrbt.8");
  } else if constexpr (kFull) {
    ETNS_GEMM_TWO_SLICES(ETNS_GEMM_NEXT_LOAD, ETNS_GEMM_NEXT_STORE, "", "vldrb.8");
  } else {
    ETNS_GEMM_TWO_SLICES(ETNS_GEMM_NEXT_LOAD, ETNS_GEMM_NEXT_STORE, "vpst\n\t", "vldrbt.8");
  }
#undef ETNS_GEMM_TWO_SLICES
}

// The exporters' pointwise channel counts: K of 8, 16 or 32 known when
// compiled, so the two weight rows are reached by immediate offsets and one
// post-increment (no address arithmetic, no predication beyond K = 8's).
// The same pairs, table and accumulators as mac_pairs_one_slice.
#define ETNS_GEMM_MACS(A0, A1, A2, W) \
  "vmladava.s8 r0, %q[" A0 "], %q[" W \
  "]\n\t"                             \
  "vmladava.s8 r4, %q[" A1 "], %q[" W \
  "]\n\t"                             \
  "vmladava.s8 r8, %q[" A2 "], %q[" W "]\n\t"
#define ETNS_GEMM_MACS_ODD(A0, A1, A2, W) \
  "vmladava.s8 r2, %q[" A0 "], %q[" W     \
  "]\n\t"                                 \
  "vmladava.s8 r6, %q[" A1 "], %q[" W     \
  "]\n\t"                                 \
  "vmladava.s8 r10, %q[" A2 "], %q[" W "]\n\t"
template <int kK>
__attribute__((noinline)) void mac_pairs_fixed(const int8_t* x0, const int8_t* x1, const int8_t* x2,
                                               const int8_t* weight, int32_t* table,
                                               int32_t pairs) {
  static_assert(kK == 8 || kK == 16 || kK == 32, "8, 16 or 32");
  register const int8_t* p0 asm("r1") = x0;
  register const int8_t* p1 asm("r5") = x1;
  register const int8_t* p2 asm("r0") = x2;
  register const int8_t* w asm("r3") = weight;
  register int32_t* t asm("r7") = table;
  register int32_t left asm("r12") = pairs;
  int8x16_t w0, w1, a0, a1, a2, b0, b1, b2;
  if constexpr (kK == 8) {
    asm volatile(
        "vmrs r11, p0\n\t"  // the compiler's predicate, if it keeps one there
        "movs r2, #8\n\t"
        "vctp.8 r2\n\t"
        "vpsttt\n\t"
        "vldrbt.8 %q[a0], [r1]\n\t"
        "vldrbt.8 %q[a1], [r5]\n\t"
        "vldrbt.8 %q[a2], [r0]\n\t"
        "dls lr, r12\n"
        "1:\n\t" ETNS_GEMM_FIRST_LOAD
        "vpstt\n\t"
        "vldrbt.8 %q[w1], [r3, #8]\n\t"
        "vldrbt.8 %q[w0], [r3], #16\n\t" ETNS_GEMM_MACS("a0", "a1", "a2", "w0")
            ETNS_GEMM_MACS_ODD("a0", "a1", "a2", "w1") ETNS_GEMM_FIRST_STORE
        "le lr, 1b\n\t"
        "vmsr p0, r11\n"
        : [w0] "=&w"(w0), [w1] "=&w"(w1), [a0] "=&w"(a0), [a1] "=&w"(a1), [a2] "=&w"(a2), "+r"(p1),
          "+r"(p2), "+r"(w), "+r"(t)
        : "r"(p0), "r"(left)
        : "r2", "r4", "r6", "r8", "r10", "r11", "lr", "memory");
    static_cast<void>(b0);
    static_cast<void>(b1);
    static_cast<void>(b2);
  } else if constexpr (kK == 16) {
    asm volatile(
        "vldrb.8 %q[a0], [r1]\n\t"
        "vldrb.8 %q[a1], [r5]\n\t"
        "vldrb.8 %q[a2], [r0]\n\t"
        "dls lr, r12\n"
        "1:\n\t" ETNS_GEMM_FIRST_LOAD
        "vldrb.8 %q[w1], [r3, #16]\n\t"
        "vldrb.8 %q[w0], [r3], #32\n\t" ETNS_GEMM_MACS("a0", "a1", "a2", "w0")
            ETNS_GEMM_MACS_ODD("a0", "a1", "a2", "w1") ETNS_GEMM_FIRST_STORE "le lr, 1b\n"
        : [w0] "=&w"(w0), [w1] "=&w"(w1), [a0] "=&w"(a0), [a1] "=&w"(a1), [a2] "=&w"(a2), "+r"(p1),
          "+r"(p2), "+r"(w), "+r"(t)
        : "r"(p0), "r"(left)
        : "r2", "r4", "r6", "r8", "r10", "lr", "memory");
    static_cast<void>(b0);
    static_cast<void>(b1);
    static_cast<void>(b2);
  } else {
    asm volatile(
        "vldrb.8 %q[a0], [r1]\n\t"
        "vldrb.8 %q[a1], [r5]\n\t"
        "vldrb.8 %q[a2], [r0]\n\t"
        "vldrb.8 %q[b0], [r1, #16]\n\t"
        "vldrb.8 %q[b1], [r5, #16]\n\t"
        "vldrb.8 %q[b2], [r0, #16]\n\t"
        "dls lr, r12\n"
        "1:\n\t" ETNS_GEMM_FIRST_LOAD
        "vldrb.8 %q[w0], [r3]\n\t"
        ETNS_GEMM_MACS("a0", "a1", "a2", "w0")
        "vldrb.8 %q[w0], [r3, #16]\n\t"
        ETNS_GEMM_MACS("b0", "b1", "b2", "w0")
        "vldrb.8 %q[w1], [r3, #32]\n\t"
        ETNS_GEMM_MACS_ODD("a0", "a1", "a2", "w1")
        "vldrb.8 %q[w1], [r3, #48]\n\t"
        "add r3, r3, #64\n\t"
        ETNS_GEMM_MACS_ODD("b0", "b1", "b2", "w1")
        ETNS_GEMM_FIRST_STORE
        "le lr, 1b\n"
        : [w0] "=&w"(w0), [w1] "=&w"(w1), [a0] "=&w"(a0), [a1] "=&w"(a1), [a2] "=&w"(a2),
          [b0] "=&w"(b0), [b1] "=&w"(b1), [b2] "=&w"(b2), "+r"(p1), "+r"(p2), "+r"(w), "+r"(t)
        : "r"(p0), "r"(left)
        : "r2", "r4", "r6", "r8", "r10", "lr", "memory");
  }
}
#undef ETNS_GEMM_MACS
#undef ETNS_GEMM_MACS_ODD

// One chunk of at most 32 bytes of K, starting at byte `at`, for every pair.
inline __attribute__((always_inline)) void mac_chunk(const int8_t* const* sources,
                                                     const int8_t* weight, int32_t* table,
                                                     int32_t pairs, int32_t k, int32_t at) {
  const int32_t bytes = k - at < 32 ? k - at : 32;
  const int8_t* x0 = sources[0] + at;
  const int8_t* x1 = sources[1] + at;
  const int8_t* x2 = sources[2] + at;
  if (bytes <= 16) {
    if (at == 0) {
      mac_pairs_one_slice<true>(x0, x1, x2, weight, table, pairs, k, bytes);
    } else {
      mac_pairs_one_slice<false>(x0, x1, x2, weight + at, table, pairs, k, bytes);
    }
  } else if (bytes == 32) {
    if (at == 0) {
      mac_pairs_two_slices<true, true>(x0, x1, x2, weight, table, pairs, k, bytes);
    } else {
      mac_pairs_two_slices<false, true>(x0, x1, x2, weight + at, table, pairs, k, bytes);
    }
  } else if (at == 0) {
    mac_pairs_two_slices<true, false>(x0, x1, x2, weight, table, pairs, k, bytes);
  } else {
    mac_pairs_two_slices<false, false>(x0, x1, x2, weight + at, table, pairs, k, bytes);
  }
}

// The last channel of an odd count, alone: three accumulators over the
// windows at x0, x1, x2 (K readable bytes each).
__attribute__((noinline)) void mac_last_channel(const int8_t* x0, const int8_t* x1,
                                                const int8_t* x2, const int8_t* w, int32_t* sums,
                                                int32_t k) {
  int32_t a0 = sums[0], a1 = sums[0], a2 = sums[0];
  for (; k > 0; k -= 16, w += 16, x0 += 16, x1 += 16, x2 += 16) {
    const mve_pred16_t live = vctp8q(static_cast<uint32_t>(k));
    const int8x16_t wv = vldrbq_z_s8(w, live);
    a0 = vmladavaq_s8(a0, vldrbq_z_s8(x0, live), wv);
    a1 = vmladavaq_s8(a1, vldrbq_z_s8(x1, live), wv);
    a2 = vmladavaq_s8(a2, vldrbq_z_s8(x2, live), wv);
  }
  sums[6] = a0;
  sums[8] = a1;
  sums[10] = a2;
}

// RQ of four sums with per-lane (M, S), the output offset and the clamp.
// kRight: every shift is negative (requantize_mve.h's right-shift form; the
// step down for a negative value is its sign).
template <bool kRight>
inline __attribute__((always_inline)) int32x4_t requantize4(int32x4_t v, int32x4_t multiplier,
                                                            int32x4_t shift, int32_t offset,
                                                            int32x4_t lo, int32x4_t hi) {
  if constexpr (kRight) {
    v = vqrdmulhq_s32(v, multiplier);
    v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), shift);
  } else {
    v = kernels::mve::requantize_lanes(v, multiplier, shift);
  }
  return vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi);
}

// Per-call constants of requantize_block.
struct Output {
  const int32_t* multipliers;
  const int32_t* shifts;
  int32_t channels, offset, lo, hi;
};

// Requantises the block's live pixels, four channels per vector: a gather
// picks pixel q's sums of two pairs out of the table (words 6 + 2q +
// {0, 1, 12, 13}: the base moves by pixel, the offsets stay).
template <bool kRight>
__attribute__((noinline)) void requantize_block(const Output& o, uint32x4_t offsets,
                                                const int32_t* table, int32_t live, int8_t* out) {
  const int32_t channels = o.channels;
  const int32_t full = channels & ~3;
  const int32x4_t lo = vdupq_n_s32(o.lo), hi = vdupq_n_s32(o.hi);
  if (live == kPixels) {
    const int32_t offset = o.offset;
    const int32_t* t = table;
    const int32_t* m = o.multipliers;
    const int32_t* sh = o.shifts;
    int8_t* out0 = out;
    int8_t* out1 = out + channels;
    int8_t* out2 = out + 2 * channels;
    for (int32_t c = 0; c < full; c += 4) {
      const int32x4_t multiplier = vld1q_s32(m);
      const int32x4_t shift = vld1q_s32(sh);
      m += 4;
      sh += 4;
      const int32x4_t v0 = vldrwq_gather_shifted_offset_s32(t, offsets);
      const int32x4_t v1 = vldrwq_gather_shifted_offset_s32(t + 2, offsets);
      const int32x4_t v2 = vldrwq_gather_shifted_offset_s32(t + 4, offsets);
      t += 2 * kPairWords;
      vstrbq_s32(out0, requantize4<kRight>(v0, multiplier, shift, offset, lo, hi));
      vstrbq_s32(out1, requantize4<kRight>(v1, multiplier, shift, offset, lo, hi));
      vstrbq_s32(out2, requantize4<kRight>(v2, multiplier, shift, offset, lo, hi));
      out0 += 4;
      out1 += 4;
      out2 += 4;
    }
    if (full == channels) return;
  }
  // The channels past the last multiple of 4, or a short block: predicated.
  const int32_t start = live == kPixels ? full : 0;
  for (int32_t q = 0; q < live; ++q) {
    const int32_t* t = table + 2 * q + start / 4 * 2 * kPairWords;
    for (int32_t c = start; c < channels; c += 4, t += 2 * kPairWords) {
      const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(channels - c));
      const int32x4_t multiplier = vldrwq_z_s32(o.multipliers + c, lanes);
      const int32x4_t shift = vldrwq_z_s32(o.shifts + c, lanes);
      vstrbq_p_s32(out + q * channels + c,
                   requantize4<kRight>(vldrwq_gather_shifted_offset_z_s32(t, offsets, lanes),
                                       multiplier, shift, o.offset, lo, hi),
                   lanes);
    }
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace

bool conv2d_gemm_handles(const Conv2dParams& p) {
  return p.filter_c == p.input_c && layout(p).total <= kMaxScratchBytes;
}

size_t conv2d_s8_mve_gemm_scratch_bytes(const Conv2dParams& p) {
  return conv2d_gemm_handles(p) ? layout(p).total : conv2d_s8_mve_scratch_bytes(p);
}

#if ETNS_HAVE_MVE
void conv2d_s8_mve_gemm(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                        const int32_t* bias, int8_t* out, uint8_t* scratch) {
  if (!conv2d_gemm_handles(p)) {
    conv2d_s8_mve(p, input, weight, bias, out, scratch);
    return;
  }
  const Layout l = layout(p);
  uint8_t* base =
      reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) & ~uintptr_t{15});
  int32_t* const table = reinterpret_cast<int32_t*>(base + l.pairs);
  int8_t* const staging = reinterpret_cast<int8_t*>(base + l.staging);
  const int32_t k = static_cast<int32_t>(l.window_bytes);
  const int32_t slot = static_cast<int32_t>(l.slot_bytes);
  const int32_t channels = p.output_c;
  const int32_t pairs = channels / 2;

  // Raw int8 times weight, the input offset folded in per channel:
  // sum((x + io) * w) = sum(x * w) + io * sum(w), all mod 2^32 like the
  // reference. Computed per call, so the weights need not be constant.
  bool right_shifts = true;
  for (int32_t oc = 0; oc < channels; ++oc) {
    const int32_t sum = sum_s8(weight + static_cast<size_t>(oc) * k, k);
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    const int32_t corrected = static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) *
                                                           static_cast<uint32_t>(sum));
    int32_t* starts = table + (oc / 2) * kPairWords + (oc % 2);
    starts[0] = starts[2] = starts[4] = corrected;
    right_shifts = right_shifts && p.shifts[oc] < 0;
  }

  const int8x16_t zero_point = vdupq_n_s8(static_cast<int8_t>(-p.input_offset));
  int8_t* const zeros = reinterpret_cast<int8_t*>(base + l.zeros);
  for (int32_t i = 0; i < slot; i += 16) vst1q_s8(zeros + i, zero_point);
  gemm::Windows g = gemm::start_windows(p, input, zeros, staging, slot);
  // 1x1, stride 1, no padding, out the input's size: pixel i's window is the
  // input's bytes [i * K, (i + 1) * K), in every batch.
  const bool contiguous = g.one_tap && p.stride_h == 1 && p.stride_w == 1 && p.pad_h == 0 &&
                          p.pad_w == 0 && p.output_h == p.input_h && p.output_w == p.input_w;
  const Output o{p.multipliers,   p.shifts,         channels,
                 p.output_offset, p.activation_min, p.activation_max};
  uint32x4_t offsets = vdupq_n_u32(6);
  offsets = vsetq_lane_u32(7, offsets, 1);
  offsets = vsetq_lane_u32(18, offsets, 2);
  offsets = vsetq_lane_u32(19, offsets, 3);
  const int32_t total = p.batches * p.output_h * p.output_w;
  const int8_t* last_weights = weight + static_cast<size_t>(channels - 1) * k;
  int32_t* const last_sums = table + pairs * kPairWords;
  const int32_t chunk = chunk_pixels(p);
  const int8_t* sources[kChunkPixels];
  for (int32_t first = 0; first < total; first += kPixels) {
    const int32_t live = total - first < kPixels ? total - first : kPixels;
    const int8_t* const* x = sources;
    if (contiguous) {
      // Pixels past the end: computed on the zero points, never stored.
      const int8_t* src = input + static_cast<size_t>(first) * k;
      sources[0] = src;
      sources[1] = live > 1 ? src + k : zeros;
      sources[2] = live > 2 ? src + 2 * k : zeros;
    } else {
      const int32_t in_chunk = first % chunk;
      if (in_chunk == 0) {
        const int32_t count = total - first < chunk ? total - first : chunk;
        gemm::window_sources(g, count, sources, zero_point);
        for (int32_t q = count; q < chunk; ++q) sources[q] = zeros;
      }
      x = sources + in_chunk;
    }
    if (pairs > 0) {
      if (k == 8) {
        mac_pairs_fixed<8>(x[0], x[1], x[2], weight, table, pairs);
      } else if (k == 16) {
        mac_pairs_fixed<16>(x[0], x[1], x[2], weight, table, pairs);
      } else if (k == 32) {
        mac_pairs_fixed<32>(x[0], x[1], x[2], weight, table, pairs);
      } else if (k <= 16) {
        mac_pairs_one_slice<true>(x[0], x[1], x[2], weight, table, pairs, k, k);
      } else if (k <= 32) {
        mac_pairs_two_slices<true, false>(x[0], x[1], x[2], weight, table, pairs, k, k);
      } else {
        for (int32_t at = 0; at < k; at += 32) mac_chunk(x, weight, table, pairs, k, at);
      }
    }
    if (channels % 2 != 0) mac_last_channel(x[0], x[1], x[2], last_weights, last_sums, k);
    int8_t* block_out = out + static_cast<size_t>(first) * channels;
    if (right_shifts) {
      requantize_block<true>(o, offsets, table, live, block_out);
    } else {
      requantize_block<false>(o, offsets, table, live, block_out);
    }
  }
}
#endif

}  // namespace etns::cortex_m
