#include <algorithm>

#include "kernels/cortex_m/linear/linear.h"

#include <utility>

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m/linear/linear_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/dot_hwy.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DotRows;
using kernels::HWY_NAMESPACE::LaneRequant;
using kernels::HWY_NAMESPACE::WrappingAdd;

// Input elements widened to int16 at once (a stack buffer). Also bounds a
// chunk's dot products: 4096 products of at most 128 * 128 stay below 2^31
// in int32 lanes; chunks are summed wrapping, as the reference's uint32 sums.
constexpr size_t kChunk = 4096;
// Rows whose sums are kept while the input chunks go by.
constexpr size_t kRowBlock = 64;

#if HWY_TARGET == HWY_AVX3_DL
// AVX-512 VNNI (Highway's AVX3_DL target implies it; Highway 1.0.3 has no
// operation for it): vpdpbusd multiplies 4 unsigned bytes by 4 signed bytes
// and adds the products to an int32 lane. The weights go in unsigned, as
// w ^ 0x80 = w + 128, against the signed input, so
//   sum (w + 128) * x = sum x * w + 128 * sum x,
// and the caller subtracts 128 * sum x, modulo 2^32 as the reference wraps.
// With `weight_sums`, the same bytes against 1s give sum (w + 128).

// The lane sums of four vectors at once, wrapping: pairs of lanes added
// within each 128-bit block by unpacking, then the four blocks.
ETNS_VNNI_ATTR __m128i SumLanes4(const __m512i* v) {
  const __m512i s01 = _mm512_add_epi32(_mm512_unpacklo_epi32(v[0], v[1]), _mm512_unpackhi_epi32(v[0], v[1]));
  const __m512i s23 = _mm512_add_epi32(_mm512_unpacklo_epi32(v[2], v[3]), _mm512_unpackhi_epi32(v[2], v[3]));
  const __m512i s = _mm512_add_epi32(_mm512_unpacklo_epi64(s01, s23), _mm512_unpackhi_epi64(s01, s23));
  const __m256i h = _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
  return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

// One vector of one weight row: w + 128 from its bytes (masked-off bytes
// load as 0, and (0 ^ 0x80) meets x's 0 there), acc += (w + 128) . x and,
// with kWeightSums, sums += (w + 128) . unit (1s, 0 past the row).
template <bool kWeightSums>
ETNS_VNNI_ATTR __attribute__((always_inline)) inline void AccumulateRow(__m512i bytes, __m512i xv, __m512i unit,
                                                                        __m512i& acc, __m512i& sums) {
  const __m512i w = _mm512_xor_si512(bytes, _mm512_set1_epi8(static_cast<char>(0x80)));
  acc = _mm512_dpbusd_epi32(acc, w, xv);
  if (kWeightSums) sums = _mm512_dpbusd_epi32(sums, w, unit);
}

// Weight rows a pass of long rows takes: 8 accumulators and 8 weight sums,
// with the row pointers, in registers.
constexpr int kVnniRows = 8;

// For `count` (1 to kRows) weight rows `in` bytes apart: dots[r] = sum (w + 128)
// * x and, with kWeightSums, weight_sums[r] = sum (w + 128) (kRows values
// written, those past count meaningless), both modulo 2^32. Whole vectors
// first, then the last bytes of a row by a masked load, so nothing past a
// row is read.
template <int kRows, bool kWeightSums>
ETNS_VNNI_ATTR void VnniRowDots(const int8_t* x, const int8_t* rows, size_t in, int count, uint32_t* dots,
                                uint32_t* weight_sums) {
  const __m512i ones = _mm512_set1_epi8(1);
  const int8_t* row[kRows];
  __m512i acc[kRows];
  __m512i sums[kRows];
#pragma GCC unroll 16
  for (int r = 0; r < kRows; ++r) {
    // Rows past `count` repeat row 0 (in bounds); their sums are dropped.
    row[r] = rows + (r < count ? static_cast<size_t>(r) * in : 0);
    acc[r] = _mm512_setzero_si512();
    sums[r] = _mm512_setzero_si512();
  }
  // Unrolled, so the accumulators stay in registers.
  const auto step = [&](size_t i, __mmask64 mask, __m512i xv, __m512i unit) ETNS_VNNI_ATTR {
#pragma GCC unroll 16
    for (int r = 0; r < kRows; ++r) {
      AccumulateRow<kWeightSums>(_mm512_maskz_loadu_epi8(mask, row[r] + i), xv, unit, acc[r], sums[r]);
    }
  };
  size_t i = 0;
  for (; i + 64 <= in; i += 64) step(i, ~__mmask64{0}, _mm512_loadu_si512(x + i), ones);
  if (i < in) {
    const __mmask64 mask = (__mmask64{1} << (in - i)) - 1;
    step(i, mask, _mm512_maskz_loadu_epi8(mask, x + i), _mm512_maskz_mov_epi8(mask, ones));
  }
  // Whole vectors of 4 sums; the caller's arrays hold kRows each.
#pragma GCC unroll 4
  for (int r = 0; r < kRows; r += 4) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dots + r), SumLanes4(acc + r));
    if (kWeightSums) _mm_storeu_si128(reinterpret_cast<__m128i*>(weight_sums + r), SumLanes4(sums + r));
  }
}

