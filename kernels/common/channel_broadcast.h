#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/exec/kernel.h"

namespace etns::kernels {

// How quantized_mul and quantized_add pair their operands (upstream's rule,
// cortex_m_ops_common.h): identical sizes walked flat in one shared memory
// order, or a channel broadcast: both 4-D with the same C, one of them holding
// exactly those C values, repeated for every NHWC pixel of the other. `a` is
// the full-size operand; upstream swaps self and other (with their
// quantization) when self is the per-channel one.
struct ChannelBroadcast {
  bool a_is_other = false;  // other is the full-size operand
  size_t b_channels = 0;    // 0: identical sizes; else b's C values repeat every C elements
};

// Checks the shapes of self, other and out (as above; out the full operand's
// sizes); their dtypes are the operator's contract's (int8). InvalidArgument
// for shapes that are neither identical nor a channel broadcast, or an out or
// dim order that does not match; NotSupported for a channel broadcast whose
// full-size tensors are not in NHWC memory (upstream asks for channels_last
// without checking it).
runtime::Result<ChannelBroadcast> plan_channel_broadcast(const runtime::PrepareContext& ctx,
                                                         const runtime::Tensor& self,
                                                         const runtime::Tensor& other,
                                                         const runtime::Tensor& out);

// The walk every variant of add and mul shares: `rows(a, b, out, count)` once
// over the whole buffers when b_channels is 0 (b as long as a), else once per
// pixel of b_channels elements, b's channels reused for every pixel of a. n is
// a multiple of b_channels (out holds whole pixels; prepare's plan).
template <typename Rows>
inline void walk_channel_broadcast(size_t b_channels, const int8_t* a, const int8_t* b,
                                   int8_t* out, size_t n, Rows rows) {
  if (b_channels == 0) {
    rows(a, b, out, n);
    return;
  }
  for (size_t done = 0; done < n; done += b_channels) rows(a + done, b, out + done, b_channels);
}

}  // namespace etns::kernels
