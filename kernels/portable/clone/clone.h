#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, dim orders
// exactly as upstream compares them, size-1 dims included (portable_contracts.h).
// out holds self's values on self's grid (keeps_zero_point).
//
// aten::clone.out(self, memory_format, out). Same dtype and sizes; self and
// out both in the default dim order or both channels_last (upstream's
// tensors_have_same_dim_order); memory_format Null or 0 (contiguous), as
// upstream (1, preserve, is refused). out = self's bytes.
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
