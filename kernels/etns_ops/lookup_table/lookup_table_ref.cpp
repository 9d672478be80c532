#include <cstdint>

#include "kernels/etns_ops/lookup_table/lookup_table.h"

namespace etns::etns_ops {

// lookup_table's numerics (docs/numerics.md#lookup_table): the table is the
// function, indexed by the input's raw byte; variants match it bit for bit.
void lookup_table_s8_ref(const LookupTableParams& p, const int8_t* in, int8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = p.table.values[static_cast<uint8_t>(in[i])];
}

}  // namespace etns::etns_ops
