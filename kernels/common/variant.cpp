#include "kernels/common/variant.h"

#if !(ETNS_HAVE_MVE || defined(ETNS_REFERENCE_KERNELS))
#include <atomic>

namespace etns::kernels {
namespace {

// Relaxed: it is set before methods run, and every kernel call only reads it.
std::atomic<bool> g_reference_kernels{false};

}  // namespace

void set_reference_kernels(bool on) { g_reference_kernels.store(on, std::memory_order_relaxed); }

bool reference_kernels() { return g_reference_kernels.load(std::memory_order_relaxed); }

}  // namespace etns::kernels
#endif
