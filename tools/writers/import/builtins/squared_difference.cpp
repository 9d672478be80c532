#include <string>
#include <vector>

#include "kernels/etns_ops/squared_difference/squared_difference.h"
#include "tools/writers/import/builtins/broadcast.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"
#include "tools/writers/import/tflm/squared_difference_params.h"

// SQUARED_DIFFERENCE on int8 (squared_difference.cc) as one
// etns_ops::squared_difference, with TFLM's parameters
// (tflm::squared_difference_params). The kernel walks numpy broadcasting
// itself: equal shapes in whatever form the first input has, a broadcast
// on the stored (row-major) shapes, which it merges to at most 4 dims.
// TFLM clamps only to int8's range (the builtin has no fused activation).
namespace etns::tools::builtins {

void import_squared_difference(OperatorImport& c) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  const Grid qa = c.int8_grid(a), qb = c.int8_grid(b), out = c.int8_grid(y);
  const tflm::SquaredDifferenceParams p = tflm::squared_difference_params(qa.scale, qb.scale, out.scale, c.where());
  int32_t ga = -1, gb = -1, gy = -1;
  if (c.shape(a) == c.shape(b)) {
    if (c.shape(y) != c.shape(a)) c.fail("output shape is not the inputs' broadcast");
    const Form form = c.elementwise_form(a);
    ga = c.use(a, form);
    gb = c.use(b, form);
    gy = c.define(y, form);
  } else {
    const std::vector<int32_t> sizes = broadcast_shape(c, c.shape(a), c.shape(b));
    if (sizes != c.shape(y)) c.fail("output shape is not the inputs' broadcast");
    // BroadcastBinaryFunction6DSlow extends every shape to 6 dims.
    if (sizes.size() > 6) {
      c.fail("output " + tflite::shape_text(sizes) + " has rank " + std::to_string(sizes.size()) +
             " (TFLM broadcasts up to 6 dims)");
    }
    const Merged m = merged_dims(c.shape(a), c.shape(b), sizes);
    if (m.out.size() > 4) {
      c.fail("the broadcast alternates over " + std::to_string(m.out.size()) + " dims (4 are imported)");
    }
    ga = c.use(a, Form::Stored);
    gb = c.use(b, Form::Stored);
    gy = c.define(y, Form::Stored);
  }
  c.call(etns_ops::kSquaredDifferenceContract, {{"self", GraphArg::of_tensor(ga)},
                                                {"self_zero_point", GraphArg::integer(qa.zero_point)},
                                                {"self_multiplier", GraphArg::integer(p.input1.multiplier)},
                                                {"self_shift", GraphArg::integer(p.input1.shift)},
                                                {"other", GraphArg::of_tensor(gb)},
                                                {"other_zero_point", GraphArg::integer(qb.zero_point)},
                                                {"other_multiplier", GraphArg::integer(p.input2.multiplier)},
                                                {"other_shift", GraphArg::integer(p.input2.shift)},
                                                {"out_zero_point", GraphArg::integer(out.zero_point)},
                                                {"out_multiplier", GraphArg::integer(p.output.multiplier)},
                                                {"out_shift", GraphArg::integer(p.output.shift)},
                                                {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
