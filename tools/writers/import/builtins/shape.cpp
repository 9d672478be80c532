#include <cstring>

#include "tools/writers/import/builtins/builtins.h"

// SHAPE: the input's static dims, folded at import (shape.cc writes them as
// int32; no instruction is left).
namespace etns::tools::builtins {

void import_shape(OperatorImport& c) {
  if (c.op().inputs.size() != 1) c.fail(std::to_string(c.op().inputs.size()) + " inputs, expected 1");
  const int32_t x = c.input(0), y = c.output();
  if (c.tensor(y).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(y) + " is " + tflite::to_string(c.tensor(y).type) + ": TFLM's SHAPE writes int32 only");
  }
  const std::vector<int32_t>& dims = c.shape(x);
  const std::vector<int32_t> want = {static_cast<int32_t>(dims.size())};
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " + tflite::shape_text(want) +
           " (the input's rank)");
  }
  std::vector<uint8_t> bytes(dims.size() * sizeof(int32_t));
  if (!dims.empty()) std::memcpy(bytes.data(), dims.data(), bytes.size());
  c.fold(y, std::move(bytes));
}

}  // namespace etns::tools::builtins
