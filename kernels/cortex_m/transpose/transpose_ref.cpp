#include "kernels/cortex_m/transpose/transpose.h"

namespace etns::cortex_m {

// CMSIS-NN arm_transpose_s8: every out element, in out's order, from the input
// element at the permuted index. The plan holds that index walk as strides.
void transpose_s8_ref(const TransposeParams& p, const int8_t* input, int8_t* out) {
  kernels::run_strided_copy(p.plan, input, out);
}

}  // namespace etns::cortex_m
