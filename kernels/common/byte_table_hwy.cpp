#include "kernels/common/byte_table.h"

#include <algorithm>
#include <cstring>

// Host SIMD (Highway): compiled once per target by foreach_target.h, the
// target chosen at run time (HWY_DYNAMIC_DISPATCH).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/common/byte_table_hwy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX3_DL
// Below this many codes, finding the window costs more than it saves.
constexpr size_t kWindowMinLength = 256;

// The codes [low, high] outside which the table is constant on each side,
// and the power of two (64, 128 or 256) that holds high - low + 1.
struct Window {
  int8_t low;
  int8_t high;
  int width;
};

// The codes in signed order are raw bytes 128..255, then 0..127; a run of
// entries equal to the first (last) one is counted by the trailing (leading)
// ones of the 256 compare bits in that order.
Window FindWindow(const ByteTable& table) {
  const auto* values = reinterpret_cast<const uint8_t*>(table.values);
  const __m512i signed_order[4] = {_mm512_loadu_si512(values + 128), _mm512_loadu_si512(values + 192),
                                   _mm512_loadu_si512(values), _mm512_loadu_si512(values + 64)};
  const __m512i first = _mm512_set1_epi8(static_cast<char>(values[128]));
  const __m512i last = _mm512_set1_epi8(static_cast<char>(values[127]));
  int first_run = 0;
  for (int k = 0; k < 4; ++k) {
    const uint64_t differ = ~static_cast<uint64_t>(_mm512_cmpeq_epi8_mask(signed_order[k], first));
    if (differ != 0) {
      first_run += __builtin_ctzll(differ);
      break;
    }
    first_run += 64;
  }
  int last_run = 0;
  for (int k = 3; k >= 0; --k) {
    const uint64_t differ = ~static_cast<uint64_t>(_mm512_cmpeq_epi8_mask(signed_order[k], last));
    if (differ != 0) {
      last_run += __builtin_clzll(differ);
      break;
    }
    last_run += 64;
  }
  const int low = -128 + first_run - 1;
  // Runs that overlap cover a constant table: one code is window enough.
  const int high = first_run + last_run > 256 ? low : 128 - last_run;
  const int span = high - low + 1;
  return {static_cast<int8_t>(low), static_cast<int8_t>(high), span <= 64 ? 64 : span <= 128 ? 128 : 256};
}
#endif

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_AVX3_DL
// The codes [low, high] outside which the table is constant on each side, as
// FindWindow finds them, by a scan from each end.
struct ScannedWindow {
  int low;
  int high;
};

ScannedWindow ScanWindow(const ByteTable& table) {
  const auto at = [&table](int code) { return table.values[static_cast<uint8_t>(code)]; };
  int low = -128;
  while (low < 127 && at(low + 1) == at(-128)) ++low;
  int high = 127;
  while (high > low && at(high - 1) == at(127)) --high;
  return {low, high};
}

// The last table's window, per thread: a program looks the same table up
// every run, and comparing 256 bytes costs less than the scan.
ScannedWindow WindowOf(const ByteTable& table) {
  struct Cached {
    bool valid = false;
    ByteTable table;
    ScannedWindow window;
  };
  static thread_local Cached cached;
  if (!cached.valid || std::memcmp(cached.table.values, table.values, sizeof(table.values)) != 0) {
    cached.table = table;
    cached.window = ScanWindow(table);
    cached.valid = true;
  }
  return cached.window;
}

// Codes clamped into a window of at most 16 * kChunks codes and offset to
// its start (0 to width - 1), then the XOR-chained shuffles of LookupS8 over
// the window's entries only: kChunks of them where the whole table takes 16.
// Whole vectors from element i; returns where it stopped.
template <int kChunks>
size_t WindowLookup(const ByteTable& table, ScannedWindow w, const int8_t* in, int8_t* out, size_t i, size_t n) {
  const hn::ScalableTag<int8_t> d;
  const size_t lanes = hn::Lanes(d);
  HWY_ALIGN int8_t entries[16 * kChunks];
  for (int j = 0; j < 16 * kChunks; ++j) {
    entries[j] = table.values[static_cast<uint8_t>(std::min(w.low + j, w.high))];  // past the window: never read
  }
  hn::Vec<decltype(d)> chunks[kChunks];
  for (int k = 0; k < kChunks; ++k) {
    chunks[k] = hn::LoadDup128(d, entries + 16 * k);
    if (k > 0) chunks[k] = hn::Xor(chunks[k], hn::LoadDup128(d, entries + 16 * (k - 1)));
  }
  const auto low = hn::Set(d, static_cast<int8_t>(w.low));
  const auto high = hn::Set(d, static_cast<int8_t>(w.high));
  const auto step = hn::Set(d, int8_t{16});
  for (; i + lanes <= n; i += lanes) {
    auto index = hn::Sub(hn::Min(hn::Max(hn::LoadU(d, in + i), low), high), low);
    auto looked_up = hn::TableLookupBytes(chunks[0], index);
    for (int k = 1; k < kChunks; ++k) {
      index = hn::SaturatedSub(index, step);
      looked_up = hn::Xor(looked_up, hn::TableLookupBytes(chunks[k], index));
    }
    hn::StoreU(looked_up, d, out + i);
  }
  return i;
}
#endif