// Rows of at most kShortVectors vectors (the MLPerf ad layers' 128 and 640
// bytes): x stays in registers and 4 rows go at a time, one accumulator
// each, so no row pointer or accumulator spills and every final reduction
// is one SumLanes4. Writes `count` rounded up to 4 values to dots (and
// weight_sums); rows past count repeat the last row (in bounds).
constexpr int kShortVectors = 10;

template <int kVectors, bool kWeightSums>
ETNS_VNNI_ATTR void VnniShortRows(const int8_t* x, const int8_t* rows, size_t in, size_t count, uint32_t* dots,
                                  uint32_t* weight_sums) {
  const __m512i ones = _mm512_set1_epi8(1);
  constexpr size_t kLast = kVectors - 1;
  const size_t tail = in - kLast * 64;  // 1 to 64 bytes
  const __mmask64 last = tail == 64 ? ~__mmask64{0} : (__mmask64{1} << tail) - 1;
  __m512i xv[kVectors];
#pragma GCC unroll 16
  for (size_t k = 0; k < kLast; ++k) xv[k] = _mm512_loadu_si512(x + 64 * k);
  xv[kLast] = _mm512_maskz_loadu_epi8(last, x + 64 * kLast);
  const __m512i unit_last = _mm512_maskz_mov_epi8(last, ones);
  for (size_t r = 0; r < count; r += 4) {
    const int8_t* row[4];
    __m512i acc[4];
    __m512i sums[4];
#pragma GCC unroll 4
    for (size_t q = 0; q < 4; ++q) {
      row[q] = rows + std::min(r + q, count - 1) * in;
      acc[q] = _mm512_setzero_si512();
      sums[q] = _mm512_setzero_si512();
    }
#pragma GCC unroll 16
    for (size_t k = 0; k < kVectors; ++k) {
#pragma GCC unroll 4
      for (size_t q = 0; q < 4; ++q) {
        const __m512i bytes = k < kLast ? _mm512_loadu_si512(row[q] + 64 * k)
                                        : _mm512_maskz_loadu_epi8(last, row[q] + 64 * k);
        AccumulateRow<kWeightSums>(bytes, xv[k], k < kLast ? ones : unit_last, acc[q], sums[q]);
      }
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dots + r), SumLanes4(acc));
    if (kWeightSums) _mm_storeu_si128(reinterpret_cast<__m128i*>(weight_sums + r), SumLanes4(sums));
  }
}

template <bool kWeightSums, size_t... kVectors>
ETNS_VNNI_ATTR bool ShortRowsFor(size_t vectors, const int8_t* x, const int8_t* rows, size_t in, size_t count,
                                 uint32_t* dots, uint32_t* weight_sums, std::index_sequence<kVectors...>) {
  // One instantiation per vector count 1 to kShortVectors.
  return ((vectors == kVectors + 1 &&
           (VnniShortRows<static_cast<int>(kVectors) + 1, kWeightSums>(x, rows, in, count, dots, weight_sums),
            true)) ||
          ...);
}

