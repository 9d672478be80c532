#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/clamp_s8.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"

namespace etns::portable {

// The elementwise loops of the portable operators that carry time in the
// Tier-1 arm programs (float32, and clamp's int8), as variant lists: the scalar reference (upstream's
// portable arithmetic, any NaN written as the one quiet NaN 0x7FC00000,
// canonical_nan.h) and a host SIMD variant computing the same IEEE operations
// lane by lane, so the same bits.

// aten::leaky_relu.out: x >= 0 ? x : x * slope.
using LeakyReluRowFn = void (*)(const float* in, float* out, size_t n, float slope);
void leaky_relu_row_ref(const float* in, float* out, size_t n, float slope);

// aten::clamp.out: max then min with upstream's NaN-propagating max/min
// (a NaN value or bound wins; ties keep the value, so -0.0 stays -0.0).
using ClampRowFn = void (*)(const float* in, float* out, size_t n, float lo, float hi);
void clamp_row_ref(const float* in, float* out, size_t n, float lo, float hi);
float max_propagating_nan(float v, float bound);
// Its int8 form (int8 tensors, int8 bounds): the bounds as max then min.
using ClampRowS8Fn = void (*)(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi);
void clamp_row_s8_ref(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi);
float min_propagating_nan(float v, float bound);

// aten::sub.out's innermost row: out[i] = a[i * a_step] - alpha * b[i * b_step],
// the product rounded before the subtraction (no fused multiply-add).
using SubRowFn = void (*)(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n,
                          float alpha);
void sub_row_ref(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n, float alpha);

#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time). clamp takes NaN bounds, and
// sub steps other than 0 and 1, to the reference.
void leaky_relu_row_hwy(const float* in, float* out, size_t n, float slope);
void clamp_row_hwy(const float* in, float* out, size_t n, float lo, float hi);
void sub_row_hwy(const float* a, size_t a_step, const float* b, size_t b_step, float* out, size_t n, float alpha);
#endif

}  // namespace etns::portable

// From the reference to the fastest; the operators run the last
// (kernels::fastest), and the variant tests check the others against the first.
namespace etns::kernels {

inline constexpr Variant<portable::LeakyReluRowFn> kLeakyReluRowVariants[] = {
    {"ref", &portable::leaky_relu_row_ref},
    ETNS_HWY_VARIANT(&portable::leaky_relu_row_hwy)
};
inline constexpr Variant<portable::ClampRowFn> kClampRowVariants[] = {
    {"ref", &portable::clamp_row_ref},
    ETNS_HWY_VARIANT(&portable::clamp_row_hwy)
};
inline constexpr Variant<portable::ClampRowS8Fn> kClampRowS8Variants[] = {
    {"ref", &portable::clamp_row_s8_ref},
    ETNS_HWY_VARIANT(&kernels::clamp_s8_hwy)
};
inline constexpr Variant<portable::SubRowFn> kSubRowVariants[] = {
    {"ref", &portable::sub_row_ref},
    ETNS_HWY_VARIANT(&portable::sub_row_hwy)
};

}  // namespace etns::kernels
