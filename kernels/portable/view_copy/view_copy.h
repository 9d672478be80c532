#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, except
// where a size-1 dim sits in a dim order (it moves no byte). out holds self's
// values on self's grid (keeps_zero_point).
//
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

}  // namespace etns::portable