#if HWY_TARGET == HWY_AVX3_DL
// VBMI: one two-source byte permute looks a byte up in 128 entries, so two
// of them cover the table, and the index's top bit picks between them: the
// first, merge-masked, writes the codes of the low half and keeps the other
// lanes' indexes, which the second reads (no blend).
HWY_INLINE void LookupS8Vbmi(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
  const auto* values = reinterpret_cast<const uint8_t*>(table.values);
  const auto* src = reinterpret_cast<const uint8_t*>(in);
  auto* dst = reinterpret_cast<uint8_t*>(out);
  const __m512i low0 = _mm512_loadu_si512(values);
  const __m512i low1 = _mm512_loadu_si512(values + 64);
  const __m512i high0 = _mm512_loadu_si512(values + 128);
  const __m512i high1 = _mm512_loadu_si512(values + 192);
  const auto look_up_vector = [&](__m512i index) HWY_ATTR {
    const __mmask64 high = _mm512_movepi8_mask(index);
    const __m512i low_done = _mm512_mask2_permutex2var_epi8(low0, index, _knot_mask64(high), low1);
    return _mm512_mask2_permutex2var_epi8(high0, low_done, high, high1);
  };
  size_t i = 0;
  if (n >= kWindowMinLength) {
    // Tables constant below some code and above another (relu and clamps
    // after a requantisation): the codes clamped to the window between, which
    // changes no output, then one permute of a window of at most 64 entries
    // (or 128), each code at position code mod 64 (128): its low bits, which
    // the permutes read, differ for every code in a window that narrow.
    const Window w = FindWindow(table);
    const __m512i lo = _mm512_set1_epi8(w.low);
    const __m512i hi = _mm512_set1_epi8(w.high);
    const auto window_entries = [&](int offset) HWY_ATTR {
      // Position j holds code low + ((offset + j - low) mod width), in bytes'
      // wrapping arithmetic, which width (a power of two) divides.
      const __m512i position = _mm512_add_epi8(
          _mm512_set_epi64(0x3f3e3d3c3b3a3938, 0x3736353433323130, 0x2f2e2d2c2b2a2928, 0x2726252423222120,
                           0x1f1e1d1c1b1a1918, 0x1716151413121110, 0x0f0e0d0c0b0a0908, 0x0706050403020100),
          _mm512_set1_epi8(static_cast<char>(offset - w.low)));
      const __m512i codes = _mm512_add_epi8(_mm512_and_si512(position, _mm512_set1_epi8(static_cast<char>(w.width - 1))), lo);
      return look_up_vector(codes);
    };
    if (w.width <= 64) {
      const __m512i entries = window_entries(0);
      for (; i + 64 <= n; i += 64) {
        const __m512i code = _mm512_min_epi8(_mm512_max_epi8(_mm512_loadu_si512(src + i), lo), hi);
        _mm512_storeu_si512(dst + i, _mm512_permutexvar_epi8(code, entries));
      }
    } else if (w.width <= 128) {
      const __m512i entries0 = window_entries(0);
      const __m512i entries1 = window_entries(64);
      for (; i + 64 <= n; i += 64) {
        const __m512i code = _mm512_min_epi8(_mm512_max_epi8(_mm512_loadu_si512(src + i), lo), hi);
        _mm512_storeu_si512(dst + i, _mm512_permutex2var_epi8(entries0, code, entries1));
      }
    }
  }
  // Two vectors a step: the permutes of one overlap the other's.
  for (; i + 128 <= n; i += 128) {
    _mm512_storeu_si512(dst + i, look_up_vector(_mm512_loadu_si512(src + i)));
    _mm512_storeu_si512(dst + i + 64, look_up_vector(_mm512_loadu_si512(src + i + 64)));
  }
  for (; i + 64 <= n; i += 64) _mm512_storeu_si512(dst + i, look_up_vector(_mm512_loadu_si512(src + i)));
  // The tail (fewer than 64): no load or store past n.
  if (i < n) lookup_s8(table, in + i, out + i, n - i);
}
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// x86 byte shuffles (pshufb) read an index's low 4 bits and give 0 for its
// top bit. With a[k] = code - 16k saturating (signed), a code c in
// [16m, 16m + 16) of the table's first half (raw 0..127) has a[k] in
// [0, 127] with low bits c & 15 for k <= m, and negative (0 looked up)
// for k > m and for every code of the other half, whose saturation keeps
// them negative. So if chunk k's entry is table[k] ^ table[k - 1], the XOR
// of the 8 lookups is table[m][c & 15]. The second half is looked up the
// same way with the code's top bit flipped. 3 operations a chunk, where
// the wrapping index below takes 5.
HWY_INLINE void LookupS8Pshufb(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
  const hn::ScalableTag<int8_t> d;
  const size_t lanes = hn::Lanes(d);
  const int8_t* values = table.values;
  hn::Vec<decltype(d)> first[8], second[8];
  for (size_t k = 0; k < 8; ++k) {
    first[k] = hn::LoadDup128(d, values + 16 * k);
    second[k] = hn::LoadDup128(d, values + 128 + 16 * k);
    if (k > 0) {
      first[k] = hn::Xor(first[k], hn::LoadDup128(d, values + 16 * (k - 1)));
      second[k] = hn::Xor(second[k], hn::LoadDup128(d, values + 128 + 16 * (k - 1)));
    }
  }
  const auto step = hn::Set(d, int8_t{16});
  const auto flip = hn::Set(d, int8_t{-128});
  const auto look_up = [&](hn::Vec<decltype(d)> code) HWY_ATTR {
    auto a = code;
    auto b = hn::Xor(code, flip);
    auto looked_up = hn::Xor(hn::TableLookupBytes(first[0], a), hn::TableLookupBytes(second[0], b));
    for (size_t k = 1; k < 8; ++k) {
      a = hn::SaturatedSub(a, step);
      b = hn::SaturatedSub(b, step);
      looked_up = hn::Xor(looked_up, hn::Xor(hn::TableLookupBytes(first[k], a), hn::TableLookupBytes(second[k], b)));
    }
    return looked_up;
  };
  size_t i = 0;
  if (n >= 256) {
    // As on AVX3_DL: a table constant outside a window of at most 128 codes
    // (relu and its clamps after a requantisation) needs only the window's
    // chunks, the codes clamped into it first (which changes no output).
    const ScannedWindow w = WindowOf(table);
    switch ((w.high - w.low + 16) / 16) {  // chunks the window's width takes
      case 1: i = WindowLookup<1>(table, w, in, out, i, n); break;
      case 2: i = WindowLookup<2>(table, w, in, out, i, n); break;
      case 3: i = WindowLookup<3>(table, w, in, out, i, n); break;
      case 4: i = WindowLookup<4>(table, w, in, out, i, n); break;
      case 5: i = WindowLookup<5>(table, w, in, out, i, n); break;
      case 6: i = WindowLookup<6>(table, w, in, out, i, n); break;
      case 7: i = WindowLookup<7>(table, w, in, out, i, n); break;
      case 8: i = WindowLookup<8>(table, w, in, out, i, n); break;
      default: break;
    }
  }
  // Two vectors a step: each chunk, reloaded where registers run out, serves both.
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    const auto one = look_up(hn::LoadU(d, in + i));
    const auto two = look_up(hn::LoadU(d, in + i + lanes));
    hn::StoreU(one, d, out + i);
    hn::StoreU(two, d, out + i + lanes);
  }
  for (; i + lanes <= n; i += lanes) hn::StoreU(look_up(hn::LoadU(d, in + i)), d, out + i);
  // The tail (fewer than a vector): no load or store past n.
  if (i < n) lookup_s8(table, in + i, out + i, n - i);
}
#elif HWY_TARGET != HWY_SCALAR
// Byte shuffles look up 16 entries at a time, so the table is 16 chunks of
// 16 bytes: for chunk k, j = code - 16k wraps to [0, 15] only for the codes
// it holds. Adding 0x70 with saturation takes those to [0x70, 0x7f] and
// every other j to 0x80 or more; masking with 0x8f then leaves a hit's low
// nibble and a miss's top bit, for which TableLookupBytesOr0 gives 0 (on
// every target: only indices below 16 or with the top bit are defined).
// ORing the 16 lookups leaves the one hit.
HWY_INLINE void LookupS8Shuffles(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
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
}
#endif

// table.values[in[i]] for i < n, by the target's widest byte lookups.
void LookupS8(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: no shuffle to use (GCC before 12.3 falls back to this target).
  lookup_s8(table, in, out, n);
#elif HWY_TARGET == HWY_AVX3_DL
  LookupS8Vbmi(table, in, out, n);
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  LookupS8Pshufb(table, in, out, n);
#else
  LookupS8Shuffles(table, in, out, n);
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
