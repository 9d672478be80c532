#include "kernels/common/byte_table.h"

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/common/byte_table_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Byte shuffles look up 16 entries at a time, so the table is 16 chunks of
// 16 bytes: for chunk k, j = code - 16k wraps to [0, 15] only for the codes
// it holds. Adding 0x70 with saturation takes those to [0x70, 0x7f] and
// every other j to 0x80 or more; masking with 0x8f then leaves a hit's low
// nibble and a miss's top bit, for which TableLookupBytesOr0 gives 0 (on
// every target: only indices below 16 or with the top bit are defined).
// ORing the 16 lookups leaves the one hit.
void LookupS8(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: no shuffle to use (GCC before 12.3 falls back to this target).
  lookup_s8(table, in, out, n);
#elif HWY_TARGET == HWY_AVX3_DL
  // VBMI: one two-source byte permute looks a byte up in 128 entries, so two
  // of them cover the table, and the index's top bit picks between them.
  const auto* values = reinterpret_cast<const uint8_t*>(table.values);
  const auto* src = reinterpret_cast<const uint8_t*>(in);
  auto* dst = reinterpret_cast<uint8_t*>(out);
  const __m512i low0 = _mm512_loadu_si512(values);
  const __m512i low1 = _mm512_loadu_si512(values + 64);
  const __m512i high0 = _mm512_loadu_si512(values + 128);
  const __m512i high1 = _mm512_loadu_si512(values + 192);
  const auto look_up = [&](size_t at) {
    const __m512i index = _mm512_loadu_si512(src + at);
    const __m512i low = _mm512_permutex2var_epi8(low0, index, low1);
    const __m512i high = _mm512_permutex2var_epi8(high0, index, high1);
    _mm512_storeu_si512(dst + at, _mm512_mask_blend_epi8(_mm512_movepi8_mask(index), low, high));
  };
  size_t i = 0;
  // Two vectors a step: the permutes of one overlap the other's.
  for (; i + 128 <= n; i += 128) {
    look_up(i);
    look_up(i + 64);
  }
  for (; i + 64 <= n; i += 64) look_up(i);
  // The tail (fewer than 64): no load or store past n.
  if (i < n) lookup_s8(table, in + i, out + i, n - i);
#else
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto* values = reinterpret_cast<const uint8_t*>(table.values);
  const auto* src = reinterpret_cast<const uint8_t*>(in);
  auto* dst = reinterpret_cast<uint8_t*>(out);
  hn::Vec<decltype(d)> chunks[16];
  for (size_t k = 0; k < 16; ++k) chunks[k] = hn::LoadDup128(d, values + 16 * k);
  const auto step = hn::Set(d, uint8_t{16});
  const auto bias = hn::Set(d, uint8_t{0x70});
  const auto mask = hn::Set(d, uint8_t{0x8f});
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    auto j = hn::LoadU(d, src + i);
    auto looked_up = hn::Zero(d);
    for (size_t k = 0; k < 16; ++k) {
      const auto index = hn::And(hn::SaturatedAdd(j, bias), mask);
      looked_up = hn::Or(looked_up, hn::TableLookupBytesOr0(chunks[k], index));
      j = hn::Sub(j, step);
    }
    hn::StoreU(looked_up, d, dst + i);
  }
  // The tail (fewer than a vector): no load or store past n.
  if (i < n) lookup_s8(table, in + i, out + i, n - i);
#endif
}

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::kernels {

HWY_EXPORT(LookupS8);

void lookup_s8_hwy(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(LookupS8)(table, in, out, n);
}

}  // namespace etns::kernels
#endif  // HWY_ONCE
