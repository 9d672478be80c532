#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// Data movement (any dtype, bytes moved unchanged): a layout change or reshape
// between a model's int8 operators. It checks what the upstream portable kernel
// checks (ExecuTorch kernels/portable/cpu/op_<name>.cpp) at prepare, dim orders
// exactly as upstream compares them, size-1 dims included (portable_contracts.h).
// out holds self's values on self's grid (keeps_zero_point).
//
// dim_order_ops::_to_dim_order_copy.out(self, non_blocking, dim_order, out):
// the same logical tensor in out's memory order. non_blocking false;
// dim_order Null (out keeps self's dim order, whatever it is) or out's dim
// order, contiguous or channels_last; self in any dim order; sizes equal;
// dtypes upstream's REALHBBF16 set. Upstream also converts the dtype; this
// build moves one dtype and refuses a conversion (NotSupported). The registry
// also binds it as aten::_to_dim_order_copy.out.
inline constexpr runtime::ArgSpec kToDimOrderCopyArgs[] = {
    runtime::tensor_arg("self", kRealHBBF16Types),
    runtime::bool_arg("non_blocking"),
    runtime::optional_int_list_arg("dim_order"),
    runtime::tensor_arg("out", kRealHBBF16Types),
};
inline constexpr runtime::OperatorContract kToDimOrderCopyContract = runtime::make_contract(
    "dim_order_ops::_to_dim_order_copy.out", kToDimOrderCopyArgs, nullptr, true);
runtime::Error to_dim_order_copy_prepare(runtime::PrepareContext& ctx);
runtime::Error to_dim_order_copy_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
