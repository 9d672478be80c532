#include "kernels/cortex_m_ns/sub/sub.h"

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
};

bool SameParams(const SubParams& a, const SubParams& b) {
  return a.self_zero_point == b.self_zero_point && a.other_zero_point == b.other_zero_point &&
         a.self.multiplier == b.self.multiplier && a.self.shift == b.self.shift &&
         a.other.multiplier == b.other.multiplier && a.other.shift == b.other.shift;
}

template <class D>
void FillTable(D d, kernels::Requant factor, int32_t zero_point, int32_t* table) {
  const LaneRequant<D> rq(d, factor);
  for (size_t i = 0; i < 256; i += hn::Lanes(d)) {
    const auto q = hn::Sub(hn::Iota(d, static_cast<int32_t>(i) - 128), hn::Set(d, zero_point));
    hn::Store(rq(d, WrappingShiftLeft(d, q, kSubLeftShift)), d, table + i);
  }
}

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
  }
  const LaneRequant<decltype(d)> out_rq(d, p.out);
  const auto out_zero_point = hn::Set(d, p.out_zero_point);
  // clamp(y + zp, min, max) as clamp(y, min - zp, max - zp) + zp: exact, and
  // no int32 overflow for y near the ends.
  const auto low = hn::Set(d, p.act_min - p.out_zero_point);
  const auto high = hn::Set(d, p.act_max - p.out_zero_point);
  const auto int32_max = hn::Set(d, INT32_MAX);
  const auto index_offset = hn::Set(d, 128);
  size_t i = 0;
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
