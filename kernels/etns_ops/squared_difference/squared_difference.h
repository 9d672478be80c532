#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::squared_difference.out on int8 (docs/numerics.md#squared_difference):
// TFLite Micro's int8 SQUARED_DIFFERENCE (squared_difference.cc), with numpy
// broadcasting of self and other onto out. For each output element, with a
// and b the self and other codes it reads and RQ requantize.h's
// requantisation:
//   da  = RQ((a - self_zero_point) * 2^7, self_multiplier, self_shift)
//   db  = RQ((b - other_zero_point) * 2^7, other_multiplier, other_shift)
//   out = clamp(RQ((da - db)^2, out_multiplier, out_shift) + out_zero_point, -128, 127)
// The left shift is TFLM's constant 7 for int8; the input shifts are <= 0
// (TFLM's SmallerThanOneExp factors), so |da|, |db| <= 2^14 and the square
// fits int32. There is no fused activation: only int8's range clamps.
namespace etns::etns_ops {

// TFLM's int8 left shift: (255 * 2^7)^2 stays below 2^31.
inline constexpr int32_t kSquaredDifferenceLeftShift = 7;

// The arithmetic and the walk prepare derives. out is a row-major
// [dims[0], dims[1], dims[2], dims[3]] block whose element (i, j, k, l)
// reads self at i*self_strides[0] + ... + l*self_strides[3] elements (a
// broadcast dim has stride 0), and other likewise. Size-1 dims are dropped
// and neighbours that broadcast alike merged, so an innermost stride is 0
// or 1.
struct SquaredDifferenceParams {
  int32_t self_offset = 0;  // -self_zero_point
  int32_t self_multiplier = 0;
  int32_t self_shift = 0;
  int32_t other_offset = 0;  // -other_zero_point
  int32_t other_multiplier = 0;
  int32_t other_shift = 0;
  int32_t out_zero_point = 0;
  int32_t out_multiplier = 0;
  int32_t out_shift = 0;
  int32_t dims[4] = {1, 1, 1, 1};
  int32_t self_strides[4] = {0, 0, 0, 0};
  int32_t other_strides[4] = {0, 0, 0, 0};
};
ETNS_TARGET_LAYOUT(SquaredDifferenceParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 21).done());

using SquaredDifferenceFn = void (*)(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other,
                                     int8_t* out);

// One element, the formula above (the reference and the Helium variant's
// fallback share it).
int8_t squared_difference_element(const SquaredDifferenceParams& p, int8_t a, int8_t b);

// The definition: the 4-D walk, one element at a time.
void squared_difference_s8_ref(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other,
                               int8_t* out);
#if ETNS_HAVE_MVE
// Helium: each innermost row four int32 lanes at a time, tail-predicated;
// a row of one repeated operand scales that operand once; each
// requantisation specialised to its shift's sign.
void squared_difference_s8_mve(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other,
                               int8_t* out);
#endif
// The build's choice, the last of kSquaredDifferenceVariants (below).
void squared_difference_s8(const SquaredDifferenceParams& p, const int8_t* self, const int8_t* other, int8_t* out);

// The contract. self, other and out are int8. Either all three have equal
// sizes and one memory order (any), or self and other broadcast onto out
// (sizes right-aligned, each dim 1 or out's) and all three are row-major in
// memory. The multipliers are in [0, 2^31 - 1]; the input shifts in
// [-31, 0], out_shift in [-31, 30]; zero points in int8's range.
inline constexpr runtime::ArgSpec kSquaredDifferenceArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::int_arg("self_zero_point"),
    runtime::int_arg("self_multiplier"),
    runtime::int_arg("self_shift"),
    runtime::tensor_arg("other", runtime::kInt8),
    runtime::int_arg("other_zero_point"),
    runtime::int_arg("other_multiplier"),
    runtime::int_arg("other_shift"),
    runtime::int_arg("out_zero_point"),
    runtime::int_arg("out_multiplier"),
    runtime::int_arg("out_shift"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kSquaredDifferenceContract =
    runtime::make_contract("etns_ops::squared_difference.out", kSquaredDifferenceArgs, "out_zero_point");

// prepare returns InvalidArgument for an argument outside the ranges above,
// shapes that do not broadcast onto out, or (when they differ in sizes) a
// tensor that is not row-major in memory, or (equal sizes) memory orders
// that differ; NotSupported for a broadcast that alternates over more than 4
// merged dims or an out above 2^31 - 1 elements. It stores
// SquaredDifferenceParams in the method arena (OutOfMemory).
runtime::Error squared_difference_prepare(runtime::PrepareContext& ctx);
runtime::Error squared_difference_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::SquaredDifferenceFn> kSquaredDifferenceVariants[] = {
    {"ref", &etns_ops::squared_difference_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::squared_difference_s8_mve)
};

}  // namespace etns::kernels
