#include "kernels/cortex_m_ns/sub/sub.h"

#include <algorithm>
#include <cstdlib>

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cortex_m_ns/sub/sub_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/common/requantize_hwy.h"

HWY_BEFORE_NAMESPACE();
namespace etns::cortex_m_ns::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::LaneRequant;
using kernels::HWY_NAMESPACE::WrappingShiftLeft;
using kernels::HWY_NAMESPACE::WrappingSub;

// Each input's requantisation depends on its byte alone, so both are read
// from 256-entry tables (indexed by the byte + 128), computed by the same lane
// code. They are kept per thread with the parameters they were made from: a
// channel broadcast calls this once per 512-byte chunk, and a program calls
// it once per run, with the same parameters.
struct InputTables {
  bool valid = false;
  SubParams params;
  HWY_ALIGN int32_t self[256];
  HWY_ALIGN int32_t other[256];
#if HWY_TARGET == HWY_AVX3_DL
  // The same tables as 4 byte planes, entry = the input byte as unsigned,
  // and the output stage as one 64-bit rounding (ByteLookupSub below).
  bool byte_path = false;
  int64_t round_up = 0;  // added where a - b >= 0, output zero point folded in
  int32_t shift = 0;     // 31 + the output's right shift
  HWY_ALIGN uint8_t self_planes[4][256];
  HWY_ALIGN uint8_t other_planes[4][256];
#endif
};

bool SameParams(const SubParams& a, const SubParams& b) {
  return a.self_zero_point == b.self_zero_point && a.other_zero_point == b.other_zero_point &&
         a.self.multiplier == b.self.multiplier && a.self.shift == b.self.shift &&
         a.other.multiplier == b.other.multiplier && a.other.shift == b.other.shift &&
         a.out.multiplier == b.out.multiplier && a.out.shift == b.out.shift &&
         a.out_zero_point == b.out_zero_point;
}

template <class D>
void FillTable(D d, kernels::Requant factor, int32_t zero_point, int32_t* table) {
  const LaneRequant<D> rq(d, factor);
  for (size_t i = 0; i < 256; i += hn::Lanes(d)) {
    const auto q = hn::Sub(hn::Iota(d, static_cast<int32_t>(i) - 128), hn::Set(d, zero_point));
    hn::Store(rq(d, WrappingShiftLeft(d, q, kSubLeftShift)), d, table + i);
  }
}

#if HWY_TARGET == HWY_AVX3_DL
// VBMI (Highway 1.0.3 has no byte permutes, so these lines are intrinsics).
// A two-source byte permute looks 64 bytes up in 128 entries, so each input's
// int32 table is 4 planes of 256 bytes, 2 permutes and a blend a plane; byte
// unpacks turn the planes into int32 lanes. The unpacks work within 128-bit
// blocks (lane 4j + i of the k-th result holds element 16j + 4k + i), and the
// saturating packs at the end undo exactly that order.
//
// The output stage RDIV(DHM(d, M), R), R >= 1, is one rounding of the 64-bit
// d * M: nested floor divisions merge, and with h = 2^(30 + R)
//   DHM(d, M) >= 0:  floor((d * M + 2^30 + h) / 2^(31 + R))
//   DHM(d, M) <  0:  floor((d * M - 2^30 + h) / 2^(31 + R)).
// Where d < 0 and DHM is 0 both give 0, so d's sign picks the constant. The
// output zero point is added as zp * 2^(31 + R) to both. Used when that fits
// int64 and the tables keep |a|, |b| < 2^30 (a - b cannot saturate); other
// parameters take the gather path.
void FillBytePath(const SubParams& p, InputTables& t) {
  t.byte_path = false;
  if (p.out.shift >= 0 || p.out.multiplier <= 0) return;
  int32_t largest = 0;
  for (int i = 0; i < 256; ++i) {
    largest = std::max({largest, std::abs(t.self[i]), std::abs(t.other[i])});
    if (t.self[i] <= -(1 << 30) || t.other[i] <= -(1 << 30)) return;
  }
  if (largest >= (1 << 30)) return;
  const int32_t shift = 31 - p.out.shift;
  const __int128 round_up = (__int128{1} << 30) + (__int128{1} << (shift - 1)) +
                            static_cast<__int128>(p.out_zero_point) * (__int128{1} << shift);
  const __int128 bound = static_cast<__int128>(2 * largest) * p.out.multiplier +
                         (round_up < 0 ? -round_up : round_up);
  if (bound >= (__int128{1} << 62)) return;
  for (int u = 0; u < 256; ++u) {
    const int index = static_cast<int8_t>(u) + 128;
    for (int plane = 0; plane < 4; ++plane) {
      t.self_planes[plane][u] = static_cast<uint8_t>(static_cast<uint32_t>(t.self[index]) >> (8 * plane));
      t.other_planes[plane][u] = static_cast<uint8_t>(static_cast<uint32_t>(t.other[index]) >> (8 * plane));
    }
  }
  t.round_up = static_cast<int64_t>(round_up);
  t.shift = shift;
  t.byte_path = true;
}

