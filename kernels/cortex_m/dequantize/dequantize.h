#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "runtime/core/scalar_type.h"
#include "runtime/exec/kernel.h"
#include "runtime/core/target_layout.h"

namespace etns::cortex_m {

// cortex_m::dequantize_per_tensor.out: int8 or int16 to float32 (operators.md §2.2).
// Numerics (docs/numerics.md#dequantize), the same on every target:
//   out = (float)(q - zero_point) * (float)scale
// the integer difference is exact in float32, then one float32 multiply rounded
// to nearest even; q == zero_point gives +0.0.
struct DequantizeParams {
  float scale = 1.0f;
  int32_t zero_point = 0;
  runtime::ScalarType in_dtype = runtime::ScalarType::Char;  // Char or Short; run picks by it
};
ETNS_TARGET_LAYOUT(DequantizeParams, runtime::StructLayout()
                                         .member(runtime::fixed<float>())
                                         .member(runtime::fixed<int32_t>())
                                         .member(runtime::fixed<runtime::ScalarType>())
                                         .done());

void dequantize_s8_f32_ref(const DequantizeParams& p, const int8_t* in, float* out, size_t n);
void dequantize_s16_f32_ref(const DequantizeParams& p, const int16_t* in, float* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: 16 (int8) or 4 (int16) lanes a step, the reference for a denormal
// or NaN scale (see dequantize_mve.cpp).
void dequantize_s8_f32_mve(const DequantizeParams& p, const int8_t* in, float* out, size_t n);
void dequantize_s16_f32_mve(const DequantizeParams& p, const int16_t* in, float* out, size_t n);
#endif
// The build's choice, the last of kernels/variants.h's kDequantizeS8Variants / kDequantizeS16Variants.
void dequantize_s8_f32(const DequantizeParams& p, const int8_t* in, float* out, size_t n);
void dequantize_s16_f32(const DequantizeParams& p, const int16_t* in, float* out, size_t n);

// Arguments: input (int8 or int16), scale, zero_point, quant_min, quant_max, dtype, out.
// prepare returns InvalidArgument for a dtype other than int8/int16 or differing
// from input's, out not float32, a quant range outside the type or inverted, a
// zero point outside the quant range, or input and out differing in sizes or
// dim order; InvalidProgram for a wrong kind of argument. The scale is used as
// given (upstream checks nothing either).
runtime::Error dequantize_prepare(runtime::PrepareContext& ctx);
runtime::Error dequantize_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
