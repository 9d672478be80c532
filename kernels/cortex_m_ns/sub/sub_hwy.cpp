#include "kernels/cortex_m_ns/sub/sub.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

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
  // The output stage's integer parts and remainder ranks as byte planes,
  // entry = the input byte as unsigned (RankLookupSub below).
  bool rank_path = false;
  HWY_ALIGN uint8_t self_planes[6][256];
  HWY_ALIGN uint8_t other_planes[3][256];
  // The same in int8 lanes where the parameters allow (FillNarrowPath):
  // X+ - alpha, X- - alpha, rank+, rank- for self; Y - beta, rank for other.
  bool narrow_path = false;
  int32_t narrow_offset = 0;  // gamma = alpha - beta
  HWY_ALIGN uint8_t narrow_self[4][256];
  HWY_ALIGN uint8_t narrow_other[2][256];
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
// With R = -output shift >= 1 and k = 31 + R, the output stage of a' - b' is
// one floor division (docs/design.md, "Host SIMD variants"):
//   out = floor((a' * M - b' * M + c) / 2^k),  c = c+ where a' >= b', else c-,
//   c+ = zp * 2^k + 2^(k - 1) + 2^30,  c- = c+ - 2^31.
// Split each side into an integer part and a remainder below 2^k:
//   a' * M + c = X * 2^k + xi,  b' * M = Y * 2^k + eta,
//   out = X - Y - [xi < eta].
// Both parts depend on one byte, so they are tables: X and Y as int16 (two
// byte planes each), and xi, eta as ranks. eta's rank is its place among the
// distinct eta values (0 to 255), xi's the number of them below or equal to
// it, minus one; then xi < eta exactly where rank(xi) < rank(eta) as unsigned
// bytes, ties included.
// The sign picks c: self has a table for c+ and one for c-, giving o+ and
// o-. For a' < b', o+ <= zp; for a' >= b', o- >= zp; and o- <= o+. So
// out = o+ where o+ > zp, else o- (where neither holds both are zp).
// Used when the tables keep |a'|, |b'| < 2^30 (a' - b' cannot saturate) and
// |X|, |Y| < 2^14 (X - Y - 1 fits int16); other parameters take the gather
// path. Everything is per 64 elements: 9 byte-plane lookups, byte compares
// for the borrows, and int16 lanes from byte unpacks for the rest; or, where
// X and Y fit a byte after an offset, 6 lookups and int8 lanes
// (FillNarrowPath).
enum SelfPlane { kPlusLow, kPlusHigh, kMinusLow, kMinusHigh, kPlusRank, kMinusRank };
enum OtherPlane { kLow, kHigh, kRank };

// floor(v / 2^k) and v - that * 2^k, for k in [32, 62].
struct Split {
  int64_t quotient;
  int64_t remainder;
};
Split SplitAt(__int128 v, int k) {
  const __int128 unit = __int128{1} << k;
  __int128 quotient = v / unit;
  if (v % unit < 0) quotient -= 1;
  return {static_cast<int64_t>(quotient), static_cast<int64_t>(v - quotient * unit)};
}

// An int16 plane pair's value at an entry.
int32_t PlaneValue(const uint8_t* low, const uint8_t* high, int at) {
  return static_cast<int16_t>(static_cast<uint16_t>(low[at] | (high[at] << 8)));
}

