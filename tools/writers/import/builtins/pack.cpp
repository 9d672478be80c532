#include <cstring>

#include "kernels/etns_ops/concatenate/concatenate.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/tflite/tflite_reader.h"

// PACK: pack.cc's copy, input i's rows at position i along the new axis (no
// requantisation: TFLM copies the bytes). Values known at import are folded;
// int8 activations are one etns_ops::concatenate.
namespace etns::tools::builtins {
namespace {

// PACK of int8 activations as one etns_ops::concatenate. pack.cc's walk
// (outer rows before the axis, each input's block after it) is the
// concatenation of the inputs along the same axis: for an axis inside the
// inputs' rank the inputs are joined as they are and the result viewed to
// the output's shape; for the new last axis each input is viewed with a
// trailing 1 and joined into the output directly.
void pack_activations(OperatorImport& c, int32_t axis) {
  const tflite::Operator& op = c.op();
  const int32_t y = c.output();
  const auto count = static_cast<int32_t>(op.inputs.size());
  if (c.tensor(y).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(y) + " is " + tflite::to_string(c.tensor(y).type) +
           ": PACK of activations is imported on int8 tensors (etns_ops::concatenate)");
  }
  if (count > static_cast<int32_t>(etns_ops::kConcatenateMaxInputs)) {
    c.fail(std::to_string(count) + " inputs: etns_ops::concatenate joins at most 10 activations");
  }
  const std::vector<int32_t>& in = c.shape(c.input(0));
  const bool last = static_cast<size_t>(axis) == in.size();
  std::vector<int32_t> joined = in;
  if (last) {
    joined.push_back(count);
  } else {
    joined[static_cast<size_t>(axis)] *= count;
  }
  std::vector<NamedArg> args;
  for (int32_t k = 0; k < static_cast<int32_t>(etns_ops::kConcatenateMaxInputs); ++k) {
    GraphArg value = GraphArg::null();
    if (k < count) {
      const int32_t t = c.input(static_cast<size_t>(k));
      std::vector<int32_t> viewed = in;
      if (last) viewed.push_back(1);
      value = GraphArg::of_tensor(last ? c.reshaped(t, viewed, c.name("x" + std::to_string(k) + "_with_axis"))
                                       : c.use(t, Form::Stored));
    }
    args.push_back({etns_ops::kConcatenateArgs[k].name, value});
  }
  args.push_back({"axis", GraphArg::integer(axis)});
  const int32_t out = last ? c.define(y, Form::Stored)
                           : c.graph().s8(c.name("packed"), joined, contiguous_order(joined.size()));
  args.push_back({"out", GraphArg::of_tensor(out)});
  c.call(etns_ops::kConcatenateContract, args);
  if (!last) c.view(out, y, Step::Helper);
}

}  // namespace

void import_pack(OperatorImport& c) {
  const tflite::Operator& op = c.op();
  const int32_t y = c.output();
  const auto count = static_cast<int32_t>(op.inputs.size());
  if (c.options().values_count != count) {
    c.fail("values_count " + std::to_string(c.options().values_count) + ", but " + std::to_string(count) +
           " inputs");
  }
  const tflite::TensorType type = c.tensor(y).type;
  if (type != tflite::TensorType::Float32 && type != tflite::TensorType::Int8 && type != tflite::TensorType::Int32 &&
      type != tflite::TensorType::Int64) {
    c.fail(c.tensor_label(y) + " is " + tflite::to_string(type) + ": TFLM's PACK takes float32, int8, int32 and int64");
  }
  const std::vector<int32_t>& first = c.shape(c.input(0));
  for (int32_t k = 0; k < count; ++k) {
    const int32_t t = c.input(static_cast<size_t>(k));
    if (c.tensor(t).type != type) c.fail(c.tensor_label(t) + " is not of the output's type");
    if (c.shape(t) != first) {
      c.fail(c.tensor_label(t) + " has shape " + tflite::shape_text(c.shape(t)) + ", input 0 has " +
             tflite::shape_text(first));
    }
  }
  const auto rank = static_cast<int32_t>(first.size()) + 1;
  int32_t axis = c.options().axis;
  if (axis < -rank || axis >= rank) {
    c.fail("axis " + std::to_string(axis) + " outside [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
  }
  if (axis < 0) axis += rank;
  std::vector<int32_t> want = first;
  want.insert(want.begin() + axis, count);
  if (c.shape(y) != want) {
    c.fail(c.tensor_label(y) + " has shape " + tflite::shape_text(c.shape(y)) + ", expected " + tflite::shape_text(want));
  }
  for (int32_t k = 0; k < count; ++k) {
    if (!c.is_constant(c.input(static_cast<size_t>(k)))) {
      pack_activations(c, axis);
      return;
    }
  }
  // pack.cc: outer rows before the axis, each input's block of `inner`
  // elements after it.
  const size_t element = tflite::element_size(type);
  uint64_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= static_cast<uint64_t>(want[static_cast<size_t>(d)]);
  for (size_t d = static_cast<size_t>(axis) + 1; d < want.size(); ++d) inner *= static_cast<uint64_t>(want[d]);
  const size_t block = inner * element;
  std::vector<uint8_t> out(outer * static_cast<uint64_t>(count) * block);
  for (int32_t k = 0; k < count; ++k) {
    const std::vector<uint8_t>& in = *c.constant_bytes(c.input(static_cast<size_t>(k)));
    for (uint64_t row = 0; row < outer; ++row) {
      std::memcpy(out.data() + (row * static_cast<uint64_t>(count) + static_cast<uint64_t>(k)) * block,
                  in.data() + row * block, block);
    }
  }
  c.fold(y, std::move(out));
}

}  // namespace etns::tools::builtins
