#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::resize_bilinear.out on int8 (docs/numerics.md#resize_bilinear):
// bilinear interpolation with 10-bit fractions. Each output row y names two
// source rows and a fraction, rows[3y..3y+2] = (y0, y1, fy); each output
// column x likewise, cols[3x..3x+2] = (x0, x1, fx). For every batch n and
// channel c, with a = self[y0][x0], b = self[y0][x1], d = self[y1][x0],
// e = self[y1][x1] (that batch and channel),
//   top = a * (1024 - fx) + b * fx,   bottom = d * (1024 - fx) + e * fx
//   s   = top * (1024 - fy) + bottom * fy          (exact in int32)
//   out = sign(s) * ((|s| + 2^19) >> 20)           (s / 2^20, ties away from 0)
// kept as its low byte. s is TFLite's output_20 term for term; `etns import`
// writes RESIZE_BILINEAR with it, the rows, columns and fractions computed at
// import as TFLite's ComputeInterpolationValuesInteger does.
namespace etns::etns_ops {

// The sizes prepare checks; rows and cols are read from their constants.
struct ResizeBilinearParams {
  int32_t batches = 0;
  int32_t channels = 0;
  int32_t in_h = 0;
  int32_t in_w = 0;
  int32_t out_h = 0;
  int32_t out_w = 0;
};
ETNS_TARGET_LAYOUT(ResizeBilinearParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 6).done());

// The fractions prepare accepts: |1024 - f| + |f| <= 3072 keeps every
// product and sum of the definition within int32 (128 * 3072^2 < 2^31).
inline constexpr int32_t kResizeBilinearMinFraction = -1024;
inline constexpr int32_t kResizeBilinearMaxFraction = 2048;

// rows holds p.out_h triples (y0, y1, fy), y0 and y1 in [0, p.in_h); cols
// p.out_w triples (x0, x1, fx), x0 and x1 in [0, p.in_w); fractions in
// [kResizeBilinearMinFraction, kResizeBilinearMaxFraction]. self holds
// batches * in_h * in_w * channels bytes NHWC, out batches * out_h * out_w *
// channels.
using ResizeBilinearFn = void (*)(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols,
                                  const int8_t* self, int8_t* out);

// The definition: one value at a time.
void resize_bilinear_s8_ref(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols,
                            const int8_t* self, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: each output pixel's channels four int32 lanes a pass, a
// tail-predicated low-overhead loop; the same products and sums as the
// reference, its rounding as one floor (s + (s >> 31) + 2^19) >> 20.
void resize_bilinear_s8_mve(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols,
                            const int8_t* self, int8_t* out);
#endif
// The build's choice, the last of kResizeBilinearVariants (below).
void resize_bilinear_s8(const ResizeBilinearParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                        int8_t* out);

// The contract. self and out are int8, 4-D, NHWC in memory (logical
// [N, C, H, W]), with out's N and C self's; rows and cols are constant int32
// tensors, row-major, of 3 * out's height and 3 * out's width elements (one
// triple per output row or column). out never overlaps self.
inline constexpr runtime::ArgSpec kResizeBilinearArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::tensor_arg("rows", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::tensor_arg("cols", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kResizeBilinearContract =
    runtime::make_contract("etns_ops::resize_bilinear.out", kResizeBilinearArgs, nullptr, true);

// prepare returns InvalidArgument for out of another batch or channel count
// than self, rows or cols of another element count than 3 * out's height or
// width, an index outside self's height or width or a fraction outside
// [kResizeBilinearMinFraction, kResizeBilinearMaxFraction]; NotSupported for
// rows or cols that are not constants (checked once, at load) and for self or
// out above 2^31 - 1 bytes. It stores ResizeBilinearParams in the method
// arena (OutOfMemory).
runtime::Error resize_bilinear_prepare(runtime::PrepareContext& ctx);
runtime::Error resize_bilinear_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::ResizeBilinearFn> kResizeBilinearVariants[] = {
    {"ref", &etns_ops::resize_bilinear_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::resize_bilinear_s8_mve)
};

}  // namespace etns::kernels