// The rank path in int8 lanes, 64 elements a vector op where it had 32. With
// offsets alpha and beta, self's X+ - alpha and X- - alpha are stored in
// [-127, 127] (the borrow then cannot wrap) and other's Y - beta in
// [-128, 127], so o - gamma (gamma = alpha - beta) is one saturating byte
// subtraction. Saturating changes nothing once clamped when gamma keeps
// act_min - gamma >= -128 and act_max - gamma <= 127: a saturated value lands
// on the same bound as the value itself. Nor does it change the sign's pick
// ("o+ > zp", with zp - gamma clamped to a byte) where it matters: o- and o+
// differ by at most 1, so where the saturated o+ reads differently both
// saturate to the same end. gamma can be any alpha - beta with alpha in
// [max X - 127, min X + 127] and beta in [max Y - 127, min Y + 128]. The
// parameters that leave no such gamma (outputs spanning more than about 255
// codes before the clamp) keep the int16 lanes.
void FillNarrowPath(const SubParams& p, InputTables& t) {
  t.narrow_path = false;
  int32_t min_x = INT32_MAX, max_x = INT32_MIN, min_y = INT32_MAX, max_y = INT32_MIN;
  for (int at = 0; at < 256; ++at) {
    for (const auto& planes : {std::make_pair(kPlusLow, kPlusHigh), std::make_pair(kMinusLow, kMinusHigh)}) {
      const int32_t x = PlaneValue(t.self_planes[planes.first], t.self_planes[planes.second], at);
      min_x = std::min(min_x, x);
      max_x = std::max(max_x, x);
    }
    const int32_t y = PlaneValue(t.other_planes[kLow], t.other_planes[kHigh], at);
    min_y = std::min(min_y, y);
    max_y = std::max(max_y, y);
  }
  const int32_t gamma_low = std::max(max_x - min_y - 255, p.act_max - 127);
  const int32_t gamma_high = std::min(min_x - max_y + 254, p.act_min + 128);
  if (max_x - min_x > 254 || max_y - min_y > 255 || gamma_low > gamma_high) return;
  const int32_t gamma = std::clamp(0, gamma_low, gamma_high);
  const int32_t beta = std::max(max_y - 127, max_x - 127 - gamma);
  const int32_t alpha = gamma + beta;
  for (int at = 0; at < 256; ++at) {
    const auto narrow = [](int32_t value) { return static_cast<uint8_t>(static_cast<int8_t>(value)); };
    t.narrow_self[0][at] = narrow(PlaneValue(t.self_planes[kPlusLow], t.self_planes[kPlusHigh], at) - alpha);
    t.narrow_self[1][at] = narrow(PlaneValue(t.self_planes[kMinusLow], t.self_planes[kMinusHigh], at) - alpha);
    t.narrow_self[2][at] = t.self_planes[kPlusRank][at];
    t.narrow_self[3][at] = t.self_planes[kMinusRank][at];
    t.narrow_other[0][at] = narrow(PlaneValue(t.other_planes[kLow], t.other_planes[kHigh], at) - beta);
    t.narrow_other[1][at] = t.other_planes[kRank][at];
  }
  t.narrow_offset = gamma;
  t.narrow_path = true;
}

void FillRankPath(const SubParams& p, InputTables& t) {
  t.rank_path = false;
  t.narrow_path = false;
  if (p.out.shift >= 0 || p.out.multiplier <= 0) return;
  for (int i = 0; i < 256; ++i) {
    if (std::abs(int64_t{t.self[i]}) >= (1 << 30) || std::abs(int64_t{t.other[i]}) >= (1 << 30)) return;
  }
  constexpr int64_t kLimit = int64_t{1} << 14;
  const int k = 31 - p.out.shift;
  const __int128 plus = static_cast<__int128>(p.out_zero_point) * (__int128{1} << k) +
                        (__int128{1} << (k - 1)) + (__int128{1} << 30);
  const __int128 minus = plus - (__int128{1} << 31);
  int64_t other_y[256];
  int64_t etas[256];
  for (int i = 0; i < 256; ++i) {
    const Split split = SplitAt(static_cast<__int128>(t.other[i]) * p.out.multiplier, k);
    if (std::abs(split.quotient) >= kLimit) return;
    other_y[i] = split.quotient;
    etas[i] = split.remainder;
  }
  int64_t distinct[256];
  std::copy(etas, etas + 256, distinct);
  std::sort(distinct, distinct + 256);
  const int64_t* const begin = distinct;
  const int64_t* const end = std::unique(distinct, distinct + 256);
  uint8_t self_bytes[6][256];
  uint8_t other_bytes[3][256];
  // An int16 as its two bytes (two's complement).
  const auto store = [](int64_t value, uint8_t* low, uint8_t* high, int at) {
    const auto bits = static_cast<uint16_t>(value);
    low[at] = static_cast<uint8_t>(bits & 0xFFu);
    high[at] = static_cast<uint8_t>(bits >> 8);
  };
  for (int i = 0; i < 256; ++i) {
    const int at = static_cast<uint8_t>(i - 128);  // the table's entry for the unsigned byte
    store(other_y[i], other_bytes[kLow], other_bytes[kHigh], at);
    other_bytes[kRank][at] = static_cast<uint8_t>(std::lower_bound(begin, end, etas[i]) - begin);
    const __int128 scaled = static_cast<__int128>(t.self[i]) * p.out.multiplier;
    for (const bool is_plus : {true, false}) {
      const Split split = SplitAt(scaled + (is_plus ? plus : minus), k);
      // At least 0: eta = 0 is always among them (b' = 0 where b is other's
      // zero point, which prepare keeps in [-128, 127]), and xi >= 0.
      const int rank = static_cast<int>(std::upper_bound(begin, end, split.remainder) - begin) - 1;
      if (rank < 0 || std::abs(split.quotient) >= kLimit) return;
      store(split.quotient, self_bytes[is_plus ? kPlusLow : kMinusLow],
            self_bytes[is_plus ? kPlusHigh : kMinusHigh], at);
      self_bytes[is_plus ? kPlusRank : kMinusRank][at] = static_cast<uint8_t>(rank);
    }
  }
  std::memcpy(t.self_planes, self_bytes, sizeof(self_bytes));
  std::memcpy(t.other_planes, other_bytes, sizeof(other_bytes));
  t.rank_path = true;
  FillNarrowPath(p, t);
}

