#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, dim orders
// exactly as upstream compares them, size-1 dims included (portable_contracts.h).
// out holds self's values on self's grid (keeps_zero_point).
//
// aten::view_copy.out(self, size, out). self and out both in the default dim
// order, as upstream demands (tensors_have_same_dim_order and
// tensor_is_default_dim_order): a channels_last self is refused even where its
// bytes are row-major ([1, C, 1, 1]); prepare checks it. out of self's dtype;
// `size` has self's element count, at most one -1 (inferred), and equals
// out's sizes. out = self's bytes.
inline constexpr runtime::ArgSpec kViewCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::int_list_arg("size"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kViewCopyContract =
    runtime::make_contract("aten::view_copy.out", kViewCopyArgs, nullptr, true);
runtime::Error view_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error view_copy_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
