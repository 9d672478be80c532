#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::channel_lookup.out on int8 (docs/numerics.md#channel_lookup): a
// table per channel. With c an element's index along `dim`,
//   out[i] = tables[c, (uint8_t)self[i]]
// Each table holds any int8 -> int8 function indexed by the input's raw byte
// (entry (uint8_t)q is f_c(q)); the program's writer computes them, so the
// kernel has no arithmetic of its own. `etns import` fills them by running
// TFLite Micro's PRELU arithmetic on all 256 codes for each channel's alpha.
namespace etns::etns_ops {

// self seen as `pixels` runs of `channels` consecutive bytes (dim is the
// innermost dim in memory that is not of size 1).
struct ChannelLookupParams {
  int32_t pixels = 0;
  int32_t channels = 0;
};
ETNS_TARGET_LAYOUT(ChannelLookupParams, runtime::StructLayout().member(runtime::fixed<int32_t>(), 2).done());

// tables holds channels * 256 bytes, table c at c * 256.
using ChannelLookupFn = void (*)(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out);

// The definition: one table read per element.
void channel_lookup_s8_ref(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out);
#if ETNS_HAVE_MVE
// Helium: 8 channels a pass, the bytes widened to 16-bit offsets
// (channel * 256 + code) and gathered from the tables, tail-predicated; more
// than 256 channels (offsets past 16 bits) take the reference's loop.
void channel_lookup_s8_mve(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out);
#endif
// The build's choice, the last of kChannelLookupVariants (below).
void channel_lookup_s8(const ChannelLookupParams& p, const int8_t* tables, const int8_t* in, int8_t* out);

// Entries per table: one per int8 code.
inline constexpr size_t kChannelLookupEntries = 256;

// The contract. self and out are int8 with equal sizes in one memory order;
// dim (negative counts from the end) is the channel dim, and every dim after
// it in memory has size 1, so each run of channels is contiguous; tables is
// a constant int8 tensor of self.size(dim) * 256 elements, row-major. out
// may be self's memory exactly: every variant reads an element before it
// writes it.
inline constexpr runtime::ArgSpec kChannelLookupArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::tensor_arg("tables", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::int_arg("dim"),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kChannelLookupContract = runtime::make_contract(
    "etns_ops::channel_lookup.out", kChannelLookupArgs, nullptr /*no output zero point arg*/, false,
    runtime::kRunsInPlace);

// prepare returns InvalidArgument for self and out of different sizes or
// memory orders, a dim outside self's rank, a dim with a non-1 dim after it
// in memory, or tables of other than self.size(dim) * 256 elements;
// NotSupported for tables that are not a constant (read in place, checked at
// load) or a self above 2^31 - 1 elements. It stores ChannelLookupParams in
// the method arena (OutOfMemory).
runtime::Error channel_lookup_prepare(runtime::PrepareContext& ctx);
runtime::Error channel_lookup_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::ChannelLookupFn> kChannelLookupVariants[] = {
    {"ref", &etns_ops::channel_lookup_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::channel_lookup_s8_mve)
};

}  // namespace etns::kernels
