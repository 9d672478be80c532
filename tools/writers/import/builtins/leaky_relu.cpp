#include <array>
#include <cstdint>
#include <vector>

#include "kernels/etns_ops/lookup_table/lookup_table.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/tflm/leaky_relu_table.h"

// LEAKY_RELU on int8 as etns_ops::lookup_table: no cortex_m:: operator
// computes it, and an int8 -> int8 function is 256 bytes, so the table is
// TFLM's arithmetic run on every code at import (tflm::leaky_relu_table).
namespace etns::tools::builtins {

void import_leaky_relu(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const tflite::TensorType in_type = c.tensor(x).type, out_type = c.tensor(y).type;
  if (in_type != out_type) {
    c.fail(c.tensor_label(x) + " is " + tflite::to_string(in_type) + " and " + c.tensor_label(y) + " is " +
           tflite::to_string(out_type) + " (TFLite Micro needs one type)");
  }
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  if (c.shape(x) != c.shape(y)) {
    c.fail(c.tensor_label(x) + " " + tflite::shape_text(c.shape(x)) + " and " + c.tensor_label(y) + " " +
           tflite::shape_text(c.shape(y)) + " differ in shape");
  }
  const tflm::LeakyReluParams p =
      tflm::leaky_relu_params(in.scale, in.zero_point, out.scale, out.zero_point, c.options().alpha, c.where());
  const std::array<int8_t, 256> table = tflm::leaky_relu_table(p);

  const Form form = c.elementwise_form(x);
  const int32_t gx = c.use(x, form);
  const int32_t gy = c.define(y, form);
  const int32_t gt = c.graph().tensor(c.name("table"), runtime::ScalarType::Char, {256}, contiguous_order(1),
                                      GraphTensor::Role::Constant,
                                      std::vector<uint8_t>(table.begin(), table.end()));
  c.call(etns_ops::kLookupTableContract, {{"self", GraphArg::of_tensor(gx)},
                                          {"table", GraphArg::of_tensor(gt)},
                                          {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
