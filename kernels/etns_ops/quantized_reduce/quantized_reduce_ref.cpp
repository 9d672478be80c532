#include <algorithm>
#include <cstdint>

#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

namespace etns::etns_ops {

// quantized_reduce's numerics (docs/numerics.md#quantized_reduce); variants
// match it bit for bit. The accumulator is TFLite's temp_sum
// (tensorflow/lite/kernels/internal/reference/reduce.h, ReduceSumImpl: the raw
// codes summed in int32) or ReduceGeneric's running maximum from -128; TFLM
// walks the input in its own index order, which cannot change an exact integer
// sum or a maximum. finish_reduction is the rest of each branch.
void quantized_reduce_s8_ref(const QuantizedReduceParams& p, const ReduceGeometry& g, const int8_t* in,
                             int8_t* out) {
  const bool max = p.reduction == Reduction::Max;
  for (size_t o = 0; o < g.outer; ++o) {
    for (size_t m = 0; m < g.middle; ++m) {
      for (size_t i = 0; i < g.inner; ++i) {
        int32_t acc = max ? -128 : 0;
        for (size_t r = 0; r < g.reduce_outer; ++r) {
          for (size_t s = 0; s < g.reduce; ++s) {
            const size_t at = (((o * g.reduce_outer + r) * g.middle + m) * g.reduce + s) * g.inner + i;
            acc = max ? std::max<int32_t>(acc, in[at]) : acc + in[at];
          }
        }
        out[(o * g.middle + m) * g.inner + i] = finish_reduction(p, acc);
      }
    }
  }
}

}  // namespace etns::etns_ops
