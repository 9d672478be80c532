#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/ns_activation.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/hard_swish_table.h"

// HARD_SWISH on int8 as etns_ops::lookup_table with TFLM's 16-bit fixed-point
// arithmetic in the table (tflm/hard_swish_table.h); in an ns import on
// cortex_m_ns::quantized_hardswish where that gives the table's bytes
// (ns_activation.h).
namespace etns::tools::builtins {

void import_hard_swish(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::HardSwishParams p =
      tflm::hard_swish_params(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, c.where());
  const std::array<int8_t, 256> table = tflm::hard_swish_table(p);
  call_activation(c, u, table, ns_hard_swish(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, table));
}

}  // namespace etns::tools::builtins
