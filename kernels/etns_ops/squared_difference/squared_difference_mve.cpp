#include "kernels/etns_ops/squared_difference/squared_difference.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>

#include "kernels/common/requantize.h"
#include "kernels/common/requantize_mve.h"

namespace etns::etns_ops {
namespace {

using kernels::mve::LaneRequant;
using kernels::mve::Shift;

// One operand's constants: its offset (-zero point) and factor.
struct Input {
  int32_t offset;
  LaneRequant q;
};

// RQ((x + offset) * 2^7) for four codes; the input shifts are 0 or negative
// (prepare), and kShift says which.
template <Shift kShift>
inline __attribute__((always_inline)) int32x4_t scaled_lanes(int32x4_t x, const Input& in) {
  const int32x4_t shifted = vshlq_n_s32(vaddq_n_s32(x, in.offset), kSquaredDifferenceLeftShift);
  return kernels::mve::requantize_lanes<kShift>(shifted, in.q);
}

// The square of the difference requantised onto out's grid and stored.
template <Shift kOutShift>
inline __attribute__((always_inline)) void store_lanes(int32x4_t d, const LaneRequant& q, int32_t zero_point,
                                                       int8_t* out, mve_pred16_t lanes) {
  const int32x4_t square = vmulq_s32(d, d);
  const int32x4_t y = kernels::mve::offset_clamp_lanes(kernels::mve::requantize_lanes<kOutShift>(square, q),
                                                       zero_point, -128, 127);
  vstrbq_p_s32(out, y, lanes);
}

// A row against one repeated operand whose scaled value is s: the square
// is the same for either sign of the difference.
template <Shift kRowShift, Shift kOutShift>
inline __attribute__((always_inline)) void repeated_row(const int8_t* row, const Input& in, int32_t s,
                                                        const LaneRequant& q, int32_t zero_point, int8_t* out,
                                                        int32_t n) {
  for (int32_t l = 0; l < n; l += 4) {
    const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(n - l));
    const int32x4_t d = scaled_lanes<kRowShift>(vldrbq_z_s32(row + l, lanes), in);
    store_lanes<kOutShift>(vsubq_n_s32(d, s), q, zero_point, out + l, lanes);
  }
}

// The walk with each innermost row vectorised: both operands contiguous, or
// one repeated (its scaled value computed once, as the reference computes it).
template <Shift kSelfShift, Shift kOtherShift, Shift kOutShift>
void walk(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  const Input a{p.self_offset, LaneRequant({p.self_multiplier, p.self_shift})};
  const Input b{p.other_offset, LaneRequant({p.other_multiplier, p.other_shift})};
  const LaneRequant q({p.out_multiplier, p.out_shift});
  constexpr int32_t kHeadroom = int32_t{1} << kSquaredDifferenceLeftShift;
  const int32_t n = p.dims[3];
  const bool self_row = p.self_strides[3] == 1, other_row = p.other_strides[3] == 1;
  for (int32_t i = 0; i < p.dims[0]; ++i) {
    for (int32_t j = 0; j < p.dims[1]; ++j) {
      for (int32_t k = 0; k < p.dims[2]; ++k) {
        const int8_t* x = self + i * p.self_strides[0] + j * p.self_strides[1] + k * p.self_strides[2];
        const int8_t* y = other + i * p.other_strides[0] + j * p.other_strides[1] + k * p.other_strides[2];
        if (self_row && other_row) {
          for (int32_t l = 0; l < n; l += 4) {
            const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(n - l));
            const int32x4_t da = scaled_lanes<kSelfShift>(vldrbq_z_s32(x + l, lanes), a);
            const int32x4_t db = scaled_lanes<kOtherShift>(vldrbq_z_s32(y + l, lanes), b);
            store_lanes<kOutShift>(vsubq_s32(da, db), q, p.out_zero_point, out + l, lanes);
          }
        } else if (self_row || other_row) {
          const int32_t s = self_row ? kernels::requantize((*y + p.other_offset) * kHeadroom,
                                                           {p.other_multiplier, p.other_shift})
                                     : kernels::requantize((*x + p.self_offset) * kHeadroom,
                                                           {p.self_multiplier, p.self_shift});
          if (self_row) {
            repeated_row<kSelfShift, kOutShift>(x, a, s, q, p.out_zero_point, out, n);
          } else {
            repeated_row<kOtherShift, kOutShift>(y, b, s, q, p.out_zero_point, out, n);
          }
        } else {
          // Both repeated along the row (a one-element out): the reference's element.
          const int8_t v = squared_difference_element(p, *x, *y);
          for (int32_t l = 0; l < n; ++l) out[l] = v;
        }
        out += n;
      }
    }
  }
}

}  // namespace

// The same bytes as squared_difference_s8_ref (its formula), four lanes at a
// time; each requantisation specialised to its shift's sign.
void squared_difference_s8_mve(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other,
                               int8_t* out) {
  const bool self_none = p.self_shift == 0, other_none = p.other_shift == 0;
  if (p.out_shift < 0) {
    if (self_none && other_none) {
      walk<Shift::None, Shift::None, Shift::Right>(p, self, other, out);
    } else if (self_none) {
      walk<Shift::None, Shift::Right, Shift::Right>(p, self, other, out);
    } else if (other_none) {
      walk<Shift::Right, Shift::None, Shift::Right>(p, self, other, out);
    } else {
      walk<Shift::Right, Shift::Right, Shift::Right>(p, self, other, out);
    }
  } else if (self_none && other_none) {
    walk<Shift::None, Shift::None, Shift::Left>(p, self, other, out);
  } else if (self_none) {
    walk<Shift::None, Shift::Right, Shift::Left>(p, self, other, out);
  } else if (other_none) {
    walk<Shift::Right, Shift::None, Shift::Left>(p, self, other, out);
  } else {
    walk<Shift::Right, Shift::Right, Shift::Left>(p, self, other, out);
  }
}

}  // namespace etns::etns_ops
#endif  // ETNS_HAVE_MVE
