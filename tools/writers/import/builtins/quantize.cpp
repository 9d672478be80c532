#include "kernels/cortex_m/quantize/quantize.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/quantize_table.h"

// QUANTIZE of a float32 tensor: quantize_per_tensor, whose x * (1 / s)
// rounds to even where TFLM's round(x / s) rounds halves away from zero
// (docs/numerics.md: inputs on a tie, or within a float32 rounding of one,
// differ by one step). QUANTIZE of an int8 tensor (TFLM's requantisation to
// another grid) is etns_ops::lookup_table with TFLM's Requantize run on every
// code (tflm/quantize_table.h).
namespace etns::tools::builtins {

void import_quantize(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  if (c.tensor(x).type == tflite::TensorType::Int8) {
    c.int8_grid(y);  // TFLM also requantises int8 to int16 and int32: not imported
    const UnaryInt8 u = unary_int8(c);
    const tflm::RequantizeParams p =
        tflm::requantize_params(u.in.scale, u.in.zero_point, u.out.scale, u.out.zero_point, c.where());
    call_lookup_table(c, u, tflm::requantize_table(p));
    return;
  }
  if (c.tensor(x).type != tflite::TensorType::Float32) {
    c.fail("requantises " + tflite::to_string(c.tensor(x).type) + " (only float32 or int8 -> int8 is imported)");
  }
  const Grid out = c.int8_grid(y);
  const Form form = c.elementwise_form(x);
  const int32_t gx = c.use(x, form);
  const int32_t gy = c.define(y, form);
  c.per_tensor(cortex_m::kQuantizeContract, gx, {static_cast<double>(out.scale), out.zero_point}, gy);
}

}  // namespace etns::tools::builtins