// Two merge-masked permutes, no blend: the first writes the low half's
// entries and keeps the other lanes' indexes, which the second reads.
HWY_INLINE __m512i LookUpPlane(const uint8_t* table, __m512i index, __mmask64 high) {
  const __m512i low_done = _mm512_mask2_permutex2var_epi8(_mm512_load_si512(table), index, _knot_mask64(high),
                                                          _mm512_load_si512(table + 64));
  return _mm512_mask2_permutex2var_epi8(_mm512_load_si512(table + 128), low_done, high,
                                        _mm512_load_si512(table + 192));
}

// One operand's looked-up planes for 64 bytes (written out plane by plane:
// GCC keeps loops over arrays of vectors on the stack).
struct SelfBlock {
  __m512i plus_low, plus_high, minus_low, minus_high, plus_rank, minus_rank;
};
struct OtherBlock {
  __m512i low, high, rank;
};

HWY_INLINE SelfBlock LookUpSelf(const InputTables& t, __m512i bytes) {
  const __mmask64 high = _mm512_movepi8_mask(bytes);
  return {LookUpPlane(t.self_planes[kPlusLow], bytes, high),
          LookUpPlane(t.self_planes[kPlusHigh], bytes, high),
          LookUpPlane(t.self_planes[kMinusLow], bytes, high),
          LookUpPlane(t.self_planes[kMinusHigh], bytes, high),
          LookUpPlane(t.self_planes[kPlusRank], bytes, high),
          LookUpPlane(t.self_planes[kMinusRank], bytes, high)};
}

HWY_INLINE OtherBlock LookUpOther(const InputTables& t, __m512i bytes) {
  const __mmask64 high = _mm512_movepi8_mask(bytes);
  return {LookUpPlane(t.other_planes[kLow], bytes, high),
          LookUpPlane(t.other_planes[kHigh], bytes, high),
          LookUpPlane(t.other_planes[kRank], bytes, high)};
}

// X - borrow on X's two byte planes, then X - Y in int16 lanes, the low
// bytes' and the high bytes' halves (unpack order: each 128-bit block's
// bytes 0-7, then 8-15).
struct Words {
  __m512i low, high;
};
HWY_INLINE Words Difference(__m512i x_low, __m512i x_high, __mmask64 borrow, const OtherBlock& y) {
  const __m512i one = _mm512_set1_epi8(1);
  x_high = _mm512_mask_sub_epi8(x_high, borrow & _mm512_cmpeq_epi8_mask(x_low, _mm512_setzero_si512()),
                                x_high, one);
  x_low = _mm512_mask_sub_epi8(x_low, borrow, x_low, one);
  return {_mm512_sub_epi16(_mm512_unpacklo_epi8(x_low, x_high), _mm512_unpacklo_epi8(y.low, y.high)),
          _mm512_sub_epi16(_mm512_unpackhi_epi8(x_low, x_high), _mm512_unpackhi_epi8(y.low, y.high))};
}

