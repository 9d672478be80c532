#pragma once

#include "runtime/exec/kernel.h"

// Portable fallbacks for the aten::*.out operators a program keeps outside the
// int8 kernels (operators.md §4; ExecuTorch kernels/portable/cpu/op_<name>.cpp).
// prepare validates every argument once, at load, and stores what run needs in
// the method arena; it returns InvalidArgument for an argument ExecuTorch's
// portable kernel rejects too, NotSupported for a valid argument this build
// does not implement (another dtype or layout), and InvalidProgram for an
// argument of the wrong kind. run reads the tensors' current data pointers,
// writes `out` in place, needs no scratch and always returns Ok. Float results
// are bit-exact with the upstream host build; the numerics are in
// docs/numerics.md and rely on -ffp-contract=off (no fused multiply-add).
namespace etns::portable {

// aten::leaky_relu.out(self, negative_slope, out). self and out float32, same
// sizes and dim order. slope = (float)negative_slope (Int or Double, within
// float32 range); walking the flat buffer, out = x >= 0 ? x : x * slope, one
// rounded multiply. -0.0 and NaN pass through (as x and x * slope).
runtime::Error leaky_relu_prepare(runtime::PrepareContext& ctx);
runtime::Error leaky_relu_run(const runtime::RunContext& ctx);

// aten::sub.out(self, other, alpha, out). float32 throughout; alpha Int or
// Double (Bool is rejected), converted once to float32. out = a - alpha * b,
// product and difference each rounded to float32 (so alpha = 1 gives exactly
// a - b). Identical shapes with one shared dim order walk the flat buffer;
// other shapes must broadcast the numpy way (right-aligned) into out's shape
// and are implemented for contiguous tensors only.
runtime::Error sub_prepare(runtime::PrepareContext& ctx);
runtime::Error sub_run(const runtime::RunContext& ctx);

// aten::clamp.out(self, min, max, out). Bounds are Int, Double, Bool or Null,
// at least one present. The compute dtype is self's dtype promoted with the
// bounds (a Double bound promotes an int8 self to float32) and must equal
// out's; implemented: int8 -> int8, float32 -> float32, int8 -> float32. Each
// bound must be representable in out's dtype (int8: [-128, 127]).
// v = max(v, min) then v = min(v, max), so min > max gives max. In float32 a
// NaN input or NaN bound gives NaN; -0.0 and +0.0 compare equal and the input
// is kept.
runtime::Error clamp_prepare(runtime::PrepareContext& ctx);
runtime::Error clamp_run(const runtime::RunContext& ctx);

// aten::mean.out(self, dim, keepdim, dtype, out). self and out float32, self
// contiguous; dim is an int list (negative dims count from the end; empty or
// Null = every dim), dtype Null or float32 (ScalarType 6). For each output
// element the reduced elements are visited in row-major order of the reduced
// dims (ascending dim index, whatever the list order): acc = x0, acc += xk in
// float32, out = acc / (float)count. When dim lists exactly one dim and it is
// the innermost, acc starts at +0.0 and adds every element (upstream's fast
// path; only all -0.0 inputs differ: +0.0 instead of -0.0). No wider
// accumulator; an empty reduction gives 0 / 0.
runtime::Error mean_prepare(runtime::PrepareContext& ctx);
runtime::Error mean_run(const runtime::RunContext& ctx);

// ---- Data movement: any dtype, bytes moved unchanged ----------------------
// The layout changes and reshapes between a model's int8 operators (flatten,
// permute, a change of memory format). Each checks what the upstream portable
// kernel checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare.

// aten::view_copy.out(self, size, out). self contiguous, out of self's dtype
// and dim order; `size` has self's element count, at most one -1 (inferred),
// and equals out's sizes. out = self's bytes.
runtime::Error view_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error view_copy_run(const runtime::RunContext& ctx);

// aten::permute_copy.out(self, dims, out). dims a permutation of self's dims
// (negative counts from the end); out's dim d is self's dim dims[d]; one
// dtype; any dim orders.
runtime::Error permute_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error permute_copy_run(const runtime::RunContext& ctx);

// dim_order_ops::_to_dim_order_copy.out(self, non_blocking, dim_order, out):
// the same logical tensor in out's memory order. non_blocking false;
// dim_order Null (out contiguous) or out's dim order, contiguous or
// channels_last; sizes equal. Upstream also converts the dtype; this build
// moves one dtype and refuses a conversion (NotSupported).
runtime::Error to_dim_order_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error to_dim_order_copy_run(const runtime::RunContext& ctx);

// aten::clone.out(self, memory_format, out). Same dtype, sizes and dim order;
// memory_format Null, 0 (contiguous) or 1 (preserve). out = self's bytes.
runtime::Error clone_prepare(runtime::PrepareContext& ctx);
runtime::Error clone_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
