#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/slice_window.h"
#include "tools/writers/tflite/tflite_reader.h"

// SPLIT (split.cc) and SPLIT_V (split_v.cc): the input cut along one axis
// into consecutive pieces, one per output; each output is one
// etns_ops::slice_copy of its piece. TFLM reads the axis from a constant
// int32 tensor (negative counts from the input's rank) and each output's
// size along it from the outputs themselves: SPLIT gives every output
// output 0's size, SPLIT_V each its own (its size_splits tensor is never
// read). What TFLM only debug-checks is refused here: every output of the
// input's rank, equal to it off the axis, the sizes summing to the input's.
namespace etns::tools::builtins {
namespace {

void split_along(OperatorImport& c, int32_t x, int32_t axis_t, bool own_sizes, const char* what) {
  const std::vector<int32_t> outs = c.outputs();
  const std::vector<int32_t>& in = c.shape(x);
  for (const int32_t y : outs) expect_int8_window_tensors(c, x, y, what);
  const std::vector<int32_t> axis_values = c.int32_constant(axis_t, 1);
  const auto rank = static_cast<int32_t>(in.size());
  int32_t axis = axis_values[0];
  if (axis < -rank || axis >= rank) {
    c.fail("axis " + std::to_string(axis) + " outside [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
  }
  if (axis < 0) axis += rank;
  const auto a = static_cast<size_t>(axis);
  int64_t at = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    const int32_t y = outs[k];
    const std::vector<int32_t>& shape = c.shape(y);
    const std::vector<int32_t>& sized = c.shape(own_sizes ? y : outs[0]);
    if (sized.size() != in.size()) {
      c.fail(c.tensor_label(own_sizes ? y : outs[0]) + " has shape " + tflite::shape_text(sized) + ", expected rank " +
             std::to_string(rank) + " (the input's)");
    }
    const int32_t piece = sized[a];
    std::vector<int32_t> want = in;
    want[a] = piece;
    if (shape != want) {
      c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(shape) + ", expected " + tflite::shape_text(want) +
             " (the input's, " + std::to_string(piece) + " along axis " + std::to_string(axis) + ")");
    }
    at += piece;
  }
  if (at != in[a]) {
    c.fail("the outputs have " + std::to_string(at) + " along axis " + std::to_string(axis) + ", the input " +
           std::to_string(in[a]));
  }
  int32_t start = 0;
  for (const int32_t y : outs) {
    Window w;
    w.start.assign(in.size(), 0);
    w.step.assign(in.size(), 1);
    w.count = in;
    w.start[a] = start;
    w.count[a] = c.shape(y)[a];
    start += w.count[a];
    copy_window(c, x, y, w);
  }
}

}  // namespace

void import_split(OperatorImport& c) { split_along(c, c.input(1), c.input(0), false, "SPLIT"); }

void import_split_v(OperatorImport& c) { split_along(c, c.input(0), c.input(2), true, "SPLIT_V"); }

}  // namespace etns::tools::builtins
