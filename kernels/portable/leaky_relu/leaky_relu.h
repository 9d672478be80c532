#pragma once

#include "kernels/portable/portable_contracts.h"

namespace etns::portable {

// aten::leaky_relu.out(self, negative_slope, out). self and out float32, same
// sizes and dim order. slope = (float)negative_slope (Int or Double, within
// float32 range); walking the flat buffer, out = x >= 0 ? x : x * slope, one
// rounded multiply. -0.0 and NaN pass through (as x and x * slope).
// self and out may be any floating type (upstream's rule); prepare refuses
// out of another dtype than self's or sizes or dim orders that differ
// (InvalidArgument), and another floating type than float32 (NotSupported).
inline constexpr runtime::ArgSpec kLeakyReluArgs[] = {
    runtime::tensor_arg("self", kFloatingTypes),
    runtime::scalar_arg("negative_slope"),
    runtime::tensor_arg("out", kFloatingTypes),
};
inline constexpr runtime::OperatorContract kLeakyReluContract =
    runtime::make_contract("aten::leaky_relu.out", kLeakyReluArgs, nullptr, false, runtime::kRunsInPlace);
runtime::Error leaky_relu_prepare(runtime::PrepareContext& ctx);
runtime::Error leaky_relu_run(const runtime::RunContext& ctx);

}  // namespace etns::portable
