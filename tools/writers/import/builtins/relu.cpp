#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/ns_activation.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/relu_table.h"

// RELU, RELU_N1_TO_1 and RELU6 on int8 as etns_ops::lookup_table with TFLM's
// arithmetic in the table (tflm/relu_table.h; RELU_N1_TO_1, which TFLM does
// not register, follows TFLite's kernel). In an ns import each runs on
// cortex_m_ns::quantized_relu where that gives the table's bytes
// (ns_activation.h).
namespace etns::tools::builtins {

void import_relu(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::ReluParams p =
      tflm::relu_params(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, c.where());
  call_activation(c, u, tflm::relu_table(p), ns_relu(p));
}

void import_relu_n1_to_1(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::ReluParams p =
      tflm::relu_n1_to_1_params(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, c.where());
  call_activation(c, u, tflm::relu_table(p), ns_relu(p));
}

void import_relu6(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const tflm::Relu6Params p = tflm::relu6_params(u.in.scale, u.in.zero_point, c.where());
  call_activation(c, u, tflm::relu6_table(p), ns_relu6(p));
}

}  // namespace etns::tools::builtins