// Whole blocks of 64 elements (n >= 64); returns how many were done.
size_t RankLookupSub(const SubParams& p, const InputTables& t, const int8_t* self,
                     const int8_t* other, int8_t* out, size_t n) {
  const __m512i zero_point = _mm512_set1_epi16(static_cast<int16_t>(p.out_zero_point));
  const __m512i low = _mm512_set1_epi8(static_cast<char>(p.act_min));
  const __m512i high = _mm512_set1_epi8(static_cast<char>(p.act_max));
  // A block of 64 bytes equal to the previous one (a channel broadcast's
  // repeated operand) reuses its looked-up planes.
  __m512i self_bytes = _mm512_loadu_si512(self);
  __m512i other_bytes = _mm512_loadu_si512(other);
  SelfBlock a = LookUpSelf(t, self_bytes);
  OtherBlock b = LookUpOther(t, other_bytes);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i self_next = _mm512_loadu_si512(self + i);
    if (_mm512_cmpneq_epi8_mask(self_next, self_bytes) != 0) {
      self_bytes = self_next;
      a = LookUpSelf(t, self_bytes);
    }
    const __m512i other_next = _mm512_loadu_si512(other + i);
    if (_mm512_cmpneq_epi8_mask(other_next, other_bytes) != 0) {
      other_bytes = other_next;
      b = LookUpOther(t, other_bytes);
    }
    const Words plus = Difference(a.plus_low, a.plus_high, _mm512_cmplt_epu8_mask(a.plus_rank, b.rank), b);
    const Words minus =
        Difference(a.minus_low, a.minus_high, _mm512_cmplt_epu8_mask(a.minus_rank, b.rank), b);
    const __m512i result_low =
        _mm512_mask_blend_epi16(_mm512_cmpgt_epi16_mask(plus.low, zero_point), minus.low, plus.low);
    const __m512i result_high =
        _mm512_mask_blend_epi16(_mm512_cmpgt_epi16_mask(plus.high, zero_point), minus.high, plus.high);
    // Saturating int16 -> int8 (restoring the byte order), then the bounds.
    const __m512i result = _mm512_packs_epi16(result_low, result_high);
    _mm512_storeu_si512(out + i, _mm512_min_epi8(_mm512_max_epi8(result, low), high));
  }
  return i;
}

// A 256-entry byte table held in four registers.
struct RegisterTable {
  explicit RegisterTable(const uint8_t* table)
      : q0(_mm512_load_si512(table)), q1(_mm512_load_si512(table + 64)),
        q2(_mm512_load_si512(table + 128)), q3(_mm512_load_si512(table + 192)) {}
  // As LookUpPlane.
  HWY_INLINE __m512i operator()(__m512i index, __mmask64 high) const {
    const __m512i low_done = _mm512_mask2_permutex2var_epi8(q0, index, _knot_mask64(high), q1);
    return _mm512_mask2_permutex2var_epi8(q2, low_done, high, q3);
  }
  __m512i q0, q1, q2, q3;
};

