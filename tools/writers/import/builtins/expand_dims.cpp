#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"
#include "tools/writers/tflite/tflite_reader.h"

// EXPAND_DIMS as aten::view_copy of the stored bytes (expand_dims.cc copies
// them whatever the quantisation). The axis is one constant int32 (TFLM
// refuses another type); a negative one counts from rank + 1, and the output
// TFLite stores must be the input's shape with a 1 inserted there. Of a value
// known at import the bytes are folded instead.
namespace etns::tools::builtins {

void import_expand_dims(OperatorImport& c) {
  if (c.op().inputs.size() != 2) {
    c.fail(std::to_string(c.op().inputs.size()) + " inputs; TFLite Micro's EXPAND_DIMS takes 2");
  }
  const int32_t x = c.input(0), a = c.input(1), y = c.output();
  const tflite::Tensor& in = c.tensor(x);
  const tflite::TensorType type = in.type;
  if (type != tflite::TensorType::Int8 && type != tflite::TensorType::Int16 && type != tflite::TensorType::Float32) {
    c.fail(c.tensor_label(x) + " is " + tflite::to_string(type) + ": TFLM's EXPAND_DIMS takes int8, int16 and float32");
  }
  if (c.tensor(y).type != type) c.fail("input and output types differ");
  if (c.tensor(a).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(a) + " is " + tflite::to_string(c.tensor(a).type) + ": TFLM takes an int32 axis");
  }
  if (!c.is_constant(a)) c.fail(c.tensor_label(a) + " is not a constant (TFLM requires it)");
  if (c.shape(a).size() > 1) c.fail(c.tensor_label(a) + " has rank " + std::to_string(c.shape(a).size()) + ": one axis");
  const std::vector<int32_t> axis_values = OperatorImport::int32_values(c.constant(a, tflite::TensorType::Int32));
  if (axis_values.empty()) c.fail(c.tensor_label(a) + " holds no axis");
  const auto rank = static_cast<int32_t>(c.shape(x).size());
  const int32_t axis = axis_values[0] < 0 ? axis_values[0] + rank + 1 : axis_values[0];
  if (axis < 0 || axis > rank) {
    c.fail("axis " + std::to_string(axis_values[0]) + " outside [" + std::to_string(-rank - 1) + ", " +
           std::to_string(rank) + "]");
  }
  std::vector<int32_t> want = c.shape(x);
  want.insert(want.begin() + axis, 1);
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " + tflite::shape_text(want));
  }
  if (c.is_constant(x) && !c.is_model_output(y)) {
    c.fold(y, *c.constant_bytes(x));
    return;
  }
  if (type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(x) + " is a " + tflite::to_string(type) + " activation (int8 ones are imported)");
  }
  c.view(rank == 4 ? c.row_major(x) : c.use(x, Form::Stored), y);
}

}  // namespace etns::tools::builtins