// dots (and weight_sums) for `count` rows, at most kRowBlock.
ETNS_VNNI_ATTR void VnniRows(const int8_t* x, const int8_t* rows, size_t in, size_t count, bool weight_sums_wanted,
                             uint32_t* dots, uint32_t* weight_sums) {
  if (in == 0) {
    std::fill_n(dots, count, 0u);
    std::fill_n(weight_sums, count, 0u);
    return;
  }
  const size_t vectors = (in + 63) / 64;
  if (vectors <= kShortVectors) {
    const auto sequence = std::make_index_sequence<kShortVectors>();
    if (weight_sums_wanted) {
      ShortRowsFor<true>(vectors, x, rows, in, count, dots, weight_sums, sequence);
    } else {
      ShortRowsFor<false>(vectors, x, rows, in, count, dots, weight_sums, sequence);
    }
    return;
  }
  for (size_t j = 0; j < count; j += kVnniRows) {
    const int n_rows = static_cast<int>(std::min<size_t>(kVnniRows, count - j));
    if (weight_sums_wanted) {
      VnniRowDots<kVnniRows, true>(x, rows + j * in, in, n_rows, dots + j, weight_sums + j);
    } else {
      VnniRowDots<kVnniRows, false>(x, rows + j * in, in, n_rows, dots + j, weight_sums + j);
    }
  }
}

// sum x[0, in) modulo 2^32, 64 bytes an instruction against unsigned 1s.
ETNS_VNNI_ATTR uint32_t VnniByteSum(const int8_t* x, size_t in) {
  const __m512i ones = _mm512_set1_epi8(1);
  __m512i acc = _mm512_setzero_si512();
  for (size_t i = 0; i < in; i += 64) {
    const size_t left = in - i;
    const __mmask64 mask = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
    acc = _mm512_dpbusd_epi32(acc, ones, _mm512_maskz_loadu_epi8(mask, x + i));
  }
  return static_cast<uint32_t>(_mm512_reduce_add_epi32(acc));
}
#undef ETNS_VNNI_ATTR
#endif  // HWY_TARGET == HWY_AVX3_DL

// Each row's accumulator before its dot products: its kernel sum, or its bias
// and input_offset * in * filter_offset when the sums are not given (sum(w)
// is added with the dots), plus the input term.
HWY_INLINE void StartRows(const LinearParams& p, const int32_t* bias, const int32_t* kernel_sum, size_t in,
                          uint32_t input_term, size_t r0, size_t block, uint32_t* acc) {
  for (size_t j = 0; j < block; ++j) {
    const size_t r = r0 + j;
    if (kernel_sum != nullptr) {
      acc[j] = static_cast<uint32_t>(kernel_sum[r]) + input_term;
    } else {
      acc[j] = (bias != nullptr ? static_cast<uint32_t>(bias[r]) : 0u) +
               static_cast<uint32_t>(p.input_offset) * static_cast<uint32_t>(in) *
                   static_cast<uint32_t>(p.filter_offset) +
               input_term;
    }
  }
}

// The block's outputs, requantised a vector at a time (one factor for all),
// the rest one by one.
template <class D, class Requant>
HWY_INLINE void StoreRows(D d32, const Requant& out_rq, const LinearParams& p, const uint32_t* acc, size_t block,
                          int8_t* row_out) {
  const hn::RebindToUnsigned<D> du32;
  const hn::Rebind<int8_t, D> d8;
  const auto output_offset = hn::Set(d32, p.output_offset);
  const auto low = hn::Set(d32, p.activation_min);
  const auto high = hn::Set(d32, p.activation_max);
  size_t j = 0;
  for (; j + hn::Lanes(d32) <= block; j += hn::Lanes(d32)) {
    const auto y = WrappingAdd(d32, out_rq(d32, hn::BitCast(d32, hn::LoadU(du32, acc + j))), output_offset);
    hn::StoreU(hn::DemoteTo(d8, hn::Min(hn::Max(y, low), high)), d8, row_out + j);
  }
  for (; j < block; ++j) {
    const uint32_t value = static_cast<uint32_t>(kernels::requantize(static_cast<int32_t>(acc[j]), p.out)) +
                           static_cast<uint32_t>(p.output_offset);
    row_out[j] = static_cast<int8_t>(
        kernels::clamp_s32(static_cast<int32_t>(value), p.activation_min, p.activation_max));
  }
}

