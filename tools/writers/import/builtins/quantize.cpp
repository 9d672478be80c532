#include "kernels/cortex_m/quantize/quantize.h"
#include "tools/writers/import/builtins/builtins.h"

// QUANTIZE of a float32 tensor: quantize_per_tensor, whose x * (1 / s)
// rounds to even where TFLM's round(x / s) rounds halves away from zero
// (docs/numerics.md: inputs on a tie, or within a float32 rounding of one,
// differ by one step).
namespace etns::tools::builtins {

void import_quantize(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  if (c.tensor(x).type != tflite::TensorType::Float32) {
    c.fail("requantises " + tflite::to_string(c.tensor(x).type) + " (only float32 -> int8 is imported)");
  }
  const Grid out = c.int8_grid(y);
  const Form form = c.elementwise_form(x);
  const int32_t gx = c.use(x, form);
  const int32_t gy = c.define(y, form);
  c.per_tensor(cortex_m::kQuantizeContract, gx, {static_cast<double>(out.scale), out.zero_point}, gy);
}

}  // namespace etns::tools::builtins
