#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/pool2d.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::quantized_max_pool2d.out: int8 max pooling, NHWC
// (docs/numerics.md#max_pool2d). CMSIS-NN arm_max_pool_s8: for each out pixel
// and channel, the largest of the window's taps inside the input (padding not
// counted), clamped to [activation_min, activation_max]. Input and out share
// one zero point, so no requantization. Every batch is pooled.
struct MaxPool2dParams {
  kernels::Pool2dShape shape;
  int32_t activation_min = -128;
  int32_t activation_max = 127;
};
ETNS_TARGET_LAYOUT(MaxPool2dParams, runtime::StructLayout()
                                        .member(runtime::layout_of<kernels::Pool2dShape>(abi))
                                        .member(runtime::fixed<int32_t>(), 2)
                                        .done());

using MaxPool2dFn = void (*)(const MaxPool2dParams& p, const int8_t* input, int8_t* out);

void max_pool2d_s8_ref(const MaxPool2dParams& p, const int8_t* input, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: 16 channels a pass (the last predicated), VMAX over the taps, then
// the clamp, one predicated store.
void max_pool2d_s8_mve(const MaxPool2dParams& p, const int8_t* input, int8_t* out);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): int8 lanes of channels,
// Max over the taps, then the clamp.
void max_pool2d_s8_hwy(const MaxPool2dParams& p, const int8_t* input, int8_t* out);
#endif
// The build's choice, the last of kMaxPool2dVariants (below).
void max_pool2d_s8(const MaxPool2dParams& p, const int8_t* input, int8_t* out);

// The contract (operators-cortex-m.md). input and out are int8 NHWC in memory
// (channels_last).
inline constexpr runtime::ArgSpec kMaxPool2dArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::int_list_arg("kernel_size"),
    runtime::int_list_arg("stride"),
    runtime::int_list_arg("padding"),
    runtime::int_list_arg("dilation"),
    runtime::bool_arg("ceil_mode"),
    runtime::int_arg("input_zero_point"),
    runtime::int_arg("output_zero_point"),
    runtime::int_arg("activation_min"),
    runtime::int_arg("activation_max"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kMaxPool2dContract = runtime::make_contract(
    "cortex_m::quantized_max_pool2d.out", kMaxPool2dArgs, "output_zero_point");

// prepare checks as kernels::read_pool2d_shape, and returns InvalidArgument
// for dilation not two values >= 1, a zero point outside [-128, 127], or an
// activation range not within [-128, 127] with min <= max (upstream's Helium
// clamp truncates wider bounds to int8); NotSupported for what upstream
// refuses: dilation other than 1, ceil_mode true, or zero points that differ.
// The contract's kinds, dtypes and layouts are checked before it runs.
runtime::Error max_pool2d_prepare(runtime::PrepareContext& ctx);
runtime::Error max_pool2d_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::MaxPool2dFn> kMaxPool2dVariants[] = {
    {"ref", &cortex_m::max_pool2d_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::max_pool2d_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::max_pool2d_s8_hwy)
};

}  // namespace etns::kernels
