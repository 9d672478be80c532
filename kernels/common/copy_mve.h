#pragma once

// The Helium byte copy the data-movement kernels share (Cortex-M55 builds
// only): out[0, n) = in[0, n) as one tail-predicated low-overhead loop
// (wlstp/letp), 16 bytes a pass and the last pass only the remaining ones,
// no separate tail. GCC 12 does not form these loops from intrinsics, hence
// the assembly. n = 0 copies nothing (wlstp skips the loop).
#include "kernels/common/isa.h"

#if ETNS_HAVE_MVE
#include <cstddef>

namespace etns::kernels {

inline void copy_bytes_mve(const void* in, void* out, size_t n) {
  const void* from = in;
  void* to = out;
  asm volatile(
      "   wlstp.8 lr, %[n], 2f\n"
      "1: vldrb.8 q0, [%[in]], #16\n"
      "   vstrb.8 q0, [%[out]], #16\n"
      "   letp    lr, 1b\n"
      "2:\n"
      : [in] "+r"(from), [out] "+r"(to)
      : [n] "r"(n)
      : "q0", "lr", "memory");
}

}  // namespace etns::kernels
#endif  // ETNS_HAVE_MVE
