#include "kernels/cortex_m/minimum/minimum.h"

#if ETNS_HAVE_MVE
#include "kernels/common/broadcast_walk_mve.h"

namespace etns::cortex_m {
namespace {

ETNS_S8_BINARY_ROWS(MinimumRows, "vmin.s8")

}  // namespace

void minimum_s8_mve(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  if (!kernels::broadcast_walk_rows<MinimumRows>(p, self, other, out)) {
    minimum_s8_ref(p, self, other, out);
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
