#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/tanh_table.h"

// TANH on int8 as etns_ops::lookup_table with TFLM's gemmlowp fixed-point tanh
// in the table (tflm/tanh_table.h). TFLM reads nothing of the output's
// quantisation (its bytes are tanh in steps of 1/128), so neither do we.
namespace etns::tools::builtins {

void import_tanh(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  call_lookup_table(c, u, tflm::tanh_table(tflm::sigmoid_input(u.in.scale, u.in.zero_point, c.where())));
}

}  // namespace etns::tools::builtins
