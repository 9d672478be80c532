#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, dim orders
// exactly as upstream compares them, size-1 dims included (portable_contracts.h).
// out holds self's values on self's grid (keeps_zero_point).
//
// aten::permute_copy.out(self, dims, out). dims a permutation of self's dims
// (negative counts from the end); out's dim d is self's dim dims[d]; one
// dtype; self and out both in the default dim order or both channels_last
// (upstream's tensors_have_same_dim_order): a permute between the two is
// refused.
inline constexpr runtime::ArgSpec kPermuteCopyArgs[] = {
    runtime::tensor_arg("self", runtime::kAnyDtype),
    runtime::int_list_arg("dims"),
    runtime::tensor_arg("out", runtime::kAnyDtype),
};
inline constexpr runtime::OperatorContract kPermuteCopyContract =
    runtime::make_contract("aten::permute_copy.out", kPermuteCopyArgs, nullptr, true);
runtime::Error permute_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error permute_copy_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
