#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/slice_window.h"
#include "tools/writers/tflite/tflite_reader.h"

// UNPACK (unpack.cc): output i is the input at index i along the axis, the
// axis dropped; one etns_ops::slice_copy per output (a window of size 1
// there, viewed to the output's shape). TFLM walks the input with `num` as
// the axis's size and writes `num` outputs, so anything but num = the axis's
// size = the output count reads or writes elsewhere: refused.
namespace etns::tools::builtins {

void import_unpack(OperatorImport& c) {
  const int32_t x = c.input(0);
  const std::vector<int32_t> outs = c.outputs();
  for (const int32_t y : outs) expect_int8_window_tensors(c, x, y, "UNPACK");
  const std::vector<int32_t>& in = c.shape(x);
  const auto rank = static_cast<int32_t>(in.size());
  int32_t axis = c.options().axis;
  if (axis < -rank || axis >= rank) {
    c.fail("axis " + std::to_string(axis) + " outside [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
  }
  if (axis < 0) axis += rank;
  const auto a = static_cast<size_t>(axis);
  const int32_t num = c.options().num;
  if (num != in[a] || static_cast<size_t>(num) != outs.size()) {
    c.fail("num " + std::to_string(num) + " with " + std::to_string(outs.size()) + " outputs and " +
           std::to_string(in[a]) + " along axis " + std::to_string(axis) +
           " of the input (TFLM reads and writes as if all three were equal)");
  }
  std::vector<int32_t> want = in;
  want.erase(want.begin() + axis);
  for (size_t k = 0; k < outs.size(); ++k) {
    if (c.shape(outs[k]) != want) {
      c.fail(c.tensor_label(outs[k]) + " has shape " + tflite::shape_text(c.shape(outs[k])) + ", expected " +
             tflite::shape_text(want));
    }
    Window w;
    w.start.assign(in.size(), 0);
    w.step.assign(in.size(), 1);
    w.count = in;
    w.start[a] = static_cast<int32_t>(k);
    w.count[a] = 1;
    copy_window(c, x, outs[k], w);
  }
}

}  // namespace etns::tools::builtins
