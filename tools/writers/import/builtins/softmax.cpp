#include "kernels/cortex_m/softmax/softmax.h"
#include "tools/writers/import/builtins/builtins.h"

// SOFTMAX as cortex_m::softmax along the last dim, with TFLM's int8
// parameters (tflm::softmax_params) and its fixed output grid.
namespace etns::tools::builtins {

void import_softmax(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  if (out.scale != 1.0F / 256.0F || out.zero_point != -128) {
    c.fail("output quantisation must be scale 1/256, zero point -128 (TFLite Micro's int8 softmax)");
  }
  if (c.shape(x) != c.shape(y) || c.shape(x).empty()) c.fail("input and output shapes differ");
  const tflm::SoftmaxParams p = tflm::softmax_params(c.options().beta, in.scale, c.where());
  const int32_t gx = c.use(x, Form::Stored);  // rows along the last dim: TFLite's own shape
  const int32_t gy = c.define(y, Form::Stored);
  c.call(cortex_m::kSoftmaxContract, {{"input", GraphArg::of_tensor(gx)},
                                      {"dim", GraphArg::integer(-1)},
                                      {"input_zero_point", GraphArg::integer(in.zero_point)},
                                      {"output_zero_point", GraphArg::integer(out.zero_point)},
                                      {"input_multiplier", GraphArg::integer(p.multiplier)},
                                      {"input_shift", GraphArg::integer(p.left_shift)},
                                      {"diff_min", GraphArg::integer(p.diff_min)},
                                      {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
