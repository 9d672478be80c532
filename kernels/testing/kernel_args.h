#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"

// Arguments for a kernel's prepare and run built by hand, without a program
// or the heap, so that front-door tests also run on the Cortex-M55 image.
namespace etns::kernels::testing {

// A rank-4 shape and its memory order; must outlive the tensors that use it.
struct Shape4d {
  int32_t sizes[4];
  uint8_t dim_order[4];
};

inline void set_s8_tensor(runtime::EValue& value, Shape4d& shape, int8_t* data) {
  value.kind = runtime::ValueKind::Tensor;
  value.tensor = runtime::Tensor{};
  value.tensor.dtype = runtime::ScalarType::Char;
  value.tensor.rank = 4;
  value.tensor.sizes = shape.sizes;
  value.tensor.dim_order = shape.dim_order;
  value.tensor.data = data;
  value.tensor.numel = static_cast<size_t>(shape.sizes[0]) * shape.sizes[1] * shape.sizes[2] *
                       shape.sizes[3];
  value.tensor.nbytes = value.tensor.numel;
}

inline void set_int(runtime::EValue& value, int64_t v) {
  value.kind = runtime::ValueKind::Int;
  value.int_value = v;
}

}  // namespace etns::kernels::testing
