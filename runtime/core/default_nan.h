#pragma once

#include <cstdint>

// One NaN on every target. Invalid float operations (0 / 0, inf - inf,
// inf * 0) make a negative default NaN on x86 and a positive one on Arm, and
// the two propagate NaN operands by different rules, so a float kernel could
// write other bytes on the host than on the M55. While a method executes, the
// Arm FPU runs in Default NaN mode (FPSCR.DN): every NaN an instruction makes
// is 0x7FC00000, for free. The host kernels write the same value in software
// (kernels/portable/canonical_nan.h). The caller's FPSCR is restored after.
namespace etns::runtime {

#if defined(__arm__) && defined(__ARM_FP)
inline constexpr bool kFpuMakesDefaultNan = true;

class DefaultNanScope {
 public:
  DefaultNanScope() {
    __asm volatile("vmrs %0, fpscr" : "=r"(saved_));
    const uint32_t with_dn = saved_ | (uint32_t{1} << 25);  // FPSCR.DN
    __asm volatile("vmsr fpscr, %0" : : "r"(with_dn));
  }
  ~DefaultNanScope() { __asm volatile("vmsr fpscr, %0" : : "r"(saved_)); }
  DefaultNanScope(const DefaultNanScope&) = delete;
  DefaultNanScope& operator=(const DefaultNanScope&) = delete;

 private:
  uint32_t saved_ = 0;
};
#else
inline constexpr bool kFpuMakesDefaultNan = false;

// The host's kernels canonicalise in software; the scope only marks where.
class DefaultNanScope {
 public:
  DefaultNanScope() {}  // user-provided: a scope object is not an unused variable
  DefaultNanScope(const DefaultNanScope&) = delete;
  DefaultNanScope& operator=(const DefaultNanScope&) = delete;
};
#endif

}  // namespace etns::runtime
