#pragma once

#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// Portable fallbacks for the aten::*.out operators a program keeps outside the
// int8 kernels (operators.md §4; ExecuTorch kernels/portable/cpu/op_<name>.cpp).
// prepare validates every argument once, at load, and stores what run needs in
// the method arena; it returns InvalidArgument for an argument ExecuTorch's
// portable kernel rejects too, NotSupported for a valid argument this build
// does not implement (another dtype or layout), and InvalidProgram for an
// argument of the wrong kind (the loader checks each argument's kind, and the
// dtypes and layouts each contract below names, before prepare runs; a
// contract names only what upstream refuses too, so its refusals are
// InvalidArgument as upstream's). run reads the tensors' current data pointers,
// writes `out` in place, needs no scratch and always returns Ok. Float results
// are bit-exact with the upstream host build; the numerics are in
// docs/numerics.md and rely on -ffp-contract=off (no fused multiply-add).
namespace etns::portable {

// float16, float32, float64 and bfloat16: runtime::is_floating_point's set,
// what ExecuTorch's portable kernels call a floating type.
inline constexpr runtime::Dtypes kFloatingTypes =
    runtime::dtype(runtime::ScalarType::Half) | runtime::kFloat32 |
    runtime::dtype(runtime::ScalarType::Double) | runtime::dtype(runtime::ScalarType::BFloat16);

// aten::leaky_relu.out(self, negative_slope, out). self and out float32, same
// sizes and dim order. slope = (float)negative_slope (Int or Double, within
// float32 range); walking the flat buffer, out = x >= 0 ? x : x * slope, one
// rounded multiply. -0.0 and NaN pass through (as x and x * slope).
// self and out may be any floating type (upstream's rule); prepare refuses
// out of another dtype than self's or sizes or dim orders that differ
// (InvalidArgument), and another floating type than float32 (NotSupported).
inline constexpr runtime::ArgSpec kLeakyReluArgs[] = {
    runtime::tensor_arg("self", kFloatingTypes),
    runtime::scalar_arg("negative_slope"),
    runtime::tensor_arg("out", kFloatingTypes),
};
inline constexpr runtime::OperatorContract kLeakyReluContract =
    runtime::make_contract("aten::leaky_relu.out", kLeakyReluArgs, nullptr, false, runtime::kRunsInPlace);
runtime::Error leaky_relu_prepare(runtime::PrepareContext& ctx);
runtime::Error leaky_relu_run(const runtime::RunContext& ctx);

// aten::sub.out(self, other, alpha, out). float32 throughout; alpha Int or
// Double (Bool is rejected), converted once to float32. out = a - alpha * b,
// product and difference each rounded to float32 (so alpha = 1 gives exactly
// a - b). Identical shapes with one shared dim order walk the flat buffer;
// other shapes must broadcast the numpy way (right-aligned) into out's shape
// and are implemented for contiguous tensors only. The dtypes are relations
// (type promotion), so the contract takes any and prepare decides: a Bool
// tensor or alpha, or an integer out for float32 operands, is InvalidArgument
// as upstream; other dtypes are NotSupported.
inline constexpr runtime::ArgSpec kSubArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::tensor_arg("other", runtime::kAnyDtype),
    runtime::scalar_arg("alpha"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kSubContract =
    runtime::make_contract("aten::sub.out", kSubArgs, nullptr, false, runtime::kRunsInPlace);
runtime::Error sub_prepare(runtime::PrepareContext& ctx);
runtime::Error sub_run(const runtime::RunContext& ctx);

// aten::clamp.out(self, min, max, out). Bounds are Int, Double, Bool or Null,
// at least one present. The compute dtype is self's dtype promoted with the
// bounds (a Double bound promotes an int8 self to float32) and must equal
// out's; implemented: int8 -> int8, float32 -> float32, int8 -> float32. Each
// bound must be representable in out's dtype (int8: [-128, 127]).
// v = max(v, min) then v = min(v, max), so min > max gives max. In float32 a
// NaN input or NaN bound gives NaN; -0.0 and +0.0 compare equal and the input
// is kept. The dtypes are relations (type promotion with the bounds), so the
// contract takes any and prepare decides. With an int8 self and out there is
// no zero point argument: the bounds are already on self's grid.
inline constexpr runtime::ArgSpec kClampArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::optional_scalar_arg("min"),
    runtime::optional_scalar_arg("max"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kClampContract =
    runtime::make_contract("aten::clamp.out", kClampArgs, nullptr, false, runtime::kRunsInPlace);
runtime::Error clamp_prepare(runtime::PrepareContext& ctx);
runtime::Error clamp_run(const runtime::RunContext& ctx);

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

// ---- Data movement: any dtype, bytes moved unchanged ----------------------
// The layout changes and reshapes between a model's int8 operators (flatten,
// permute, a change of memory format). Each checks what the upstream portable
// kernel checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare,
// except where a size-1 dim sits in a dim order (it moves no byte). out holds
// self's values on self's grid (keeps_zero_point).

// aten::view_copy.out(self, size, out). self and out row-major in memory
// (upstream: both in the default dim order), out of self's dtype; `size` has
// self's element count, at most one -1 (inferred), and equals out's sizes.
// out = self's bytes.
inline constexpr runtime::ArgSpec kViewCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype, runtime::Shape::RowMajor),
    runtime::int_list_arg("size"),
    runtime::tensor_arg("out", runtime::kAnyDtype, runtime::Shape::RowMajor),
};
inline constexpr runtime::OperatorContract kViewCopyContract =
    runtime::make_contract("aten::view_copy.out", kViewCopyArgs, nullptr, true);
runtime::Error view_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error view_copy_run(const runtime::RunContext& ctx);

// aten::permute_copy.out(self, dims, out). dims a permutation of self's dims
// (negative counts from the end); out's dim d is self's dim dims[d]; one
// dtype; any dim orders.
inline constexpr runtime::ArgSpec kPermuteCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::int_list_arg("dims"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kPermuteCopyContract =
    runtime::make_contract("aten::permute_copy.out", kPermuteCopyArgs, nullptr, true);
runtime::Error permute_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error permute_copy_run(const runtime::RunContext& ctx);

// dim_order_ops::_to_dim_order_copy.out(self, non_blocking, dim_order, out):
// the same logical tensor in out's memory order. non_blocking false;
// dim_order Null (out contiguous) or out's dim order, contiguous or
// channels_last; sizes equal. Upstream also converts the dtype; this build
// moves one dtype and refuses a conversion (NotSupported). The registry also
// binds it as aten::_to_dim_order_copy.out.
inline constexpr runtime::ArgSpec kToDimOrderCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::bool_arg("non_blocking"),
    runtime::optional_int_list_arg("dim_order"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kToDimOrderCopyContract = runtime::make_contract(
    "dim_order_ops::_to_dim_order_copy.out", kToDimOrderCopyArgs, nullptr, true);
runtime::Error to_dim_order_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error to_dim_order_copy_run(const runtime::RunContext& ctx);

// aten::clone.out(self, memory_format, out). Same dtype, sizes and dim order;
// memory_format Null, 0 (contiguous) or 1 (preserve). out = self's bytes.
inline constexpr runtime::ArgSpec kCloneArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::optional_int_arg("memory_format"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kCloneContract =
    runtime::make_contract("aten::clone.out", kCloneArgs, nullptr, true, runtime::kRunsInPlace);
runtime::Error clone_prepare(runtime::PrepareContext& ctx);
runtime::Error clone_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
