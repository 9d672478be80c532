#include "kernels/cortex_m/dequantize/dequantize.h"
#include "tools/writers/import/builtins/builtins.h"

// DEQUANTIZE of an int8 tensor to float32: cortex_m::dequantize_per_tensor.
namespace etns::tools::builtins {

void import_dequantize(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const Grid in = c.int8_grid(x);
  if (c.tensor(y).type != tflite::TensorType::Float32) {
    c.fail("output is " + tflite::to_string(c.tensor(y).type) + ", expected float32");
  }
  const Form form = c.elementwise_form(x);
  const int32_t gx = c.use(x, form);
  const int32_t gy = c.define(y, form);
  c.per_tensor(cortex_m::kDequantizeContract, gx, {static_cast<double>(in.scale), in.zero_point}, gy);
}

}  // namespace etns::tools::builtins
