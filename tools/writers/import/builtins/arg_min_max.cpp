#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/etns_ops/arg_reduce/arg_reduce.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// ARG_MAX and ARG_MIN (arg_min_max.cc): TFLM's Eval takes an int32 axis
// tensor and an int32 output only (int64 in either fails Invoke), input
// float32 or int8; here int8. It reads the axis at Invoke, so a computed
// axis would work there, but the output's shape is fixed by it: the axis is
// taken as a constant, one value, negative from the end. The quantisation
// plays no part (the codes are compared as they are) and ArgMaxOptions'
// output_type is not read: the output tensor's type decides, as in TFLM.
// With a constant input the indices are folded; otherwise one
// etns_ops::arg_reduce on the stored (NHWC) form, a channels_last input
// copied into it first.
namespace etns::tools::builtins {
namespace {

std::string text(int64_t v) { return std::to_string(v); }

// reference_ops::ArgMinMax on the codes: the first index of the extreme.
std::vector<int32_t> arg_extremes(const std::vector<int32_t>& shape, int32_t axis, bool is_min,
                                  const std::vector<uint8_t>& bytes) {
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (static_cast<int32_t>(d) < axis) outer *= shape[d];
    if (static_cast<int32_t>(d) > axis) inner *= shape[d];
  }
  const int64_t size = shape[static_cast<size_t>(axis)];
  std::vector<int32_t> out;
  out.reserve(static_cast<size_t>(outer * inner));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t a) { return static_cast<int8_t>(bytes[static_cast<size_t>((o * size + a) * inner + i)]); };
      int8_t best = at(0);
      int32_t where = 0;
      for (int64_t a = 1; a < size; ++a) {
        if (is_min ? at(a) < best : at(a) > best) {
          best = at(a);
          where = static_cast<int32_t>(a);
        }
      }
      out.push_back(where);
    }
  }
  return out;
}

void import_arg(OperatorImport& c, bool is_min) {
  const char* name = is_min ? "ARG_MIN" : "ARG_MAX";
  if (c.op().inputs.size() != 2) c.fail(text(static_cast<int64_t>(c.op().inputs.size())) + " inputs, expected 2");
  const int32_t x = c.input(0), axis_t = c.input(1), y = c.output();
  if (c.tensor(x).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(x) + " is " + tflite::to_string(c.tensor(x).type) + ", expected int8");
  }
  if (c.tensor(axis_t).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(axis_t) + " is " + tflite::to_string(c.tensor(axis_t).type) + ": TFLM's " + name +
           " takes an int32 axis only");
  }
  if (c.tensor(y).type != tflite::TensorType::Int32) {
    c.fail(c.tensor_label(y) + " is " + tflite::to_string(c.tensor(y).type) + ": TFLM's " + name +
           " writes int32 only");
  }
  if (!c.is_constant(axis_t)) {
    c.fail(c.tensor_label(axis_t) + " is computed: the axis decides the output's shape, so it must be constant");
  }
  if (c.elements(axis_t) != 1) {
    c.fail(c.tensor_label(axis_t) + " holds " + text(static_cast<int64_t>(c.elements(axis_t))) +
           " values, expected 1");
  }
  const std::vector<int32_t>& in = c.shape(x);
  const auto rank = static_cast<int32_t>(in.size());
  if (rank < 1) c.fail(c.tensor_label(x) + " is a scalar: there is no axis to reduce");
  const int32_t axis_value = c.int32_constant(axis_t, 1)[0];
  if (axis_value < -rank || axis_value >= rank) {
    c.fail(c.tensor_label(axis_t) + " holds " + text(axis_value) + ", outside [" + text(-rank) + ", " + text(rank) +
           ") for " + c.tensor_label(x) + " " + tflite::shape_text(in));
  }
  const int32_t axis = axis_value < 0 ? axis_value + rank : axis_value;
  if (in[static_cast<size_t>(axis)] < 1) {
    c.fail(c.tensor_label(x) + " " + tflite::shape_text(in) + " has no values along axis " + text(axis));
  }
  std::vector<int32_t> want(in);
  want.erase(want.begin() + axis);
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " +
           tflite::shape_text(want) + " (the input's without axis " + text(axis) + ")");
  }
  if (c.is_constant(x) && !c.is_model_output(y)) {
    const std::vector<int32_t> indices = arg_extremes(in, axis, is_min, *c.constant_bytes(x));
    std::vector<uint8_t> bytes(indices.size() * sizeof(int32_t));
    if (!bytes.empty()) std::memcpy(bytes.data(), indices.data(), bytes.size());
    c.fold(y, std::move(bytes));
    return;
  }
  const int32_t gx = c.use(x, Form::Stored);
  const int32_t gy = c.define(y, Form::Stored);
  c.call(etns_ops::kArgReduceContract, {{"self", GraphArg::of_tensor(gx)},
                                        {"dim", GraphArg::integer(axis)},
                                        {"is_min", GraphArg::boolean(is_min)},
                                        {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace

void import_arg_max(OperatorImport& c) { import_arg(c, false); }
void import_arg_min(OperatorImport& c) { import_arg(c, true); }

}  // namespace etns::tools::builtins
