#include "tools/writers/import/builtins/unary_table.h"

#include <vector>

#include "kernels/etns_ops/lookup_table/lookup_table.h"

namespace etns::tools::builtins {

UnaryInt8 unary_int8(OperatorImport& c) {
  UnaryInt8 u;
  u.x = c.input(0);
  u.y = c.output();
  const tflite::TensorType in_type = c.tensor(u.x).type, out_type = c.tensor(u.y).type;
  if (in_type != out_type) {
    c.fail(c.tensor_label(u.x) + " is " + tflite::to_string(in_type) + " and " + c.tensor_label(u.y) + " is " +
           tflite::to_string(out_type) + " (TFLite Micro needs one type)");
  }
  u.in = c.int8_grid(u.x);
  u.out = c.int8_grid(u.y);
  if (c.shape(u.x) != c.shape(u.y)) {
    c.fail(c.tensor_label(u.x) + " " + tflite::shape_text(c.shape(u.x)) + " and " + c.tensor_label(u.y) + " " +
           tflite::shape_text(c.shape(u.y)) + " differ in shape");
  }
  return u;
}

void call_lookup_table(OperatorImport& c, const UnaryInt8& u, const std::array<int8_t, 256>& table) {
  const Form form = c.elementwise_form(u.x);
  const int32_t gx = c.use(u.x, form);
  const int32_t gy = c.define(u.y, form);
  const int32_t gt = c.graph().tensor(c.name("table"), runtime::ScalarType::Char, {256}, contiguous_order(1),
                                      GraphTensor::Role::Constant,
                                      std::vector<uint8_t>(table.begin(), table.end()));
  c.call(etns_ops::kLookupTableContract, {{"self", GraphArg::of_tensor(gx)},
                                          {"table", GraphArg::of_tensor(gt)},
                                          {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
