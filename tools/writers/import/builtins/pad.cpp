#include "kernels/cortex_m/pad/pad.h"
#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"
#include "tools/writers/import/builtins/builtins.h"

// PAD and PADV2 as TFLM's Pad: the int8 codes copied whatever the input and
// output quantisation (TFLM checks neither), the border filled with the
// output zero point (PAD, PADV2 without a value) or the constant value's
// code, which TFLM requires to be on the output's grid. The pads are in the
// stored (NHWC) order, which is cortex_m::pad's physical order in either form.
namespace etns::tools::builtins {

void import_pad(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  c.int8_grid(x);
  const Grid out = c.int8_grid(y);
  const size_t rank = c.shape(x).size();
  if (rank < 1 || rank > 4 || c.shape(y).size() != rank) c.fail("rank " + std::to_string(rank) + " (1 to 4 are imported)");
  const std::vector<int32_t> pads = c.int32_constant(c.input(1), rank * 2);
  int32_t value = out.zero_point;
  if (c.has_input(2)) {
    const tflite::Tensor& v = c.constant(c.input(2), tflite::TensorType::Int8);
    if (v.data.size() != 1) c.fail(c.tensor_label(c.input(2)) + " is not one value");
    if (!same_grid(c.per_tensor_grid(c.input(2)), out)) {
      c.fail(c.tensor_label(c.input(2)) + " is not quantised as the output (TFLite Micro requires it)");
    }
    value = static_cast<int8_t>(v.data[0]);
  }
  // cortex_m::pad takes four physical dims, the stored shape right-aligned.
  std::vector<int64_t> pre(4, 0), post(4, 0);
  for (size_t k = 0; k < rank; ++k) {
    const int32_t before = pads[2 * k], after = pads[2 * k + 1];
    if (before < 0 || after < 0) c.fail("negative padding");
    if (static_cast<int64_t>(c.shape(x)[k]) + before + after != c.shape(y)[k]) {
      c.fail("output size is not the padded input's");
    }
    pre[4 - rank + k] = before;
    post[4 - rank + k] = after;
  }
  // cortex_m::pad reads the physical order from the dim orders, so a
  // channels_last form made in the default order (same bytes) is padded in
  // its stored form, or, when only the output needs channels_last's order,
  // copied into that order first (a _to_dim_order_copy of the same bytes).
  const bool input_free = rank == 4 && OperatorImport::same_bytes_in_both_forms(c.shape(x));
  const bool output_free = rank == 4 && OperatorImport::same_bytes_in_both_forms(c.shape(y));
  const Form form = rank == 4 && !(input_free && output_free) ? c.elementwise_form(x) : Form::Stored;
  int32_t gx = c.use(x, form);
  if (form == Form::ChannelsLast && input_free) {
    const int32_t ordered = c.graph().s8(c.name("channels_last"), OperatorImport::nchw(c.shape(x)), kChannelsLastOrder);
    c.call(portable::kToDimOrderCopyContract,
           {{"self", GraphArg::of_tensor(gx)},
            {"non_blocking", GraphArg::boolean(false)},
            {"dim_order", GraphArg::list({0, 2, 3, 1})},
            {"out", GraphArg::of_tensor(ordered)}},
           Step::Helper);
    gx = ordered;
  }
  const int32_t gy = c.define(y, form);
  c.call(cortex_m::kPadContract, {{"input", GraphArg::of_tensor(gx)},
                                  {"pre_pad", GraphArg::list(pre)},
                                  {"post_pad", GraphArg::list(post)},
                                  {"pad_value", GraphArg::integer(value)},
                                  {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
