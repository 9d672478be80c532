#include <algorithm>

#include "kernels/cortex_m/minimum/minimum.h"

namespace etns::cortex_m {

// CMSIS-NN arm_minimum_s8 for every case prepare accepts: out in row-major
// order over p.dims, each operand read through its strides (0 = broadcast).
void minimum_s8_ref(const MinimumParams& p, const int8_t* self, const int8_t* other, int8_t* out) {
  for (size_t i = 0; i < p.dims[0]; ++i) {
    for (size_t j = 0; j < p.dims[1]; ++j) {
      for (size_t k = 0; k < p.dims[2]; ++k) {
        const int8_t* a = self + i * p.self_strides[0] + j * p.self_strides[1] +
                          k * p.self_strides[2];
        const int8_t* b = other + i * p.other_strides[0] + j * p.other_strides[1] +
                          k * p.other_strides[2];
        for (size_t l = 0; l < p.dims[3]; ++l) {
          *out++ = std::min(a[l * p.self_strides[3]], b[l * p.other_strides[3]]);
        }
      }
    }
  }
}

}  // namespace etns::cortex_m
