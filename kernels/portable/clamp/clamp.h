#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

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

}  // namespace etns::portable