// The 64 looked-up int32 values of one input, as 4 vectors in unpack order
// (written out plane by plane: GCC keeps loops over arrays of vectors on the
// stack).
struct Lanes64 {
  __m512i v0, v1, v2, v3;
};

HWY_INLINE __m512i LookUpPlane(const uint8_t* table, __m512i index, __mmask64 high) {
  const __m512i low = _mm512_permutex2var_epi8(_mm512_load_si512(table), index,
                                               _mm512_load_si512(table + 64));
  const __m512i upper = _mm512_permutex2var_epi8(_mm512_load_si512(table + 128), index,
                                                 _mm512_load_si512(table + 192));
  return _mm512_mask_blend_epi8(high, low, upper);
}

HWY_INLINE Lanes64 LookUpPlanes(const uint8_t (*planes)[256], __m512i index) {
  const __mmask64 high = _mm512_movepi8_mask(index);
  const __m512i byte0 = LookUpPlane(planes[0], index, high);
  const __m512i byte1 = LookUpPlane(planes[1], index, high);
  const __m512i byte2 = LookUpPlane(planes[2], index, high);
  const __m512i byte3 = LookUpPlane(planes[3], index, high);
  const __m512i low01 = _mm512_unpacklo_epi8(byte0, byte1);
  const __m512i high01 = _mm512_unpackhi_epi8(byte0, byte1);
  const __m512i low23 = _mm512_unpacklo_epi8(byte2, byte3);
  const __m512i high23 = _mm512_unpackhi_epi8(byte2, byte3);
  return {_mm512_unpacklo_epi16(low01, low23), _mm512_unpackhi_epi16(low01, low23),
          _mm512_unpacklo_epi16(high01, high23), _mm512_unpackhi_epi16(high01, high23)};
}

// The output stage for 16 differences d, zero point added.
HWY_INLINE __m512i RoundOut(__m512i diff, __m512i multiplier, __m512i round_up, __m512i two_31,
                            __m128i shift, __m128i shift_odd) {
  const auto round = [&](__m512i product) {
    const __m512i up = _mm512_add_epi64(product, round_up);
    return _mm512_mask_sub_epi64(up, _mm512_movepi64_mask(product), up, two_31);
  };
  const __m512i even = _mm512_sra_epi64(round(_mm512_mul_epi32(diff, multiplier)), shift);
  // The odd lanes shifted 32 less: their results land in the high halves.
  const __m512i odd = _mm512_sra_epi64(
      round(_mm512_mul_epi32(_mm512_srli_epi64(diff, 32), multiplier)), shift_odd);
  return _mm512_mask_blend_epi32(0xAAAA, even, odd);
}

