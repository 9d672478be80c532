#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/target_layout.h"
#include "runtime/core/tensor.h"

// The element walk behind the portable data-movement operators (permute_copy,
// _to_dim_order_copy): out's elements in out's memory order, each read from
// wherever the same logical element sits in self. Planned once at prepare, so
// run is two pointer walks with no division.
namespace etns::kernels {

struct StridedCopyPlan {
  uint32_t rank = 0;          // dims left after merging, outermost first (0: one element)
  uint32_t element_bytes = 1;
  int32_t sizes[runtime::kMaxTensorRank] = {};
  // Element strides of each walked dim in self; out is written contiguously.
  int64_t self_strides[runtime::kMaxTensorRank] = {};
};
ETNS_TARGET_LAYOUT(StridedCopyPlan, runtime::StructLayout()
                                        .member(runtime::fixed<uint32_t>(), 2)
                                        .member(runtime::fixed<int32_t>(), runtime::kMaxTensorRank)
                                        .member(runtime::fixed<int64_t>(), runtime::kMaxTensorRank)
                                        .done());

// Element strides of `t` for each logical dim, from its sizes and dim order.
void logical_strides(const runtime::Tensor& t, int64_t* strides);

// Plans out[logical i] = self[logical source(i)], where out's logical dim d
// is self's logical dim `source_dim[d]` (identity for a layout change, the
// permutation for permute_copy). Both tensors have `rank` dims, the sizes
// agree (out.sizes[d] == self.sizes[source_dim[d]]) and one element size:
// the caller checked. Dims whose walk continues the next one in self are merged,
// so a copy between equal layouts is one run.
void plan_strided_copy(const runtime::Tensor& self, const runtime::Tensor& out, const uint8_t* source_dim,
                       StridedCopyPlan& plan);

// Runs a plan: out is written front to back.
void run_strided_copy(const StridedCopyPlan& plan, const void* self, void* out);

}  // namespace etns::kernels
