#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "tools/writers/import/builtins/broadcast.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// MINIMUM and MAXIMUM as cortex_m::minimum and maximum: they compare the int8
// codes as they are (TFLM does not requantise), with numpy broadcasting of
// the stored shapes.
namespace etns::tools::builtins {
namespace {

void import_min_max(OperatorImport& c, const runtime::OperatorContract& contract) {
  const int32_t a = c.input(0), b = c.input(1), y = c.output();
  c.int8_grid(a);
  c.int8_grid(b);
  c.int8_grid(y);
  const std::vector<int32_t> sizes = broadcast_shape(c, c.shape(a), c.shape(b));
  if (sizes != c.shape(y)) c.fail("output shape is not the inputs' broadcast");
  const auto call = [&](int32_t ga, int32_t gb, int32_t gy) {
    c.call(contract, {{"self", GraphArg::of_tensor(ga)}, {"other", GraphArg::of_tensor(gb)}, {"out", GraphArg::of_tensor(gy)}});
  };
  // Same shapes, or one value against a tensor: a walk in memory order, so
  // any form the full-size operand has.
  const bool a_full = c.shape(a) == c.shape(y), b_full = c.shape(b) == c.shape(y);
  if ((a_full && b_full) || (a_full && numel(c.shape(b)) == 1) || (b_full && numel(c.shape(a)) == 1)) {
    const Form form = c.elementwise_form(a_full ? a : b);
    const int32_t ga = c.use(a, a_full ? form : Form::Stored), gb = c.use(b, b_full ? form : Form::Stored);
    call(ga, gb, c.define(y, form));
    return;
  }
  if (!broadcast_walk_refused(c.shape(a), c.shape(b), sizes)) {
    call(c.use(a, Form::Stored), c.use(b, Form::Stored), c.define(y, Form::Stored));
    return;
  }
  const Merged m = merged_dims(c.shape(a), c.shape(b), sizes);
  if (m.out.size() > 4) c.fail("the broadcast alternates over " + std::to_string(m.out.size()) + " dims (4 are imported)");
  const int32_t gy = c.graph().s8(c.name("merged"), m.out, contiguous_order(m.out.size()));
  call(c.reshaped(a, m.a, c.name("self")), c.reshaped(b, m.b, c.name("other")), gy);
  c.view(gy, y, Step::Helper);
}

}  // namespace

void import_minimum(OperatorImport& c) { import_min_max(c, cortex_m::kMinimumContract); }

void import_maximum(OperatorImport& c) { import_min_max(c, cortex_m::kMaximumContract); }

}  // namespace etns::tools::builtins
