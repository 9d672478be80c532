#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// aten::mean.out(self, dim, keepdim, dtype, out). self and out float32, both
// row-major in memory; dim is an int list (negative dims count from the end; empty or
// Null = every dim), dtype Null or float32 (ScalarType 6). For each output
// element the reduced elements are visited in row-major order of the reduced
// dims (ascending dim index, whatever the list order): acc = x0, acc += xk in
// float32, out = acc / (float)count. When dim lists exactly one dim and it is
// the innermost, acc starts at +0.0 and adds every element (upstream's fast
// path; only all -0.0 inputs differ: +0.0 instead of -0.0). No wider
// accumulator; an empty reduction gives 0 / 0. Upstream takes the default dim
// order only; a size-1 dim placed elsewhere holds the same bytes, so the
// contract asks for row-major memory. self may have any dtype when dtype names
// out's (upstream's rule), so prepare checks self's; out is always floating.
inline constexpr runtime::ArgSpec kMeanArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype, runtime::Shape::RowMajor),
    runtime::optional_int_list_arg("dim"),
    runtime::bool_arg("keepdim"),
    runtime::optional_dtype_arg("dtype"),
    runtime::tensor_arg("out", kFloatingTypes, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kMeanContract =
    runtime::make_contract("aten::mean.out", kMeanArgs);
runtime::Error mean_prepare(runtime::PrepareContext& ctx);
runtime::Error mean_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
