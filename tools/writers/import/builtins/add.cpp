#include "kernels/cortex_m/add/add.h"
#include "tools/writers/import/builtins/broadcast.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// ADD as cortex_m::quantized_add, with TFLM's int8 parameters (left shift
// 20; tflm::add_params); a broadcast input first expanded (broadcast.h).
namespace etns::tools::builtins {

void import_add(OperatorImport& c) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  const Grid qa = c.int8_grid(a), qb = c.int8_grid(b), out = c.int8_grid(y);
  const tflm::AddParams p = tflm::add_params(qa.scale, qb.scale, out.scale, c.where());
  const tflm::ActivationRange act = c.activation(out);
  const PairedOperands in = paired_operands(c, a, b, y);
  const int32_t ga = in.a, gb = in.b;
  const int32_t gy = c.define(y, in.form);
  c.call(cortex_m::kAddContract, {{"self", GraphArg::of_tensor(ga)},
                                  {"self_zero_point", GraphArg::integer(qa.zero_point)},
                                  {"self_multiplier", GraphArg::integer(p.input1.multiplier)},
                                  {"self_shift", GraphArg::integer(p.input1.shift)},
                                  {"other", GraphArg::of_tensor(gb)},
                                  {"other_zero_point", GraphArg::integer(qb.zero_point)},
                                  {"other_multiplier", GraphArg::integer(p.input2.multiplier)},
                                  {"other_shift", GraphArg::integer(p.input2.shift)},
                                  {"output_zero_point", GraphArg::integer(out.zero_point)},
                                  {"output_multiplier", GraphArg::integer(p.output.multiplier)},
                                  {"output_shift", GraphArg::integer(p.output.shift)},
                                  {"activation_min", GraphArg::integer(act.min)},
                                  {"activation_max", GraphArg::integer(act.max)},
                                  {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
