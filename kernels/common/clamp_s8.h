#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"

namespace etns::kernels {

#if ETNS_HAVE_HWY
// out[i] = min(max(in[i], lo), hi) (hi wins where lo > hi), host SIMD (Highway, target
// picked at run time). in and out are the same buffer or do not overlap.
// One definition for every int8 clamp on the host: quantized_relu's identity
// path and the portable clamp's int8 rows.
void clamp_s8_hwy(const int8_t* in, int8_t* out, size_t n, int8_t lo, int8_t hi);
#endif

}  // namespace etns::kernels
