#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

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

}  // namespace etns::portable
