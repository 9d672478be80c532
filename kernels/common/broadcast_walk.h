#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

namespace etns::kernels {

// The walk shared by cortex_m::minimum.out and cortex_m::maximum.out
// (docs/numerics.md#minimum): out is a row-major [dims[0], dims[1], dims[2],
// dims[3]] block, and element (i, j, k, l) reads self at i*s[0] + j*s[1] +
// k*s[2] + l*s[3] (s = self_strides; likewise other). A broadcast dim has
// stride 0. Size-1 dims are dropped and dims that walk both operands
// contiguously are merged, so tier1's min(x, 50) is dims {1, 1, 1, 16384},
// self strides {0, 0, 0, 1}, other strides all 0.
struct BroadcastWalk {
  size_t dims[4] = {1, 1, 1, 1};
  size_t self_strides[4] = {0, 0, 0, 0};
  size_t other_strides[4] = {0, 0, 0, 0};
};
ETNS_TARGET_LAYOUT(BroadcastWalk, runtime::StructLayout().member(runtime::word(abi), 12).done());

// The operator's self, other and out, from its contract.
struct BroadcastArgs {
  runtime::Arg self;
  runtime::Arg other;
  runtime::Arg out;
};
// The contract's "self", "other" and out; in a constant expression a contract
// without those names does not compile.
constexpr BroadcastArgs broadcast_args(const runtime::OperatorContract& contract) {
  return BroadcastArgs{contract.arg("self"), contract.arg("other"), contract.out()};
}

// Checks self, other and out (int8 by the operator's contract) the way
// upstream's op_minimum.cpp / op_maximum.cpp accept them and plans the walk.
// `cmsis_name` ("arm_minimum_s8") names upstream's kernel in the refusals.
// Returns InvalidArgument for shapes that do not broadcast, an out of another
// shape, a rank above 5, or operands of one shape (or a one-element operand)
// whose memory order differs from out's; NotSupported where upstream's kernel
// would compute something else than the broadcast: general broadcasting of a
// tensor whose memory order is not its logical order, rank 5 with a leading
// dim other than 1, and the row-scalar walk that skips elements.
runtime::Result<BroadcastWalk> plan_broadcast_walk(runtime::PrepareContext& ctx,
                                                   const BroadcastArgs& args,
                                                   const char* cmsis_name);
// plan_broadcast_walk, kept as the operator's state (the whole of minimum's and
// maximum's prepare).
runtime::Error prepare_broadcast_walk(runtime::PrepareContext& ctx, const BroadcastArgs& args,
                                      const char* cmsis_name);

// The reference walk: out[...] = op(self[...], other[...]) in out's order.
template <typename Op>
void broadcast_walk_s8(const BroadcastWalk& p, const int8_t* self, const int8_t* other, int8_t* out,
                       Op op) {
  for (size_t i = 0; i < p.dims[0]; ++i) {
    for (size_t j = 0; j < p.dims[1]; ++j) {
      for (size_t k = 0; k < p.dims[2]; ++k) {
        const int8_t* a =
            self + i * p.self_strides[0] + j * p.self_strides[1] + k * p.self_strides[2];
        const int8_t* b =
            other + i * p.other_strides[0] + j * p.other_strides[1] + k * p.other_strides[2];
        for (size_t l = 0; l < p.dims[3]; ++l) {
          *out++ = op(a[l * p.self_strides[3]], b[l * p.other_strides[3]]);
        }
      }
    }
  }
}

// The row walk of the Helium variants: each innermost row goes to
// Rows::row(a, b, out, n) (both operands contiguous) or
// Rows::scalar_row(s, b, out, n) (one operand's byte repeated; the operation
// must be symmetric). Returns false, having written nothing, for innermost
// strides other than 0 and 1 or a row of two repeated operands; prepare never
// plans those.
template <typename Rows>
bool broadcast_walk_rows(const BroadcastWalk& p, const int8_t* self, const int8_t* other,
                         int8_t* out) {
  const size_t n = p.dims[3];
  const size_t self_step = p.self_strides[3];
  const size_t other_step = p.other_strides[3];
  if (self_step > 1 || other_step > 1 || (self_step == 0 && other_step == 0 && n > 1)) {
    return false;
  }
  for (size_t i = 0; i < p.dims[0]; ++i) {
    for (size_t j = 0; j < p.dims[1]; ++j) {
      for (size_t k = 0; k < p.dims[2]; ++k) {
        const int8_t* a =
            self + i * p.self_strides[0] + j * p.self_strides[1] + k * p.self_strides[2];
        const int8_t* b =
            other + i * p.other_strides[0] + j * p.other_strides[1] + k * p.other_strides[2];
        if (self_step == 0) {
          Rows::scalar_row(*a, b, out, n);
        } else if (other_step == 0) {
          Rows::scalar_row(*b, a, out, n);
        } else {
          Rows::row(a, b, out, n);
        }
        out += n;
      }
    }
  }
  return true;
}

}  // namespace etns::kernels
