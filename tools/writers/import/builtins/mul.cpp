#include <string>

#include "kernels/cortex_m/mul/mul.h"
#include "tools/writers/import/builtins/broadcast.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// MUL as cortex_m::quantized_mul (a broadcast input first expanded,
// broadcast.h), which clamps only to int8:
// a fused activation becomes a clamp after it (common.h).
namespace etns::tools::builtins {

void import_mul(OperatorImport& c) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  const Grid qa = c.int8_grid(a), qb = c.int8_grid(b), out = c.int8_grid(y);
  const tflm::ActivationRange act = c.activation(out);
  const Requant r = tflm::mul_multiplier(qa.scale, qb.scale, out.scale, c.where());
  // TFLM broadcasts MUL with BroadcastMul4DSlow, shapes of 4 dims at most.
  if ((c.shape(a) != c.shape(b) || c.shape(a) != c.shape(y)) && c.shape(y).size() > 4) {
    c.fail("broadcasting over " + std::to_string(c.shape(y).size()) + " dims (TFLM's MUL broadcasts 4)");
  }
  const PairedOperands in = paired_operands(c, a, b, y);
  const Form form = in.form;
  const int32_t ga = in.a, gb = in.b;
  const int32_t gy = clamped_output(c, y, form, act);
  c.call(cortex_m::kMulContract, {{"self", GraphArg::of_tensor(ga)},
                                  {"self_zero_point", GraphArg::integer(qa.zero_point)},
                                  {"other", GraphArg::of_tensor(gb)},
                                  {"other_zero_point", GraphArg::integer(qb.zero_point)},
                                  {"output_zero_point", GraphArg::integer(out.zero_point)},
                                  {"output_multiplier", GraphArg::integer(r.multiplier)},
                                  {"output_shift", GraphArg::integer(r.shift)},
                                  {"out", GraphArg::of_tensor(gy)}});
  clamp(c, gy, y, form, act);
}

}  // namespace etns::tools::builtins
