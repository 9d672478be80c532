#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::cortex_m {

// cortex_m::quantize_per_tensor.out: float32 to int8 or int16 (operators.md §2.1).
// Numerics (docs/numerics.md#quantize), the same on every target: with
// inv_scale = 1.0f / (float)scale,
//   q = clamp(zero_point + nearbyint(inv_scale * x), quant_min, quant_max)
// where the product is one float32 multiply and nearbyint rounds half to even
// (upstream's scalar C path). The sum saturates, never wraps (upstream's Helium
// path wraps beyond int16 and rounds the exact product once; we do not follow
// it); +-Inf saturate and NaN gives zero_point.
struct QuantizeParams {
  float inv_scale = 1.0f;
  int32_t zero_point = 0;
  int32_t quant_min = -128;
  int32_t quant_max = 127;
  runtime::ScalarType out_dtype = runtime::ScalarType::Char;  // Char or Short; run picks by it
};
ETNS_TARGET_LAYOUT(QuantizeParams, runtime::StructLayout()
                                       .member(runtime::fixed<float>())
                                       .member(runtime::fixed<int32_t>(), 3)
                                       .member(runtime::fixed<runtime::ScalarType>())
                                       .done());

void quantize_f32_s8_ref(const QuantizeParams& p, const float* in, int8_t* out, size_t n);
void quantize_f32_s16_ref(const QuantizeParams& p, const float* in, int16_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: 16 (int8) or 8 (int16) lanes a step, the reference for scales whose
// inverse is denormal or above 2^125 (see quantize_mve.cpp).
void quantize_f32_s8_mve(const QuantizeParams& p, const float* in, int8_t* out, size_t n);
void quantize_f32_s16_mve(const QuantizeParams& p, const float* in, int16_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one float32 lane per element.
void quantize_f32_s8_hwy(const QuantizeParams& p, const float* in, int8_t* out, size_t n);
void quantize_f32_s16_hwy(const QuantizeParams& p, const float* in, int16_t* out, size_t n);
#endif
// The build's choice, the last of kQuantizeS8Variants / kQuantizeS16Variants (below).
void quantize_f32_s8(const QuantizeParams& p, const float* in, int8_t* out, size_t n);
void quantize_f32_s16(const QuantizeParams& p, const float* in, int16_t* out, size_t n);

// The contract (operators.md §2.1): input float32 in any layout, out int8 or
// int16 of input's sizes and dim order (the kernel walks both in memory
// order); dtype is a ScalarType code.
inline constexpr runtime::ArgSpec kQuantizeArgs[] = {
    runtime::tensor_arg("input", runtime::kFloat32),
    runtime::double_arg("scale"),
    runtime::int_arg("zero_point"),
    runtime::int_arg("quant_min"),
    runtime::int_arg("quant_max"),
    runtime::int_arg("dtype"),
    runtime::tensor_arg("out", runtime::kInt8 | runtime::kInt16),
};
inline constexpr runtime::OperatorContract kQuantizeContract =
    runtime::make_contract("cortex_m::quantize_per_tensor.out", kQuantizeArgs, "zero_point");

// prepare returns InvalidArgument for a dtype code other than int8/int16 or
// differing from out's, a quant range outside the type or inverted, a zero
// point outside the quant range, a scale that is not finite and positive, or
// input and out differing in sizes or dim order (the contract's kinds and
// dtypes are checked before it runs).
runtime::Error quantize_prepare(runtime::PrepareContext& ctx);
runtime::Error quantize_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<decltype(&cortex_m::quantize_f32_s8_ref)> kQuantizeS8Variants[] = {
    {"ref", &cortex_m::quantize_f32_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::quantize_f32_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::quantize_f32_s8_hwy)
};

inline constexpr Variant<decltype(&cortex_m::quantize_f32_s16_ref)> kQuantizeS16Variants[] = {
    {"ref", &cortex_m::quantize_f32_s16_ref},
    ETNS_MVE_VARIANT(&cortex_m::quantize_f32_s16_mve)
    ETNS_HWY_VARIANT(&cortex_m::quantize_f32_s16_hwy)
};

}  // namespace etns::kernels
