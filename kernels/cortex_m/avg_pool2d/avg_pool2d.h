#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/pool2d.h"
#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::quantized_avg_pool2d.out: int8 average pooling, NHWC
// (docs/numerics.md#avg_pool2d). CMSIS-NN arm_avgpool_s8 (its Helium path, the
// contract): for each out pixel and channel, over the n taps of its window
// inside the input (padding not counted),
//   sum = Σ in;  out = (sum > 0 ? sum + n/2 : sum - n/2) / n   (C division, toward 0)
// i.e. the mean rounded half away from zero. The result always lies in
// [-128, 127]: upstream's activation range is the whole int8 range, so its
// clamp never changes a value. Every batch is pooled.
using AvgPool2dParams = kernels::Pool2dShape;

using AvgPool2dFn = void (*)(const AvgPool2dParams& p, const int8_t* input, int8_t* out);

void avg_pool2d_s8_ref(const AvgPool2dParams& p, const int8_t* input, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: 16 channels a pass (the last predicated), taps summed in int16 lanes
// 256 at a time and widened to int32; the division by n is an exact multiply
// by a reciprocal (docs/numerics.md#avg_pool2d).
void avg_pool2d_s8_mve(const AvgPool2dParams& p, const int8_t* input, int8_t* out);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): int32 sums of channels,
// divided in double lanes (exact; see avg_pool2d_hwy.cpp).
void avg_pool2d_s8_hwy(const AvgPool2dParams& p, const int8_t* input, int8_t* out);
#endif
// The build's choice, the last of kAvgPool2dVariants (below).
void avg_pool2d_s8(const AvgPool2dParams& p, const int8_t* input, int8_t* out);

// The contract (operators-cortex-m.md). input and out are int8 NHWC in memory
// (channels_last). zero_point, multiplier and shift are Ints passed by the
// exporter and otherwise ignored, as upstream does (an average needs no
// requantization when input and out share quantization), so any values,
// multiplier 0 or shift -31 among them, are accepted.
inline constexpr runtime::ArgSpec kAvgPool2dArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::int_list_arg("kernel_size"),
    runtime::int_list_arg("stride"),
    runtime::int_list_arg("padding"),
    runtime::int_arg("zero_point"),
    runtime::int_arg("multiplier"),
    runtime::int_arg("shift"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kAvgPool2dContract =
    runtime::make_contract("cortex_m::quantized_avg_pool2d.out", kAvgPool2dArgs, "zero_point");

// prepare checks as kernels::read_pool2d_shape (InvalidArgument), and returns
// NotSupported for a window of more than 2^23 taps, whose int32 sum could
// overflow. The contract's kinds, dtypes and layouts are checked before it
// runs. No scratch: CMSIS-NN's Helium path asks for none, and neither variant
// here needs any.
runtime::Error avg_pool2d_prepare(runtime::PrepareContext& ctx);
runtime::Error avg_pool2d_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::AvgPool2dFn> kAvgPool2dVariants[] = {
    {"ref", &cortex_m::avg_pool2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::avg_pool2d_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::avg_pool2d_s8_hwy)
};

}  // namespace etns::kernels
