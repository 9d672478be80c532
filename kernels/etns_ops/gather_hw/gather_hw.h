#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::gather_hw.out on int8 (docs/numerics.md#gather_hw): a gather of
// whole pixels. For every batch n, output row y, output column x and channel c,
//   out[n, c, y, x] = self[n, c, rows[y], cols[x]]
// (logical NCHW, both NHWC in memory). No arithmetic on the values: the
// program's writer picks the source row of every output row and the source
// column of every output column. `etns import` writes TFLite's
// RESIZE_NEAREST_NEIGHBOR with it, the indices computed at import as TFLite
// Micro's GetNearestNeighbor computes them.
namespace etns::etns_ops {

// The sizes prepare checks; rows and cols are read from their constants.
struct GatherHwParams {
  int32_t batches = 0;
  int32_t channels = 0;
  int32_t in_h = 0;
  int32_t in_w = 0;
  int32_t out_h = 0;
  int32_t out_w = 0;
};
ETNS_TARGET_LAYOUT(GatherHwParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 6).done());

// rows holds p.out_h entries in [0, p.in_h), cols p.out_w entries in
// [0, p.in_w); self holds batches * in_h * in_w * channels bytes NHWC, out
// batches * out_h * out_w * channels.
using GatherHwFn = void (*)(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                            int8_t* out);

// The definition: one byte at a time.
void gather_hw_s8_ref(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                      int8_t* out);
#if ETNS_HAVE_MVE
// Helium: each pixel's channels one tail-predicated 16-byte copy loop; an
// output row with the same source row as the one before is a copy of that
// output row.
void gather_hw_s8_mve(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                      int8_t* out);
#endif
// The build's choice, the last of kGatherHwVariants (below).
void gather_hw_s8(const GatherHwParams& p, const int32_t* rows, const int32_t* cols, const int8_t* self,
                  int8_t* out);

// The contract. self and out are int8, 4-D, NHWC in memory (logical
// [N, C, H, W]), with out's N and C self's; rows and cols are constant int32
// tensors, row-major, of out's height and width elements, each entry an
// index into self's height (rows) or width (cols). out never overlaps self.
inline constexpr runtime::ArgSpec kGatherHwArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8, runtime::Shape::Nhwc),
    runtime::tensor_arg("rows", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::tensor_arg("cols", runtime::kInt32, runtime::Shape::RowMajor),
    runtime::tensor_arg("out", runtime::kInt8, runtime::Shape::Nhwc),
};
inline constexpr runtime::OperatorContract kGatherHwContract =
    runtime::make_contract("etns_ops::gather_hw.out", kGatherHwArgs, nullptr, true);

// prepare returns InvalidArgument for out of another batch or channel count
// than self, rows or cols of another element count than out's height or
// width, or an entry outside self's height or width; NotSupported for rows
// or cols that are not constants (checked once, at load) and for self or out
// above 2^31 - 1 bytes. It stores GatherHwParams in the method arena
// (OutOfMemory).
runtime::Error gather_hw_prepare(runtime::PrepareContext& ctx);
runtime::Error gather_hw_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::GatherHwFn> kGatherHwVariants[] = {
    {"ref", &etns_ops::gather_hw_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::gather_hw_s8_mve)
};

}  // namespace etns::kernels
