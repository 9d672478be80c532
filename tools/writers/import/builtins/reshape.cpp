#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// RESHAPE and SQUEEZE as aten::view_copy of the NHWC bytes: TFLM copies the
// bytes whatever the quantisation says. Of a value known at import (a
// constant, a folded SHAPE's arithmetic) the bytes are folded instead.
namespace etns::tools::builtins {

void import_reshape(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  const tflite::Tensor& in = c.tensor(x);
  const tflite::Tensor& out = c.tensor(y);
  if (in.type != out.type) c.fail("input and output types differ");
  const uint64_t a = numel(in.shape), b = numel(out.shape);
  if (a != b) c.fail("reshapes " + std::to_string(a) + " elements into " + std::to_string(b));
  if (c.is_constant(x) && !c.is_model_output(y)) {
    c.fold(y, *c.constant_bytes(x));
    return;
  }
  c.view(c.shape(x).size() == 4 ? c.row_major(x) : c.use(x, Form::Stored), y);
}

}  // namespace etns::tools::builtins