// RankLookupSub in int8 lanes (FillNarrowPath): 6 byte-plane lookups, two
// borrows, two saturating subtractions, the sign's pick and (unless kPlain)
// the bounds per 64 elements. An operand whose blocks repeat (kReuse...)
// looks up only a block that differs from the one before.
template <bool kReuseSelf, bool kReuseOther, bool kPlain>
size_t NarrowLookupSubBlocks(const SubParams& p, const InputTables& t, const int8_t* self,
                             const int8_t* other, int8_t* out, size_t n) {
  const int32_t gamma = t.narrow_offset;
  const __m512i zero_point = _mm512_set1_epi8(static_cast<char>(std::clamp(p.out_zero_point - gamma, -128, 127)));
  const __m512i low = _mm512_set1_epi8(static_cast<char>(p.act_min - gamma));
  const __m512i high = _mm512_set1_epi8(static_cast<char>(p.act_max - gamma));
  const __m512i offset = _mm512_set1_epi8(static_cast<char>(gamma));
  const __m512i one = _mm512_set1_epi8(1);
  const RegisterTable s0(t.narrow_self[0]), s1(t.narrow_self[1]), s2(t.narrow_self[2]), s3(t.narrow_self[3]);
  const RegisterTable o0(t.narrow_other[0]), o1(t.narrow_other[1]);
  const auto look_up_self = [&](__m512i bytes, __m512i planes[4]) {
    const __mmask64 high_half = _mm512_movepi8_mask(bytes);
    planes[0] = s0(bytes, high_half);
    planes[1] = s1(bytes, high_half);
    planes[2] = s2(bytes, high_half);
    planes[3] = s3(bytes, high_half);
  };
  __m512i self_bytes = _mm512_loadu_si512(self);
  __m512i other_bytes = _mm512_loadu_si512(other);
  __m512i a[4];
  look_up_self(self_bytes, a);
  __mmask64 other_high = _mm512_movepi8_mask(other_bytes);
  __m512i y = o0(other_bytes, other_high);
  __m512i y_rank = o1(other_bytes, other_high);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i self_next = _mm512_loadu_si512(self + i);
    if (!kReuseSelf || _mm512_cmpneq_epi8_mask(self_next, self_bytes) != 0) {
      self_bytes = self_next;
      look_up_self(self_bytes, a);
    }
    const __m512i other_next = _mm512_loadu_si512(other + i);
    if (!kReuseOther || _mm512_cmpneq_epi8_mask(other_next, other_bytes) != 0) {
      other_bytes = other_next;
      other_high = _mm512_movepi8_mask(other_bytes);
      y = o0(other_bytes, other_high);
      y_rank = o1(other_bytes, other_high);
    }
    const __m512i x_plus = _mm512_mask_sub_epi8(a[0], _mm512_cmplt_epu8_mask(a[2], y_rank), a[0], one);
    const __m512i x_minus = _mm512_mask_sub_epi8(a[1], _mm512_cmplt_epu8_mask(a[3], y_rank), a[1], one);
    const __m512i plus = _mm512_subs_epi8(x_plus, y);
    const __m512i minus = _mm512_subs_epi8(x_minus, y);
    const __m512i result = _mm512_mask_blend_epi8(_mm512_cmpgt_epi8_mask(plus, zero_point), minus, plus);
    if (kPlain) {
      _mm512_storeu_si512(out + i, result);  // saturating was the clamp
    } else {
      _mm512_storeu_si512(out + i, _mm512_add_epi8(_mm512_min_epi8(_mm512_max_epi8(result, low), high), offset));
    }
  }
  return i;
}

// Checking each block for a repeat costs about 6% where nothing repeats, so
// an operand is checked only if its second block repeats its first (a channel
// broadcast's small operand, C dividing 64).
template <bool kPlain>
size_t NarrowLookupSubRepeats(const SubParams& p, const InputTables& t, const int8_t* self,
                              const int8_t* other, int8_t* out, size_t n) {
  const bool self_repeats = n >= 128 && std::memcmp(self, self + 64, 64) == 0;
  const bool other_repeats = n >= 128 && std::memcmp(other, other + 64, 64) == 0;
  if (self_repeats) {
    return other_repeats ? NarrowLookupSubBlocks<true, true, kPlain>(p, t, self, other, out, n)
                         : NarrowLookupSubBlocks<true, false, kPlain>(p, t, self, other, out, n);
  }
  return other_repeats ? NarrowLookupSubBlocks<false, true, kPlain>(p, t, self, other, out, n)
                       : NarrowLookupSubBlocks<false, false, kPlain>(p, t, self, other, out, n);
}

// With no offset and the whole int8 range allowed (the exporter's bounds), the
// saturating subtraction is the clamp: the registers of the bounds and the
// offset then hold tables.
size_t NarrowLookupSub(const SubParams& p, const InputTables& t, const int8_t* self,
                       const int8_t* other, int8_t* out, size_t n) {
  const bool plain = t.narrow_offset == 0 && p.act_min == -128 && p.act_max == 127;
  return plain ? NarrowLookupSubRepeats<true>(p, t, self, other, out, n)
               : NarrowLookupSubRepeats<false>(p, t, self, other, out, n);
}
#endif  // HWY_TARGET == HWY_AVX3_DL

// One int32 lane per element, both inputs' requantisations gathered from
// their tables, from element i while a whole vector is left; returns where it
// stopped.
size_t GatherSub(const SubParams& p, const InputTables& tables, const int8_t* self, const int8_t* other, int8_t* out,
                 size_t i, size_t n) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<int8_t, decltype(d)> d8;
  const size_t lanes = hn::Lanes(d);
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
  return i;
}

// Every output for one parameter set as a 65,536-entry byte table,
// [other byte][self byte] (raw bytes), filled by GatherSub itself, so it is
// exact by construction; an element is then one load and no arithmetic (the
// gathers and the 64-bit products of GatherSub took most of its time). Kept
// per thread for a few parameter sets, and made once the elements computed
// with a set reach the table's size, when making it has cost no more than
// they did: a program calls sub with the same parameters every run (or, for a
// channel broadcast, every chunk), and one short call never pays for it.
constexpr size_t kPairEntries = 256 * 256;
constexpr size_t kPairTables = 4;

