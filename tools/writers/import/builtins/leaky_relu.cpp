#include <array>
#include <cstdint>

#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/ns_activation.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/leaky_relu_table.h"

// LEAKY_RELU on int8 as etns_ops::lookup_table: no cortex_m:: operator
// computes it, and an int8 -> int8 function is 256 bytes, so the table is
// TFLM's arithmetic run on every code at import (tflm::leaky_relu_table). In
// an ns import it runs on cortex_m_ns::quantized_leaky_relu where that gives
// the table's bytes (ns_activation.h).
namespace etns::tools::builtins {

void import_leaky_relu(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::LeakyReluParams p = tflm::leaky_relu_params(u.in.scale, u.in.zero_point, u.out.scale,
                                                          u.out.zero_point, c.options().alpha, c.where());
  call_activation(c, u, tflm::leaky_relu_table(p), ns_leaky_relu(p));
}

}  // namespace etns::tools::builtins
