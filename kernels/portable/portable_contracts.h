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
//
// Each operator's contract is in its folder's header (kernels/portable/<op>/<op>.h);
// the build compiles the folders ETNS_PORTABLE_OPS names (kernels/operators.inc).
namespace etns::portable {

// float16, float32, float64 and bfloat16: runtime::is_floating_point's set,
// what ExecuTorch's portable kernels call a floating type.
inline constexpr runtime::Dtypes kFloatingTypes =
    runtime::dtype(runtime::ScalarType::Half) | runtime::kFloat32 |
    runtime::dtype(runtime::ScalarType::Double) | runtime::dtype(runtime::ScalarType::BFloat16);

}  // namespace etns::portable
