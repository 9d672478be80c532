#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/hard_swish_table.h"

// HARD_SWISH on int8 as etns_ops::lookup_table with TFLM's 16-bit fixed-point
// arithmetic in the table (tflm/hard_swish_table.h).
namespace etns::tools::builtins {

void import_hard_swish(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::HardSwishParams p =
      tflm::hard_swish_params(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, c.where());
  call_lookup_table(c, u, tflm::hard_swish_table(p));
}

}  // namespace etns::tools::builtins
