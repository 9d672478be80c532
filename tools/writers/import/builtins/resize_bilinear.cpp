#include <cstdint>
#include <string>
#include <vector>

#include "kernels/etns_ops/resize_bilinear/resize_bilinear.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/tflm/resize_bilinear.h"
#include "tools/writers/tflite/tflite_reader.h"

// RESIZE_BILINEAR on int8 (resize_bilinear.cc, ResizeBilinearInteger): every
// output value blends four input pixels with 10-bit fractions. The sizes are
// constant, so the importer computes, with TFLM's integer arithmetic
// (tflm/resize_bilinear.h), each output row's two source rows and fraction
// and each output column's, and the program is one etns_ops::resize_bilinear
// reading them as constant int32 triples; the kernel sums and rounds as TFLM
// does. TFLM blends the codes whatever the quantisation says; so does the
// program.
namespace etns::tools::builtins {
namespace {

// (lower, upper, fraction) per output along one axis; refuses what TFLM
// cannot compute within its input and int32.
std::vector<int32_t> triples(OperatorImport& c, int32_t in, int32_t out, bool align, bool half, const char* axis) {
  if (tflm::bilinear_int32_overflow(in, out, align, half)) {
    c.fail(std::string("resizing ") + axis + " " + std::to_string(in) + " to " + std::to_string(out) +
           " overflows TFLM's int32 position arithmetic");
  }
  std::vector<int32_t> v;
  int32_t i = 0;
  for (const tflm::BilinearSource& s : tflm::bilinear_sources(in, out, align, half)) {
    if (s.lower >= in) {
      c.fail(std::string("output ") + axis + " " + std::to_string(i) + " of " + std::to_string(out) + " reads input " +
             axis + " " + std::to_string(s.lower) + " of " + std::to_string(in) +
             " (TFLM's 10-bit scale reads past its input)");
    }
    v.push_back(static_cast<int32_t>(s.lower));
    v.push_back(static_cast<int32_t>(s.upper));
    v.push_back(static_cast<int32_t>(s.fraction));
    ++i;
  }
  return v;
}

}  // namespace

void import_resize_bilinear(OperatorImport& c) {
  const int32_t x = c.input(0), size = c.input(1), y = c.output();
  for (const int32_t t : {x, y}) {
    if (c.tensor(t).type != tflite::TensorType::Int8) {
      c.fail(c.tensor_label(t) + " is " + tflite::to_string(c.tensor(t).type) +
             ": int8 is imported (TFLM also takes float32, the output of the input's type)");
    }
  }
  c.expect_rank(x, 4);
  if (c.shape(size).size() != 1 || c.shape(size)[0] != 2 || c.tensor(size).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(size) + " is " + tflite::to_string(c.tensor(size).type) + " " +
           tflite::shape_text(c.shape(size)) + ", TFLM takes int32 [2] (height, width)");
  }
  if (!c.is_constant(size)) c.fail(c.tensor_label(size) + " is not a constant (TFLM requires one)");
  const bool align = c.options().align_corners, half = c.options().half_pixel_centers;
  if (align && half) c.fail("align_corners and half_pixel_centers are both true (TFLM refuses the pair)");
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
  const int32_t rows = c.graph().int32_vector(c.name("rows"), triples(c, s[1], hw[0], align, half, "row"));
  const int32_t cols = c.graph().int32_vector(c.name("cols"), triples(c, s[2], hw[1], align, half, "column"));
  const int32_t gx = c.use(x, Form::ChannelsLast);
  const int32_t gy = c.define(y, Form::ChannelsLast);
  c.call(etns_ops::kResizeBilinearContract, {{"self", GraphArg::of_tensor(gx)},
                                             {"rows", GraphArg::of_tensor(rows)},
                                             {"cols", GraphArg::of_tensor(cols)},
                                             {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