// Whole blocks of 64 elements (n >= 64); returns how many were done.
size_t ByteLookupSub(const SubParams& p, const InputTables& t, const int8_t* self,
                     const int8_t* other, int8_t* out, size_t n) {
  const __m512i multiplier = _mm512_set1_epi64(p.out.multiplier);
  const __m512i round_up = _mm512_set1_epi64(t.round_up);
  const __m512i two_31 = _mm512_set1_epi64(int64_t{1} << 31);
  const __m128i shift = _mm_cvtsi32_si128(t.shift);
  const __m128i shift_odd = _mm_cvtsi32_si128(t.shift - 32);
  const __m512i low = _mm512_set1_epi8(static_cast<char>(p.act_min));
  const __m512i high = _mm512_set1_epi8(static_cast<char>(p.act_max));
  // A block of 64 bytes equal to the previous one (a channel broadcast's
  // repeated operand) reuses its looked-up values.
  __m512i self_block = _mm512_loadu_si512(self);
  __m512i other_block = _mm512_loadu_si512(other);
  Lanes64 a = LookUpPlanes(t.self_planes, self_block);
  Lanes64 b = LookUpPlanes(t.other_planes, other_block);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i self_next = _mm512_loadu_si512(self + i);
    if (_mm512_cmpneq_epi8_mask(self_next, self_block) != 0) {
      self_block = self_next;
      a = LookUpPlanes(t.self_planes, self_block);
    }
    const __m512i other_next = _mm512_loadu_si512(other + i);
    if (_mm512_cmpneq_epi8_mask(other_next, other_block) != 0) {
      other_block = other_next;
      b = LookUpPlanes(t.other_planes, other_block);
    }
    const auto round_out = [&](__m512i self_lanes, __m512i other_lanes) {
      return RoundOut(_mm512_sub_epi32(self_lanes, other_lanes), multiplier, round_up, two_31, shift,
                      shift_odd);
    };
    // Saturating int32 -> int16 -> int8, as one saturation to int8.
    const __m512i low_half = _mm512_packs_epi32(round_out(a.v0, b.v0), round_out(a.v1, b.v1));
    const __m512i high_half = _mm512_packs_epi32(round_out(a.v2, b.v2), round_out(a.v3, b.v3));
    __m512i result = _mm512_packs_epi16(low_half, high_half);
    result = _mm512_min_epi8(_mm512_max_epi8(result, low), high);
    _mm512_storeu_si512(out + i, result);
  }
  return i;
}
#endif  // HWY_TARGET == HWY_AVX3_DL

// One int32 lane per element; the tail (fewer than a vector) runs the
// reference, so no load or store goes past n.
void SubS8(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
  static thread_local InputTables tables;
  if (!tables.valid || !SameParams(tables.params, p)) {
    FillTable(d, p.self, p.self_zero_point, tables.self);
    FillTable(d, p.other, p.other_zero_point, tables.other);
    tables.params = p;
    tables.valid = true;
#if HWY_TARGET == HWY_AVX3_DL
    FillBytePath(p, tables);
#endif
  }
  size_t i = 0;
#if HWY_TARGET == HWY_AVX3_DL
  if (tables.byte_path && n >= 64) i = ByteLookupSub(p, tables, self, other, out, n);
#endif
  const LaneRequant<decltype(d)> out_rq(d, p.out);
  const auto out_zero_point = hn::Set(d, p.out_zero_point);
  // clamp(y + zp, min, max) as clamp(y, min - zp, max - zp) + zp: exact, and
  // no int32 overflow for y near the ends.
  const auto low = hn::Set(d, p.act_min - p.out_zero_point);
  const auto high = hn::Set(d, p.act_max - p.out_zero_point);
  const auto int32_max = hn::Set(d, INT32_MAX);
  const auto index_offset = hn::Set(d, 128);
  for (; i + lanes <= n; i += lanes) {
    const auto self_q = hn::PromoteTo(d, hn::LoadU(d8, self + i));
    const auto other_q = hn::PromoteTo(d, hn::LoadU(d8, other + i));
    const auto a = hn::GatherIndex(d, tables.self, hn::Add(self_q, index_offset));
    const auto b = hn::GatherIndex(d, tables.other, hn::Add(other_q, index_offset));
    // a - b saturated to int32 (the reference's saturate_s32): it overflowed
    // where a and b differ in sign and the wrapped difference's sign is not a's.
    const auto wrapped = WrappingSub(d, a, b);
    const auto overflow =
        hn::Lt(hn::And(hn::Xor(a, b), hn::Xor(a, wrapped)), hn::Zero(d));
    const auto saturated = hn::Xor(hn::BroadcastSignBit(a), int32_max);
    const auto diff = hn::IfThenElse(overflow, saturated, wrapped);
    const auto y = hn::Add(hn::Min(hn::Max(out_rq(d, diff), low), high), out_zero_point);
    hn::StoreU(hn::DemoteTo(d8, y), d8, out + i);
  }
  if (i < n) sub_s8_ref(p, self + i, other + i, out + i, n - i);
}

}  // namespace etns::cortex_m_ns::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::cortex_m_ns {

HWY_EXPORT(SubS8);

void sub_s8_hwy(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n) {
  HWY_DYNAMIC_DISPATCH(SubS8)(p, self, other, out, n);
}

}  // namespace etns::cortex_m_ns
#endif  // HWY_ONCE
