#include <cstdint>

// Highway before 1.3 (Debian 12 ships 1.0.3) measures its timer's resolution
// in a static initializer of its nanobenchmark, so every process that loads
// libhwy.so spends it at start: 6 to 12 ms here, more than most etns
// commands take (upstream defers it since google/highway PR #2440). etns
// never uses the nanobenchmark, so the CLI defines that one function itself:
// the library calls it through its PLT, the definition exported from the
// executable comes first in the lookup, and start-up no longer waits.
// Built only against such a Highway (tools/CMakeLists.txt); the test
// cli_start_up_skips_hwy_timer checks the binding.
namespace hwy::platform {

uint64_t TimerResolution() { return 1; }

}  // namespace hwy::platform
