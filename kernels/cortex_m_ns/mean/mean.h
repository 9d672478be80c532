#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/requantize.h"
#include "runtime/exec/kernel.h"

// cortex_m_ns::quantized_mean.out on int8 (docs/numerics.md#mean, operators.md §3.5).
// The contiguous input is viewed as [outer, reduce, inner]; for each (o, i):
//   acc = sum over r of (in[o, r, i] - in_zero_point)        (exact int32)
//   out[o, i] = clamp(RQ(acc, out) + out_zero_point, -128, 127)
// The division by the count is folded into out = QM(s_in / (s_out * count)).
// prepare bounds reduce by 2^31 / 255 so acc cannot overflow.
namespace etns::cortex_m_ns {

struct MeanParams {
  int32_t in_zero_point = 0;
  int32_t out_zero_point = 0;
  kernels::Requant out;
};

// What prepare stores for run: the parameters and the [outer, reduce, inner] view.
struct MeanState {
  MeanParams params;
  size_t outer = 0;
  size_t reduce = 0;
  size_t inner = 0;
};

// in holds outer * reduce * inner bytes, out outer * inner.
using MeanFn = void (*)(const MeanParams& p, const int8_t* in, int8_t* out, size_t outer,
                        size_t reduce, size_t inner);

void mean_s8_ref(const MeanParams& p, const int8_t* in, int8_t* out, size_t outer, size_t reduce,
                 size_t inner);
// The compile-time choice of implementation; today the reference.
void mean_s8(const MeanParams& p, const int8_t* in, int8_t* out, size_t outer, size_t reduce,
             size_t inner);

// Validates the 8 schema arguments (InvalidArgument; InvalidProgram for a wrong
// value kind; NotSupported for a mask reducing dims that are not adjacent once
// size-1 dims are dropped) and stores a MeanState in the method arena (OutOfMemory).
runtime::Error mean_prepare(runtime::PrepareContext& ctx);
runtime::Error mean_run(const runtime::RunContext& ctx);

}  // namespace etns::cortex_m_ns
