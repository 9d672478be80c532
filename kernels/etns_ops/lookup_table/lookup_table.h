#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/byte_table.h"
#include "kernels/common/isa.h"
#include "kernels/common/variant.h"
#include "runtime/core/target_layout.h"
#include "runtime/exec/kernel.h"
#include "runtime/exec/operator_contract.h"

// etns_ops::lookup_table.out on int8 (docs/numerics.md#lookup_table): per
// element, out[i] = table[(uint8_t)self[i]]. The table holds any int8 -> int8
// elementwise function, indexed by the input's raw byte (kernels::ByteTable's
// layout: entry (uint8_t)q is f(q)); the program's writer computes it, so the
// kernel has no arithmetic of its own. `etns import` fills it by running
// TFLite Micro's arithmetic on all 256 codes (LEAKY_RELU).
namespace etns::etns_ops {

struct LookupTableParams {
  // The program's table, copied at prepare, so run reads one table in the
  // method arena whatever memory the constant lives in.
  kernels::ByteTable table;
};
ETNS_TARGET_LAYOUT(LookupTableParams,
                   runtime::StructLayout().member(runtime::layout_of<kernels::ByteTable>(abi)).done());

using LookupTableFn = void (*)(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n);

// The definition: one table read per element.
void lookup_table_s8_ref(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// Helium: 16-lane byte gathers from p.table (kernels::lookup_s8_mve).
void lookup_table_s8_mve(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// Host SIMD (Highway, target picked at run time): byte shuffles over p.table
// (kernels::lookup_s8_hwy).
void lookup_table_s8_hwy(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n);
#endif
// The build's choice, the last of kLookupTableVariants (below).
void lookup_table_s8(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n);

// The number of entries `table` must hold: one per int8 code.
inline constexpr size_t kLookupTableEntries = 256;

// The contract. self and out are int8 with equal sizes in one memory order
// (any dim order: the kernel walks the flat buffers); table is a constant
// int8 tensor of exactly 256 elements, row-major. out has no zero point
// argument (the table holds the output grid), and it may be self's memory
// exactly: every variant reads an element before it writes it.
inline constexpr runtime::ArgSpec kLookupTableArgs[] = {
    runtime::tensor_arg("self", runtime::kInt8),
    runtime::tensor_arg("table", runtime::kInt8, runtime::Shape::RowMajor),
    runtime::tensor_arg("out", runtime::kInt8),
};
inline constexpr runtime::OperatorContract kLookupTableContract = runtime::make_contract(
    "etns_ops::lookup_table.out", kLookupTableArgs, nullptr /*no output zero point arg*/, false,
    runtime::kRunsInPlace);

// prepare returns InvalidArgument for self and out of different sizes or
// memory orders, or a table of other than 256 elements; NotSupported for a
// table that is not a constant (its values are copied once, at load); the
// contract's kinds and dtypes are checked before it runs. It copies the table
// into LookupTableParams in the method arena (OutOfMemory).
runtime::Error lookup_table_prepare(runtime::PrepareContext& ctx);
runtime::Error lookup_table_run(const runtime::RunContext& ctx);

}  // namespace etns::etns_ops

// The compiled variants, from the reference (the definition of the numerics)
// to the fastest; the front door runs the last (kernels::fastest), and the
// variant tests check every other entry against the first.
namespace etns::kernels {

inline constexpr Variant<etns_ops::LookupTableFn> kLookupTableVariants[] = {
    {"ref", &etns_ops::lookup_table_s8_ref},
    ETNS_MVE_VARIANT(&etns_ops::lookup_table_s8_mve)
    ETNS_HWY_VARIANT(&etns_ops::lookup_table_s8_hwy)
};

}  // namespace etns::kernels
