#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/pad/pad.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// CONCATENATION of int8 activations as TFLM's concatenation.cc: Prepare
// stores every input's scale and zero point but Eval copies the codes
// (reference_ops::Concatenation, no requantisation), so grids may differ.
// TFLM refuses a fused activation, more than 10 inputs and ranks above 4.
//
// The program, of existing operators: each input padded along the axis to
// the output's shape with -128 (cortex_m::pad), the padded tensors combined
// by cortex_m::maximum in a chain. max(-128, v) is v for every int8 v, so
// each output byte is the one input byte that lies there: a byte copy.
namespace etns::tools::builtins {

void import_concatenation(OperatorImport& c) {
  const tflite::Operator& op = c.op();
  const int32_t y = c.output();
  const auto count = static_cast<int32_t>(op.inputs.size());
  if (count < 1 || count > 10) c.fail(std::to_string(count) + " inputs; TFLite Micro's CONCATENATION takes 1 to 10");
  if (c.options().activation != tflite::Activation::None) {
    c.fail("fused activation " + tflite::to_string(c.options().activation) + " (TFLM refuses any)");
  }
  c.int8_grid(y);
  const std::vector<int32_t>& sy = c.shape(y);
  const auto rank = static_cast<int32_t>(sy.size());
  if (rank < 1 || rank > 4) c.fail("rank " + std::to_string(rank) + " (TFLM takes 1 to 4)");
  int32_t axis = c.options().axis;
  if (axis < -rank || axis >= rank) {
    c.fail("axis " + std::to_string(axis) + " outside [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
  }
  if (axis < 0) axis += rank;
  int64_t along = 0;
  for (int32_t k = 0; k < count; ++k) {
    const int32_t t = c.input(static_cast<size_t>(k));
    c.int8_grid(t);
    const std::vector<int32_t>& s = c.shape(t);
    bool fits = s.size() == sy.size();
    for (size_t d = 0; fits && d < s.size(); ++d) fits = static_cast<int32_t>(d) == axis || s[d] == sy[d];
    if (!fits) {
      c.fail(c.tensor_label(t) + " has shape " + tflite::shape_text(s) + ", the output " + tflite::shape_text(sy) +
             " (all dims but axis " + std::to_string(axis) + " must be equal)");
    }
    along += s[static_cast<size_t>(axis)];
  }
  if (along != sy[static_cast<size_t>(axis)]) {
    c.fail("the inputs have " + std::to_string(along) + " along axis " + std::to_string(axis) + ", the output " +
           std::to_string(sy[static_cast<size_t>(axis)]));
  }
  // cortex_m::pad takes four physical (NHWC) dims, the stored shape
  // right-aligned, in either form; maximum walks same-shaped operands in
  // memory order, so one form serves all.
  // A channels_last form made in the default dim order (same bytes) would be
  // padded in the wrong physical order: such operands take the stored form.
  bool same_bytes = rank == 4 && OperatorImport::same_bytes_in_both_forms(sy);
  for (int32_t k = 0; rank == 4 && k < count; ++k) {
    same_bytes = same_bytes || OperatorImport::same_bytes_in_both_forms(c.shape(c.input(static_cast<size_t>(k))));
  }
  const Form form = rank == 4 && !same_bytes ? c.elementwise_form(c.input(0)) : Form::Stored;
  const std::vector<int32_t> logical = form == Form::ChannelsLast ? OperatorImport::nchw(sy) : sy;
  const std::vector<uint8_t> order =
      form == Form::ChannelsLast ? kChannelsLastOrder : contiguous_order(static_cast<size_t>(rank));
  const size_t physical = static_cast<size_t>(4 - rank + axis);
  int64_t before = 0;
  int32_t combined = -1;
  for (int32_t k = 0; k < count; ++k) {
    const int32_t t = c.input(static_cast<size_t>(k));
    const int64_t size = c.shape(t)[static_cast<size_t>(axis)];
    std::vector<int64_t> pre(4, 0), post(4, 0);
    pre[physical] = before;
    post[physical] = along - before - size;
    before += size;
    const bool last = k + 1 == count;
    const int32_t padded = count == 1 ? c.define(y, form)
                                      : c.graph().s8(c.name("placed" + std::to_string(k)), logical, order);
    c.call(cortex_m::kPadContract,
           {{"input", GraphArg::of_tensor(c.use(t, form))},
            {"pre_pad", GraphArg::list(pre)},
            {"post_pad", GraphArg::list(post)},
            {"pad_value", GraphArg::integer(-128)},
            {"out", GraphArg::of_tensor(padded)}},
           count == 1 ? Step::Main : Step::Helper);
    if (k == 0) {
      combined = padded;
      continue;
    }
    const int32_t next = last ? c.define(y, form) : c.graph().s8(c.name("joined" + std::to_string(k)), logical, order);
    c.call(cortex_m::kMaximumContract,
           {{"self", GraphArg::of_tensor(combined)},
            {"other", GraphArg::of_tensor(padded)},
            {"out", GraphArg::of_tensor(next)}},
           last ? Step::Main : Step::Helper);
    combined = next;
  }
}

}  // namespace etns::tools::builtins
