#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "runtime/core/scalar_type.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

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
// The build's choice, the last of kernels/variants.h's kQuantizeS8Variants / kQuantizeS16Variants.
void quantize_f32_s8(const QuantizeParams& p, const float* in, int8_t* out, size_t n);
void quantize_f32_s16(const QuantizeParams& p, const float* in, int16_t* out, size_t n);

// Arguments: input (float32), scale, zero_point, quant_min, quant_max, dtype, out.
// prepare returns InvalidArgument for a dtype other than int8/int16 or differing
// from out's, a quant range outside the type or inverted, a zero point outside
// the quant range, a scale that is not finite and positive, or input and out
// differing in sizes or dim order; InvalidProgram for a wrong kind of argument.
runtime::Error quantize_prepare(runtime::PrepareContext& ctx);
runtime::Error quantize_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
