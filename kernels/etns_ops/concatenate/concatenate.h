#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::concatenate.out (docs/numerics.md#concatenate): up to ten tensors
// joined along one dim in one pass. Along `axis`, out holds x0's elements,
// then x1's, ... (the given inputs in order); every other dim is equal in all
// of them. No arithmetic: the elements are copied as they are. `etns import`
// writes TFLite's CONCATENATION (and PACK of activations) with it.
namespace etns::etns_ops {

// TFLite Micro's CONCATENATION takes at most 10 inputs (kMaxInputNum).
inline constexpr size_t kConcatenateMaxInputs = 10;

// The walk prepare derives in memory order: `outer` rows, each holding every
// input's row in turn, input i's `row_bytes[i]` bytes long.
struct ConcatenateParams {
  int32_t outer = 1;
  int32_t count = 1;  // inputs given: x0 ... x{count-1}
  int32_t row_bytes[kConcatenateMaxInputs] = {};
};
ETNS_TARGET_LAYOUT(ConcatenateParams,
                   runtime::StructLayout().member(runtime::fixed<int32_t>(), 2 + kConcatenateMaxInputs).done());

// inputs[i] holds p.outer rows of p.row_bytes[i] bytes; out receives them interleaved.
using ConcatenateFn = void (*)(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out);

// The definition: one byte at a time.
void concatenate_ref(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out);
#if ETNS_HAVE_MVE
// Helium: each input row one tail-predicated 16-byte copy loop.
void concatenate_mve(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out);
#endif
// The build's choice, the last of kConcatenateVariants (below).
void concatenate(const ConcatenateParams& p, const uint8_t* const* inputs, uint8_t* out);

// The contract. x0 is required, x1 ... x9 optional (None after the last
// input given: the given ones come first). Every given input and out are
// int8 or int32 (one dtype), of one rank and one dim order (any); their
// sizes are equal but along `axis` (a logical dim of out, in [0, rank)),
// where the inputs' sum to out's. out never overlaps an input.
inline constexpr runtime::ArgSpec kConcatenateArgs[] = {
    runtime::tensor_arg("x0", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x1", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x2", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x3", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x4", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x5", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x6", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x7", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x8", runtime::kInt8 | runtime::kInt32),
    runtime::optional_tensor_arg("x9", runtime::kInt8 | runtime::kInt32),
    runtime::int_arg("axis"),
    runtime::tensor_arg("out", runtime::kInt8 | runtime::kInt32),
};
inline constexpr runtime::OperatorContract kConcatenateContract =
    runtime::make_contract("etns_ops::concatenate.out", kConcatenateArgs, nullptr, true);

// prepare returns InvalidArgument for an input given after a None, an input
// of another dtype, rank or dim order than out, an axis outside [0, rank),
// sizes that differ off the axis or do not sum to out's along it;
// NotSupported for an out above 2^31 - 1 bytes. It stores ConcatenateParams
// in the method arena (OutOfMemory).
runtime::Error concatenate_prepare(runtime::PrepareContext& ctx);
runtime::Error concatenate_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::ConcatenateFn> kConcatenateVariants[] = {
    {"ref", &etns_ops::concatenate_ref},
    ETNS_MVE_VARIANT(&etns_ops::concatenate_mve)
};

}  // namespace etns::kernels