// The reference's sum, reordered: every term is added modulo 2^32, so
//   ks + filter_offset * sum(x) + sum(x * w)
// with ks = bias + input_offset * (sum(w) + in * filter_offset) when the
// kernel sums are not given, is the same uint32.
void LinearS8(const LinearParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
              const int32_t* kernel_sum, int8_t* out) {
  const size_t in = static_cast<size_t>(p.in_features);
  const size_t rows = static_cast<size_t>(p.out_features);
  const hn::ScalableTag<int32_t> d32;
  const LaneRequant<decltype(d32)> out_rq(d32, p.out);
  uint32_t acc[kRowBlock];
#if HWY_TARGET != HWY_AVX3_DL
  const size_t weight_bytes = rows * in;
  // 128-bit vectors where a full one would be mostly the zero padding.
  const hn::CappedTag<int32_t, 16 / sizeof(int32_t)> d32_narrow;
  // Chunks of x and of 1s (to sum weight rows), each 0 for a vector past its end.
  HWY_ALIGN int16_t x16[kChunk + HWY_MAX_BYTES / sizeof(int16_t)];
  HWY_ALIGN int16_t ones[kChunk + HWY_MAX_BYTES / sizeof(int16_t)];
  int32_t sums[4];
#endif
  for (size_t b = 0; b < static_cast<size_t>(p.batches); ++b) {
    const int8_t* x = input + b * in;
#if HWY_TARGET == HWY_AVX3_DL
    const uint32_t input_sum = VnniByteSum(x, in);
#else
    uint32_t input_sum = 0;
    for (size_t i = 0; i < in; ++i) input_sum += static_cast<uint32_t>(x[i]);
#endif
    const uint32_t input_term = static_cast<uint32_t>(p.filter_offset) * input_sum;
#if HWY_TARGET != HWY_AVX3_DL
    size_t held = kChunk;  // no chunk in x16 yet (chunks start at multiples of kChunk)
#endif
    for (size_t r0 = 0; r0 < rows; r0 += kRowBlock) {
      const size_t block = std::min(kRowBlock, rows - r0);
      StartRows(p, bias, kernel_sum, in, input_term, r0, block, acc);
#if HWY_TARGET == HWY_AVX3_DL
      // Room for a whole last pass (VnniRowDots writes kVnniRows values).
      uint32_t dots[kRowBlock + kVnniRows];
      uint32_t weight_sums[kRowBlock + kVnniRows];
      VnniRows(x, weight + r0 * in, in, block, kernel_sum == nullptr, dots, weight_sums);
      for (size_t j = 0; j < block; ++j) {
        acc[j] += dots[j] - 128u * input_sum;
        if (kernel_sum == nullptr) {
          acc[j] += static_cast<uint32_t>(p.input_offset) * (weight_sums[j] - 128u * static_cast<uint32_t>(in));
        }
      }
#else
      for (size_t k0 = 0; k0 < in; k0 += kChunk) {
        const size_t count = std::min(kChunk, in - k0);
        if (held != k0) {
          for (size_t i = 0; i < count; ++i) x16[i] = x[k0 + i];
          std::fill_n(x16 + count, HWY_MAX_BYTES / sizeof(int16_t), int16_t{0});
          if (kernel_sum == nullptr) {
            std::fill_n(ones, count, int16_t{1});
            std::fill_n(ones + count, HWY_MAX_BYTES / sizeof(int16_t), int16_t{0});
          }
          held = k0;
        }
        const bool narrow = count < hn::Lanes(d32);
        for (size_t j = 0; j < block; j += 4) {
          const int n_rows = static_cast<int>(std::min<size_t>(4, block - j));
          const size_t first = (r0 + j) * in + k0;
          const size_t room = weight_bytes - (first + static_cast<size_t>(n_rows - 1) * in);
          if (narrow) {
            DotRows(d32_narrow, x16, weight + first, in, count, n_rows, room, sums);
          } else {
            DotRows(d32, x16, weight + first, in, count, n_rows, room, sums);
          }
          for (int r = 0; r < n_rows; ++r) acc[j + r] += static_cast<uint32_t>(sums[r]);
          if (kernel_sum == nullptr) {
            if (narrow) {
              DotRows(d32_narrow, ones, weight + first, in, count, n_rows, room, sums);
            } else {
              DotRows(d32, ones, weight + first, in, count, n_rows, room, sums);
            }
            for (int r = 0; r < n_rows; ++r) {
              acc[j + r] += static_cast<uint32_t>(p.input_offset) * static_cast<uint32_t>(sums[r]);
            }
          }
        }
      }
#endif
      StoreRows(d32, out_rq, p, acc, block, out + b * rows + r0);
    }
  }
}

}  // namespace etns::cortex_m::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m {

HWY_EXPORT(LinearS8);

void linear_s8_hwy(const LinearParams& p, const int8_t* input, const int8_t* weight, const int32_t* bias,
                   const int32_t* kernel_sum, int8_t* out, uint8_t* /*scratch*/) {
  HWY_DYNAMIC_DISPATCH(LinearS8)(p, input, weight, bias, kernel_sum, out);
}

}  // namespace etns::cortex_m
#endif  // HWY_ONCE
