#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/exec/kernel.h"

namespace etns::cortex_m {

// cortex_m::minimum.out: elementwise int8 minimum (operators.md §2.4).
// Numerics (docs/numerics.md#minimum): out[i] = min(self[i], other[i]) on the
// raw int8 values, no requantization (the exporter emits it only when both
// operands share quantization). A one-element operand is broadcast to every
// element, as in tier1's min(x, 50).
struct MinimumParams {
  size_t self_stride = 1;   // 0 when self has one element
  size_t other_stride = 1;  // 0 when other has one element
};

void minimum_s8_ref(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                    size_t n);
// The implementation this build uses.
void minimum_s8(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out,
                size_t n);

// Arguments: self, other, out (all int8). prepare returns InvalidArgument for
// another dtype, for out differing from the broadcast shape, or for tensors that
// share sizes but not dim order; NotSupported for broadcasting other than
// identical shapes or a one-element operand; InvalidProgram for a wrong kind of
// argument.
runtime::Error minimum_prepare(runtime::PrepareContext& ctx);
runtime::Error minimum_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m
