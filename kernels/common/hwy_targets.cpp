#include "kernels/common/hwy_targets.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/common/hwy_targets.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace etns::kernels::HWY_NAMESPACE {

int64_t CompiledTarget() { return HWY_TARGET; }

}  // namespace etns::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace etns::kernels {

HWY_EXPORT(CompiledTarget);

namespace {

int64_t targets_run = 0;

}  // namespace

int64_t hwy_compiled_targets() { return HWY_TARGETS; }

// Highway 1.0.3's AVX3_DL target enables AVX-VNNI (VEX-encoded VNNI) beside
// AVX512-VNNI, and clang then encodes the 128- and 256-bit multiply-adds it
// forms from madd + add as {vex} vpdpwssd: an illegal instruction on CPUs
// with AVX3_DL but no AVX-VNNI (Ice Lake, Zen 4). Such a build skips AVX3_DL
// there. GCC keeps the EVEX encoding (hwy_no_vex_vnni checks the kernel
// test binary).
void disable_unrunnable_hwy_targets() {
#if defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
  if ((HWY_TARGETS & HWY_AVX3_DL) == 0) return;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool avx_vnni = __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax & (1u << 4)) != 0;
  if (!avx_vnni) hwy::DisableTargets(HWY_AVX3_DL);
#endif
}

int64_t hwy_supported_targets() { return hwy::SupportedTargets() & HWY_TARGETS; }

const char* hwy_target_name(int64_t target) { return hwy::TargetName(target); }

int64_t hwy_dispatched_target() { return HWY_DYNAMIC_DISPATCH(CompiledTarget)(); }

bool for_each_hwy_target(bool (*fn)(int64_t target, const char* name, void* context),
                         void* context) {
  // Read before forcing: a forced mask is returned as is, whatever the CPU has.
  const int64_t supported = hwy_supported_targets();
  bool all = true;
  // Lower bits are better targets.
  for (int64_t left = supported; left != 0 && all; left &= left - 1) {
    const int64_t target = left & -left;
    // Resets the cached dispatch too, so the next call picks `target`.
    hwy::SetSupportedTargetsForTest(target);
    targets_run |= target;
    all = fn(target, hwy::TargetName(target), context);
  }
  hwy::SetSupportedTargetsForTest(0);
  return all;
}

int64_t hwy_targets_run() { return targets_run; }

bool force_hwy_target(const char* name) {
  // A forced mask reads back as the supported targets: the CPU's own are
  // read with no target forced, and the mask before is put back on a refusal.
  const int64_t before = hwy::SupportedTargets();
  hwy::SetSupportedTargetsForTest(0);
  for (int64_t left = hwy_supported_targets(); left != 0; left &= left - 1) {
    const int64_t target = left & -left;
    if (std::strcmp(hwy::TargetName(target), name) == 0) {
      hwy::SetSupportedTargetsForTest(target);
      return true;
    }
  }
  hwy::SetSupportedTargetsForTest(before);
  return false;
}

bool apply_hwy_target_from_environment(char* error, size_t size) {
  const char* name = std::getenv("ETNS_HWY_TARGET");
  if (name == nullptr || name[0] == '\0' || force_hwy_target(name)) return true;
  char targets[256] = "";
  const int64_t before = hwy::SupportedTargets();
  hwy::SetSupportedTargetsForTest(0);  // the CPU's own, not a forced mask
  const int64_t runnable = hwy_supported_targets();
  hwy::SetSupportedTargetsForTest(before);
  for (int64_t left = runnable; left != 0; left &= left - 1) {
    std::strncat(targets, " ", sizeof(targets) - std::strlen(targets) - 1);
    std::strncat(targets, hwy::TargetName(left & -left), sizeof(targets) - std::strlen(targets) - 1);
  }
  std::snprintf(error, size, "ETNS_HWY_TARGET=%s: not a target this CPU runs (it runs:%s)", name, targets);
  return false;
}

void describe_hwy_targets_run(char* text, size_t size) {
  if (size == 0) return;
  size_t used = 0;
  const auto append = [&](const char* part) {
    const int wrote = std::snprintf(text + used, size - used, "%s", part);
    if (wrote > 0) used += static_cast<size_t>(wrote) < size - used ? static_cast<size_t>(wrote)
                                                                     : size - used - 1;
  };
  const auto list = [&](int64_t targets) {
    if (targets == 0) append(" none");
    for (int64_t left = targets; left != 0; left &= left - 1) {
      append(" ");
      append(hwy::TargetName(left & -left));
    }
  };
  text[0] = '\0';
  append("host SIMD variants run:");
  list(targets_run);
  append("; skipped (this CPU lacks them):");
  list(HWY_TARGETS & ~hwy_supported_targets());
}

}  // namespace etns::kernels
#endif  // HWY_ONCE