struct PairTable {
  bool used = false;
  bool made = false;
  size_t elements = 0;  // computed with these parameters so far
  SubParams params;
  std::unique_ptr<int8_t[]> values;
};

bool SameOutputs(const SubParams& a, const SubParams& b) {
  return SameParams(a, b) && a.act_min == b.act_min && a.act_max == b.act_max;
}

// The table for p, or nullptr while it is not worth making.
const int8_t* PairTableFor(const SubParams& p, const InputTables& tables, size_t n) {
  static thread_local PairTable cache[kPairTables];
  static thread_local size_t next_victim = 0;
  PairTable* entry = nullptr;
  for (PairTable& each : cache) {
    if (each.used && SameOutputs(each.params, p)) entry = &each;
  }
  if (entry == nullptr) {
    entry = &cache[next_victim];
    next_victim = (next_victim + 1) % kPairTables;
    entry->used = true;
    entry->made = false;
    entry->elements = 0;
    entry->params = p;
  }
  if (!entry->made) {
    entry->elements += n;
    if (entry->elements < kPairEntries) return nullptr;
    if (!entry->values) entry->values.reset(new int8_t[kPairEntries]);
    HWY_ALIGN int8_t rows[256];
    HWY_ALIGN int8_t columns[256];
    for (int j = 0; j < 256; ++j) columns[j] = static_cast<int8_t>(static_cast<uint8_t>(j));
    // Row o holds other = o against every self byte.
    for (int o = 0; o < 256; ++o) {
      std::fill_n(rows, 256, static_cast<int8_t>(static_cast<uint8_t>(o)));
      int8_t* row = entry->values.get() + static_cast<size_t>(o) * 256;
      const size_t done = GatherSub(p, tables, columns, rows, row, 0, 256);
      if (done < 256) sub_s8_ref(p, columns + done, rows + done, row + done, 256 - done);
    }
    entry->made = true;
  }
  return entry->values.get();
}

// out[i] = table[other[i]][self[i]] from element i, four at a time; returns
// where it stopped. Plain loads: the table is larger than L1, and a vector
// gather was no faster than four loads. A channel broadcast's other operand
// has a few values, so its elements read a few rows, which stay in L1.
size_t PairLookupSub(const int8_t* table, const int8_t* self, const int8_t* other, int8_t* out, size_t i, size_t n) {
  const auto* s = reinterpret_cast<const uint8_t*>(self);
  const auto* o = reinterpret_cast<const uint8_t*>(other);
  const auto entry = [&](size_t k) { return table[size_t{o[k]} << 8 | s[k]]; };
  for (; i + 4 <= n; i += 4) {
    const int8_t v0 = entry(i), v1 = entry(i + 1), v2 = entry(i + 2), v3 = entry(i + 3);
    out[i] = v0;
    out[i + 1] = v1;
    out[i + 2] = v2;
    out[i + 3] = v3;
  }
  return i;
}

// The tail (fewer than a vector) runs the reference, so no load or store goes
// past n.
void SubS8(const SubParams& p, const int8_t* self, const int8_t* other, int8_t* out, size_t n) {
  const hn::ScalableTag<int32_t> d;
  static thread_local InputTables tables;
  if (!tables.valid || !SameParams(tables.params, p)) {
    FillTable(d, p.self, p.self_zero_point, tables.self);
    FillTable(d, p.other, p.other_zero_point, tables.other);
    tables.params = p;
    tables.valid = true;
#if HWY_TARGET == HWY_AVX3_DL
    FillRankPath(p, tables);
#endif
  }
  size_t i = 0;
#if HWY_TARGET == HWY_AVX3_DL
  if (tables.narrow_path && n >= 64) {
    i = NarrowLookupSub(p, tables, self, other, out, n);
  } else if (tables.rank_path && n >= 64) {
    i = RankLookupSub(p, tables, self, other, out, n);
  }
#endif
  if (i == 0 && n >= hn::Lanes(d)) {  // not the tail of a path above
    const int8_t* pairs = PairTableFor(p, tables, n);
    i = pairs != nullptr ? PairLookupSub(pairs, self, other, out, i, n) : GatherSub(p, tables, self, other, out, i, n);
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
