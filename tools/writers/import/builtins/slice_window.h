#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/import/import_context.h"

// What SLICE, STRIDED_SLICE, SPLIT, SPLIT_V and UNPACK of int8 tensors share:
// each output is a window of the input, copied by one
// etns_ops::slice_copy (docs/numerics.md, "slice_copy").
namespace etns::tools::builtins {

// Along each of the input's TFLite axes, `count` elements from `start`, `step` apart.
struct Window {
  std::vector<int32_t> start, step, count;
};

// Fails unless input x and output y are int8 (`what` names the builtin) and
// x's rank is 1 to 5 (etns_ops::slice_copy's; TFLM's slicing kernels stop there).
void expect_int8_window_tensors(const OperatorImport& c, int32_t x, int32_t y, const std::string& what);

// Copies window w of TFLite tensor x into TFLite tensor y, whose shape is
// w.count, or w.count with size-1 axes dropped (then the copy is viewed into
// y). A channels_last x (a convolution's output) is read where it lies: the
// window is given in its logical [N, C, H, W] order and y is written in that
// form, so the NHWC bytes never move twice.
void copy_window(OperatorImport& c, int32_t x, int32_t y, const Window& w);

}  // namespace etns::tools::builtins
