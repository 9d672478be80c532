#pragma once

// The one place that lists each operator's compiled variants, ordered from the
// reference (the definition of the numerics) to the fastest. Each kernel's
// front door runs the last one (kernels::fastest); the shared tester
// (kernels/testing/variant_check.h) checks every other entry against the
// first, on the host and on the Cortex-M55 (etns_m55_kernel_tests.elf).
// Adding a variant is one line here.

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/cortex_m/add/add.h"
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"

#if ETNS_HAVE_MVE
#define ETNS_MVE_VARIANT(fn) {"mve", fn},
#else
#define ETNS_MVE_VARIANT(fn)
#endif

namespace etns::kernels {

// cortex_m:: (both providers)
inline constexpr Variant<decltype(&cortex_m::quantize_f32_s8_ref)> kQuantizeS8Variants[] = {
    {"ref", &cortex_m::quantize_f32_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::quantize_f32_s8_mve)
};
inline constexpr Variant<decltype(&cortex_m::quantize_f32_s16_ref)> kQuantizeS16Variants[] = {
    {"ref", &cortex_m::quantize_f32_s16_ref},
    ETNS_MVE_VARIANT(&cortex_m::quantize_f32_s16_mve)
};
inline constexpr Variant<decltype(&cortex_m::dequantize_s8_f32_ref)> kDequantizeS8Variants[] = {
    {"ref", &cortex_m::dequantize_s8_f32_ref},
    ETNS_MVE_VARIANT(&cortex_m::dequantize_s8_f32_mve)
};
inline constexpr Variant<decltype(&cortex_m::dequantize_s16_f32_ref)> kDequantizeS16Variants[] = {
    {"ref", &cortex_m::dequantize_s16_f32_ref},
    ETNS_MVE_VARIANT(&cortex_m::dequantize_s16_f32_mve)
};
inline constexpr Variant<cortex_m::MinimumFn> kMinimumVariants[] = {
    {"ref", &cortex_m::minimum_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::minimum_s8_mve)
};
inline constexpr Variant<cortex_m::MaximumFn> kMaximumVariants[] = {
    {"ref", &cortex_m::maximum_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::maximum_s8_mve)
};
inline constexpr Variant<cortex_m::MaxPool2dFn> kMaxPool2dVariants[] = {
    {"ref", &cortex_m::max_pool2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::max_pool2d_s8_mve)
};
inline constexpr Variant<cortex_m::AddFn> kAddVariants[] = {
    {"ref", &cortex_m::add_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::add_s8_mve)
};
inline constexpr Variant<cortex_m::MulFn> kMulVariants[] = {
    {"ref", &cortex_m::mul_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::mul_s8_mve)
};
inline constexpr Variant<cortex_m::AvgPool2dFn> kAvgPool2dVariants[] = {
    {"ref", &cortex_m::avg_pool2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::avg_pool2d_s8_mve)
};
inline constexpr Variant<cortex_m::Conv2dFn> kConv2dVariants[] = {
    {"ref", &cortex_m::conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::conv2d_s8_mve)
};
inline constexpr Variant<cortex_m::DepthwiseConv2dFn> kDepthwiseConv2dVariants[] = {
    {"ref", &cortex_m::depthwise_conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::depthwise_conv2d_s8_mve)
};
inline constexpr Variant<cortex_m::LinearFn> kLinearVariants[] = {
    {"ref", &cortex_m::linear_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::linear_s8_mve)
};
inline constexpr Variant<cortex_m::SoftmaxFn> kSoftmaxVariants[] = {
    {"ref", &cortex_m::softmax_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::softmax_s8_mve)
};
inline constexpr Variant<cortex_m::TransposeConv2dFn> kTransposeConv2dVariants[] = {
    {"ref", &cortex_m::transpose_conv2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::transpose_conv2d_s8_mve)
};
inline constexpr Variant<cortex_m::BatchMatmulFn> kBatchMatmulVariants[] = {
    {"ref", &cortex_m::batch_matmul_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::batch_matmul_s8_mve)
};
inline constexpr Variant<cortex_m::PadFn> kPadVariants[] = {
    {"ref", &cortex_m::pad_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::pad_s8_mve)
};
inline constexpr Variant<cortex_m::TransposeFn> kTransposeVariants[] = {
    {"ref", &cortex_m::transpose_s8_ref},
};

// cortex_m_ns:: (the ns provider)
inline constexpr Variant<cortex_m_ns::SubFn> kSubVariants[] = {
    {"ref", &cortex_m_ns::sub_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m_ns::sub_s8_mve)
};
inline constexpr Variant<cortex_m_ns::HardswishFn> kHardswishVariants[] = {
    {"ref", &cortex_m_ns::hardswish_s8_ref},
    {"lut", &cortex_m_ns::hardswish_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::hardswish_s8_mve)
};
inline constexpr Variant<cortex_m_ns::LeakyReluFn> kLeakyReluVariants[] = {
    {"ref", &cortex_m_ns::leaky_relu_s8_ref},
    {"lut", &cortex_m_ns::leaky_relu_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::leaky_relu_s8_mve)
};
inline constexpr Variant<cortex_m_ns::ReluFn> kReluVariants[] = {
    {"ref", &cortex_m_ns::relu_s8_ref},
    {"lut", &cortex_m_ns::relu_s8_lut},
    ETNS_MVE_VARIANT(&cortex_m_ns::relu_s8_mve)
};
inline constexpr Variant<cortex_m_ns::MeanFn> kMeanVariants[] = {
    {"ref", &cortex_m_ns::mean_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m_ns::mean_s8_mve)
};

}  // namespace etns::kernels
