#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/slice_window.h"
#include "tools/writers/tflite/tflite_reader.h"

// STRIDED_SLICE: TFLM's Prepare checks and Eval walk (tflm/strided_slice.h).
// On a value known at import (a constant or a folded SHAPE) it is folded; on
// an int8 activation the walk is one etns_ops::slice_copy (each axis's start,
// stride and count; shrunk axes are viewed away).
namespace etns::tools::builtins {

void import_strided_slice(OperatorImport& c) {
  if (c.op().inputs.size() != 4) c.fail(std::to_string(c.op().inputs.size()) + " inputs, expected 4");
  const int32_t x = c.input(0), y = c.output();
  const tflite::Tensor& in = c.tensor(x);
  if (in.type != c.tensor(y).type) c.fail("input and output types differ");
  const size_t rank = c.shape(x).size();
  if (rank > 4) c.fail("input rank " + std::to_string(rank) + ", TFLM's STRIDED_SLICE takes at most 4");
  tflm::StridedSliceParams p;
  p.begin = c.int32_constant(c.input(1), rank);
  p.end = c.int32_constant(c.input(2), rank);
  p.strides = c.int32_constant(c.input(3), rank);
  p.begin_mask = c.options().begin_mask;
  p.end_mask = c.options().end_mask;
  p.shrink_axis_mask = c.options().shrink_axis_mask;
  const tflm::StridedSlicePlan plan = tflm::strided_slice_plan(c.shape(x), p, c.where());
  if (plan.output_shape != c.shape(y)) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", TFLM's Prepare computes " +
           tflite::shape_text(plan.output_shape));
  }
  if (!c.is_constant(x)) {
    expect_int8_window_tensors(c, x, y, "STRIDED_SLICE of an activation");
    Window w;
    for (const tflm::SliceAxis& axis : plan.axes) {
      w.start.push_back(axis.start);
      w.step.push_back(axis.stride);
      w.count.push_back(axis.count());
    }
    copy_window(c, x, y, w);
    return;
  }
  c.fold(y, tflm::strided_slice_bytes(plan, c.shape(x), *c.constant_bytes(x), tflite::element_size(in.type)));
}

}  // namespace etns::tools::builtins
