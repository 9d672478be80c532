#pragma once

// Which vector variants this build compiles. ETNS_FORCE_SCALAR (CMake option)
// clears them, so a build can measure what the vector code buys.
//   ETNS_HAVE_MVE    Helium (Armv8.1-M MVE, integer and float), e.g. Cortex-M55,
//                    from the compiler's own macros: no runtime CPU probing
//   ETNS_HAVE_HWY    host SIMD through Google Highway, set by the host build
//                    (ETNS_HOST_SIMD); the one variant picks its instruction
//                    set at run time from the CPU's features
#if defined(ETNS_FORCE_SCALAR)
#define ETNS_HAVE_MVE 0
#elif defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 3) == 3
#define ETNS_HAVE_MVE 1
#else
#define ETNS_HAVE_MVE 0
#endif

#if defined(ETNS_FORCE_SCALAR) || !defined(ETNS_HAVE_HWY)
#undef ETNS_HAVE_HWY
#define ETNS_HAVE_HWY 0
#endif

#include <cstddef>

namespace etns::kernels {

// Scratch sizes are computed on every target as the Cortex-M55 needs them (the
// host budgets the device's scratch, so both refuse the same programs); a
// pointer held in scratch takes this many bytes there.
inline constexpr size_t kDevicePointerBytes = 4;
#if ETNS_HAVE_MVE
static_assert(sizeof(void*) == kDevicePointerBytes, "Helium targets are 32-bit");
#endif

}  // namespace etns::kernels
