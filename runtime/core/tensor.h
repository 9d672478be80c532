#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/scalar_type.h"
#include "runtime/core/target_layout.h"

namespace etns::runtime {

constexpr size_t kMaxTensorRank = 16;

// A tensor as the program describes it. `sizes` and `dim_order` point into the
// loaded program (they live as long as it); `data` points into a planned arena
// or the constant segment. Sizes are logical (PyTorch order); `dim_order`
// lists dims from outermost to innermost in memory.
struct Tensor {
  ScalarType dtype = ScalarType::Float;
  uint8_t rank = 0;
  const int32_t* sizes = nullptr;
  const uint8_t* dim_order = nullptr;
  void* data = nullptr;
  size_t numel = 1;
  size_t nbytes = 0;
  bool is_constant = false;

  int32_t size(size_t dim) const { return sizes[dim]; }

  // dim_order is 0, 1, ..., rank-1.
  bool is_contiguous() const {
    for (uint8_t i = 0; i < rank; ++i) {
      if (dim_order[i] != i) return false;
    }
    return true;
  }
  // 4-D with dim_order [0, 2, 3, 1] (NHWC in memory).
  bool is_channels_last() const {
    return rank == 4 && dim_order[0] == 0 && dim_order[1] == 2 && dim_order[2] == 3 &&
           dim_order[3] == 1;
  }
  bool same_sizes(const Tensor& other) const {
    if (rank != other.rank) return false;
    for (uint8_t i = 0; i < rank; ++i) {
      if (sizes[i] != other.sizes[i]) return false;
    }
    return true;
  }
  bool same_dim_order(const Tensor& other) const {
    if (rank != other.rank) return false;
    for (uint8_t i = 0; i < rank; ++i) {
      if (dim_order[i] != other.dim_order[i]) return false;
    }
    return true;
  }

  // Row-major in memory: the dim order is 0, 1, ... once size-1 dims (which
  // take no room) are skipped.
  bool is_row_major_in_memory() const {
    int previous = -1;
    for (uint8_t i = 0; i < rank; ++i) {
      const uint8_t dim = dim_order[i];
      if (sizes[dim] == 1) continue;
      if (static_cast<int>(dim) < previous) return false;
      previous = dim;
    }
    return true;
  }
  // A 4-D tensor held in N, H, W, C order: channels_last, or contiguous where C
  // or H * W is 1 (upstream accepts any dim order there).
  bool is_nhwc_in_memory() const {
    if (is_channels_last()) return true;
    return rank == 4 && is_contiguous() && (sizes[1] == 1 || (sizes[2] == 1 && sizes[3] == 1));
  }

  template <typename T>
  T* data_as() const {
    return static_cast<T*>(data);
  }
};

ETNS_TARGET_LAYOUT(Tensor, StructLayout()
                               .member(fixed<ScalarType>())  // dtype
                               .member(fixed<uint8_t>())     // rank
                               .member(word(abi), 3)         // sizes, dim_order, data
                               .member(word(abi), 2)         // numel, nbytes
                               .member(fixed<bool>())        // is_constant
                               .done());

}  // namespace etns::runtime
