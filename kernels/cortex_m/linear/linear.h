#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "kernels/common/requantize.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::quantized_linear.out: int8 fully connected layer, per-tensor
// requantisation (operators-cortex-m.md). Numerics (docs/numerics.md#linear):
// CMSIS-NN arm_fully_connected_s8's Helium path on every target. For each batch
// row b and output feature r:
//   acc = ks[r] + sum_i x[b, i] * w[r, i] + filter_offset * sum_i x[b, i]
//   out = clamp(RQ(acc, M, S) + output_offset, activation_min, activation_max)
// with ks = kernel_sum when given. That path never reads bias or input_offset:
// the exporter folds both into kernel_sum (input_offset * sum(w + filter_offset)
// + bias). Without kernel_sum, ks[r] = bias[r] (0 when Null) + input_offset *
// sum_i (w[r, i] + filter_offset), which makes acc the plain
// bias + sum (x + input_offset)(w + filter_offset), CMSIS-NN's C path. All sums
// and the offset addition are int32 and wrap, as upstream's do.
struct LinearParams {
  int32_t batches = 0;       // the product of input's leading dims
  int32_t in_features = 0;   // input's last dim, weights' columns
  int32_t out_features = 0;  // out's last dim, weights' rows
  int32_t input_offset = 0;  // minus the input zero point
  int32_t filter_offset = 0;
  int32_t output_offset = 0;  // the output zero point
  int32_t activation_min = -128, activation_max = 127;
  kernels::Requant out;  // requantize_multipliers[0], requantize_shifts[0]
};
ETNS_TARGET_LAYOUT(LinearParams, runtime::StructLayout()
                                     .member(runtime::fixed<int32_t>(), 8)
                                     .member(runtime::layout_of<kernels::Requant>(abi))
                                     .done());

// input [batches, in_features], weight [out_features, in_features], out
// [batches, out_features], all row-major; bias and kernel_sum have
// out_features values each, or are nullptr. `scratch` holds at least
// linear_scratch_bytes bytes, any alignment, contents undefined on entry.
using LinearFn = void (*)(const LinearParams& p, const int8_t* input, const int8_t* weight,
                          const int32_t* bias, const int32_t* kernel_sum, int8_t* out,
                          uint8_t* scratch);

void linear_s8_ref(const LinearParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, const int32_t* kernel_sum, int8_t* out,
                   uint8_t* scratch);
#if ETNS_HAVE_MVE
// Helium: four output features per pass, 16-lane VMLADAVA dot products with
// int32 accumulation, the column tail predicated.
void linear_s8_mve(const LinearParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, const int32_t* kernel_sum, int8_t* out,
                   uint8_t* scratch);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): the input widened to int16
// on the stack, dot products with four weight rows at a time in int32 lanes;
// on AVX3_DL, AVX-512 VNNI byte dot products of the flipped weights with the
// input instead (docs/design.md, "Host SIMD variants"), with rows of up to
// 640 bytes held in registers, 4 rows a pass. No scratch.
void linear_s8_hwy(const LinearParams& p, const int8_t* input, const int8_t* weight,
                   const int32_t* bias, const int32_t* kernel_sum, int8_t* out, uint8_t* scratch);
#endif
// The build's choice, the last of kLinearVariants (below).
void linear_s8(const LinearParams& p, const int8_t* input, const int8_t* weight,
               const int32_t* bias, const int32_t* kernel_sum, int8_t* out, uint8_t* scratch);
// The most scratch any compiled variant needs: the Helium variant keeps the
// derived kernel sums there when kernel_sum is absent.
size_t linear_scratch_bytes(const LinearParams& p, bool has_kernel_sum);

// The contract (operators-cortex-m.md; note activation_max before
// activation_min). input may have any rank >= 1 ([..., in_features], leading
// dims flattened into batches, as upstream does); out has input's leading dims
// and out_features last. bias and kernel_sum hold one int32 per output feature
// in any shape (ExecuTorch's exporter stores kernel_sum as [1, out]). Only the
// first multiplier and shift are read (per-tensor, as upstream).
inline constexpr runtime::ArgSpec kLinearArgs[] = {
    runtime::tensor_arg("input", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::tensor_arg("weights", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::optional_tensor_arg("bias", runtime::kInt32, runtime::Shape::Vector),
    runtime::optional_tensor_arg("kernel_sum", runtime::kInt32, runtime::Shape::Vector),
    runtime::int_arg("input_offset"),
    runtime::int_arg("filter_offset"),
    runtime::int_arg("output_offset"),
    runtime::int_list_arg("requantize_multipliers"),
    runtime::int_list_arg("requantize_shifts"),
    runtime::int_arg("activation_max"),
    runtime::int_arg("activation_min"),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kLinearContract =
    runtime::make_contract("cortex_m::quantized_linear.out", kLinearArgs, "output_offset");

// prepare returns InvalidArgument for sizes that do not fit together, bias or
// kernel_sum without one value per output feature, an empty multiplier or
// shift list, offsets, multiplier ([0, 2^31)), shift ([-31, 30]) or activation
// bounds out of range, or activation_min above activation_max (the contract's
// kinds, dtypes and layouts are checked before it runs). It requests
// linear_scratch_bytes of temporary memory.
runtime::Error linear_prepare(runtime::PrepareContext& ctx);
runtime::Error linear_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<cortex_m::LinearFn> kLinearVariants[] = {
    {"ref", &cortex_m::linear_s8_ref},
    ETNS_MVE_VARIANT(&cortex_m::linear_s8_mve)
    ETNS_HWY_VARIANT(&cortex_m::linear_s8_hwy)
};

}  // namespace etns::kernels
