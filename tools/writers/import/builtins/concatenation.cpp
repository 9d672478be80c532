#include "kernels/etns_ops/concatenate/concatenate.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// CONCATENATION of int8 activations as TFLM's concatenation.cc: Prepare
// stores every input's scale and zero point but Eval copies the codes
// (reference_ops::Concatenation, no requantisation), so grids may differ.
// TFLM refuses a fused activation, more than 10 inputs and ranks above 4.
//
// The program: one etns_ops::concatenate, every input's bytes copied to
// their place in the output in one pass.
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
  // etns_ops::concatenate joins tensors of one dim order along a logical
  // dim: a convolution's channels_last output is joined where it lies (the
  // axis renamed to the [N, C, H, W] dim), the rest in their stored form.
  // A channels_last form made in the default dim order (same bytes) would
  // differ in dim order from a real one: such operands take the stored form.
  bool same_bytes = rank == 4 && OperatorImport::same_bytes_in_both_forms(sy);
  for (int32_t k = 0; rank == 4 && k < count; ++k) {
    same_bytes = same_bytes || OperatorImport::same_bytes_in_both_forms(c.shape(c.input(static_cast<size_t>(k))));
  }
  const Form form = rank == 4 && !same_bytes ? c.elementwise_form(c.input(0)) : Form::Stored;
  // Logical [N, C, H, W] holds TFLite's axes 0, 3, 1, 2.
  constexpr int32_t kLogicalOf[4] = {0, 2, 3, 1};
  const int32_t logical_axis = form == Form::ChannelsLast ? kLogicalOf[axis] : axis;
  std::vector<NamedArg> args;
  for (int32_t k = 0; k < static_cast<int32_t>(etns_ops::kConcatenateMaxInputs); ++k) {
    const char* name = etns_ops::kConcatenateArgs[k].name;  // x0 ... x9
    args.push_back({name, k < count ? GraphArg::of_tensor(c.use(c.input(static_cast<size_t>(k)), form))
                                    : GraphArg::null()});
  }
  args.push_back({"axis", GraphArg::integer(logical_axis)});
  args.push_back({"out", GraphArg::of_tensor(c.define(y, form))});
  c.call(etns_ops::kConcatenateContract, args);
}

}  // namespace etns::tools::builtins
