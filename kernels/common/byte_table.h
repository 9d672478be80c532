#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/common/isa.h"
#include "runtime/core/target_layout.h"

// Any int8 -> int8 function with fixed parameters is a 256-entry table. The
// unary Tier-1 kernels (hardswish, leaky_relu, relu) fill one at prepare by
// running their reference on every code, so table and reference agree by
// construction, and their fast variants only look bytes up.
namespace etns::kernels {

// Indexed by the input's raw byte: values[static_cast<uint8_t>(q)] = f(q), so
// a vector gather can use the loaded bytes as offsets unchanged.
struct ByteTable {
  int8_t values[256];
};
ETNS_TARGET_LAYOUT(ByteTable, runtime::StructLayout().member(runtime::fixed<int8_t>(), 256).done());

// Every code in raw-byte order (0, 1, ..., 127, -128, ..., -1): what
// a reference runs on to fill a ByteTable.
void byte_table_inputs(int8_t (&codes)[256]);

// Fills `table` with reference(p, code) for every code.
template <typename Params>
void fill_byte_table(ByteTable& table, const Params& p,
                     void (*reference)(const Params&, const int8_t*, int8_t*, size_t)) {
  int8_t codes[256];
  byte_table_inputs(codes);
  reference(p, codes, table.values, 256);
}

// out[i] = table.values[(uint8_t)in[i]] for i < n: plain C++, any target.
void lookup_s8(const ByteTable& table, const int8_t* in, int8_t* out, size_t n);
#if ETNS_HAVE_MVE
// The same with Helium byte gathers, 16 lanes a step; the tail is predicated.
void lookup_s8_mve(const ByteTable& table, const int8_t* in, int8_t* out, size_t n);
#endif
#if ETNS_HAVE_HWY
// The same with host byte shuffles (Highway, target picked at run time), 16
// table chunks per vector of codes.
void lookup_s8_hwy(const ByteTable& table, const int8_t* in, int8_t* out, size_t n);
#endif

}  // namespace etns::kernels
