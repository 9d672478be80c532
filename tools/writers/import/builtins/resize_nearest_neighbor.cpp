#include <cstdint>
#include <string>
#include <vector>

#include "kernels/etns_ops/gather_hw/gather_hw.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/tflm/resize_nearest.h"
#include "tools/writers/tflite/tflite_reader.h"

// RESIZE_NEAREST_NEIGHBOR on int8 (resize_nearest_neighbor.cc): every output
// pixel is a copy of one input pixel, the row and column TFLM's
// GetNearestNeighbor picks (tflm/resize_nearest.h). The sizes are constant,
// so the importer computes the source row of every output row and the source
// column of every output column, and the program is one etns_ops::gather_hw
// reading them as constant int32 tensors. TFLM copies the codes whatever the
// quantisation says; so does the program.
namespace etns::tools::builtins {

void import_resize_nearest_neighbor(OperatorImport& c) {
  const int32_t x = c.input(0), size = c.input(1), y = c.output();
  for (const int32_t t : {x, y}) {
    if (c.tensor(t).type != tflite::TensorType::Int8) {
      c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) +
             ": int8 is imported (TFLM also takes float32 and int16, the output of the input's type)");
    }
  }
  c.expect_rank(x, 4);
  if (c.shape(size).size() != 1 || c.shape(size)[0] != 2 || c.tensor(size).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(size) + " is " + tflite::to_string(c.tensor(size).type) + " " +
           tflite::shape_text(c.shape(size)) + ", TFLM takes int32 [2] (height, width)");
  }
  if (!c.is_constant(size)) c.fail(c.tensor_label(size) + " is not a constant (TFLM requires one)");
  const std::vector<int32_t> hw = c.int32_constant(size, 2);
  if (hw[0] <= 0 || hw[1] <= 0) {
    c.fail(c.tensor_label(size) + " asks for height " + std::to_string(hw[0]) + " and width " +
           std::to_string(hw[1]) + " (positive sizes are imported)");
  }
  const std::vector<int32_t>& s = c.shape(x);
  const std::vector<int32_t> expected = {s[0], hw[0], hw[1], s[3]};
  if (c.shape(y) != expected) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", TFLM writes " +
           tflite::shape_text(expected));
  }
  const bool align = c.options().align_corners, half = c.options().half_pixel_centers;
  const int32_t rows = c.graph().int32_vector(c.name("rows"), tflm::nearest_neighbors(s[1], hw[0], align, half));
  const int32_t cols = c.graph().int32_vector(c.name("cols"), tflm::nearest_neighbors(s[2], hw[1], align, half));
  const int32_t gx = c.use(x, Form::ChannelsLast);
  const int32_t gy = c.define(y, Form::ChannelsLast);
  c.call(etns_ops::kGatherHwContract, {{"self", GraphArg::of_tensor(gx)},
                                       {"rows", GraphArg::of_tensor(rows)},
                                       {"cols", GraphArg::of_tensor(cols)},
                                       {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
