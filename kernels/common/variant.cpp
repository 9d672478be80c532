#include "kernels/common/variant.h"

#if !(ETNS_HAVE_MVE || defined(ETNS_REFERENCE_KERNELS))
#include <atomic>

#if ETNS_HAVE_HWY
#include "kernels/common/hwy_targets.h"
#endif

namespace etns::kernels {
namespace {

// Relaxed: it is set before methods run, and every kernel call only reads it.
std::atomic<bool> g_reference_kernels{false};

#if ETNS_HAVE_HWY
// Every host kernel call goes through this file (fastest), so this runs in
// every binary that runs kernels, before the first dispatch.
[[maybe_unused]] const bool g_targets_checked = (disable_unrunnable_hwy_targets(), true);
#endif

}  // namespace

void set_reference_kernels(bool on) { g_reference_kernels.store(on, std::memory_order_relaxed); }

bool reference_kernels() { return g_reference_kernels.load(std::memory_order_relaxed); }

}  // namespace etns::kernels
#endif
