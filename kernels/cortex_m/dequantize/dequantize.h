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
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): one float32 lane per element.
void dequantize_s8_f32_hwy(const DequantizeParams& p, const int8_t* in, float* out, size_t n);
void dequantize_s16_f32_hwy(const DequantizeParams& p, const int16_t* in, float* out, size_t n);
#endif
// The build's choice, the last of kDequantizeS8Variants / kDequantizeS16Variants (below).
void dequantize_s8_f32(const DequantizeParams& p, const int8_t* in, float* out, size_t n);
void dequantize_s16_f32(const DequantizeParams& p, const int16_t* in, float* out, size_t n);

// The contract (operators.md §2.2): input int8 or int16 in any layout, out
// float32 of input's sizes and dim order (the kernel walks both in memory
// order); dtype is a ScalarType code.
inline constexpr runtime::ArgSpec kDequantizeArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8 | runtime::kInt16),
    runtime::double_arg("scale"),
    runtime::int_arg("zero_point"),
    runtime::int_arg("quant_min"),
    runtime::int_arg("quant_max"),
    runtime::int_arg("dtype"),
    runtime::tensor_arg("out", runtime::kFloat32),
};
inline constexpr runtime::OperatorContract kDequantizeContract =
    runtime::make_contract("cortex_m::dequantize_per_tensor.out", kDequantizeArgs);

// prepare returns InvalidArgument for a dtype code other than int8/int16 or
// differing from input's, a quant range outside the type or inverted, a zero
// point outside the quant range (upstream refuses these too), a scale that
// quantize would refuse (not finite and positive with a finite float32
// inverse; kernels::read_scale, stricter than upstream), or input and out
// differing in sizes or dim order (the contract's kinds and dtypes are
// checked before it runs).
runtime::Error dequantize_prepare(runtime::PrepareContext& ctx);
runtime::Error dequantize_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<decltype(&cortex_m::dequantize_s8_f32_ref)> kDequantizeS8Variants[] = {
    {"ref", &cortex_m::dequantize_s8_f32_ref},
    ETNS_MVE_VARIANT(&cortex_m::dequantize_s8_f32_mve)
    ETNS_HWY_VARIANT(&cortex_m::dequantize_s8_f32_hwy)
};

inline constexpr Variant<decltype(&cortex_m::dequantize_s16_f32_ref)> kDequantizeS16Variants[] = {
    {"ref", &cortex_m::dequantize_s16_f32_ref},
    ETNS_MVE_VARIANT(&cortex_m::dequantize_s16_f32_mve)
    ETNS_HWY_VARIANT(&cortex_m::dequantize_s16_f32_hwy)
};

}  // namespace etns::kernels
