#include "kernels/cortex_m/maximum/maximum.h"

#if ETNS_HAVE_MVE
#include "kernels/common/broadcast_walk_mve.h"

namespace etns::cortex_m {
namespace {

ETNS_S8_BINARY_ROWS(MaximumRows, "vmax.s8")

}  // namespace

void maximum_s8_mve(const MaximumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  if (!kernels::broadcast_walk_rows<MaximumRows>(p, self, other, out)) {
    maximum_s8_ref(p, self, other, out);
  }
}

}  // namespace etns::cortex_m

#endif  // ETNS_HAVE_MVE
