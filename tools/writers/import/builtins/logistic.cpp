#include <string>

#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/logistic_table.h"

// LOGISTIC on int8 as etns_ops::lookup_table with TFLM's gemmlowp fixed-point
// logistic in the table (tflm/logistic_table.h).
namespace etns::tools::builtins {

void import_logistic(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  // TFLM's Prepare: the int8 output's zero point is -128 (its scale is
  // assumed 1/256 and not read).
  if (u.out.zero_point != -128) {
    c.fail(c.tensor_label(u.y) + " has zero point " + std::to_string(u.out.zero_point) +
           " (TFLite Micro's int8 LOGISTIC needs -128)");
  }
  const tflm::SigmoidInput p = tflm::sigmoid_input(u.in.scale, u.in.zero_point, c.where());
  call_lookup_table(c, u, tflm::logistic_table(p));
}

}  // namespace etns::tools::builtins
