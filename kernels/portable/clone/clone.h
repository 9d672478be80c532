#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, except
// where a size-1 dim sits in a dim order (it moves no byte). out holds self's
// values on self's grid (keeps_zero_point).
//
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
