#include "kernels/common/byte_table.h"

namespace etns::kernels {

void byte_table_inputs(int8_t (&codes)[256]) {
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(static_cast<uint8_t>(i));
}

void lookup_s8(const ByteTable& table, const int8_t* in, int8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = table.values[static_cast<uint8_t>(in[i])];
}

}  // namespace etns::kernels
