#include "tools/writers/import/operator_checks.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runtime/core/tensor.h"

namespace etns::tools {
namespace {

using tflite::Builtin;

// How many inputs TFLM's Prepare accepts for each builtin the import maps
// (tensorflow/tflite-micro, kernels/*.cc: TF_LITE_ENSURE on NumInputs or
// node->inputs->size; an absent optional input, index -1, counts). Every one
// has exactly one output, but SPLIT, SPLIT_V and UNPACK (OperatorImport::outputs checks it).
struct InputCount {
  Builtin builtin;
  int32_t min, max;
};

constexpr InputCount kInputCounts[] = {
    {Builtin::Conv2d, 2, 3},          // conv_common.cc: bias optional
    {Builtin::DepthwiseConv2d, 2, 3},  // depthwise_conv_common.cc
    {Builtin::TransposeConv, 3, 4},    // transpose_conv.cc: output shape, weights, input, bias
    {Builtin::FullyConnected, 2, 3},   // fully_connected.cc
    {Builtin::AveragePool2d, 1, 1},   {Builtin::MaxPool2d, 1, 1},    {Builtin::Add, 2, 2},
    {Builtin::Mul, 2, 2},             {Builtin::Sub, 2, 2},          {Builtin::Minimum, 2, 2},
    {Builtin::Maximum, 2, 2},         {Builtin::Softmax, 1, 1},
    {Builtin::Reshape, 1, 2},  // reshape_common.cc: the shape tensor is optional
    {Builtin::Squeeze, 1, 1},         {Builtin::Pad, 2, 3},          {Builtin::PadV2, 2, 3},
    {Builtin::Transpose, 2, 2},       {Builtin::Quantize, 1, 1},     {Builtin::Dequantize, 1, 1},
    {Builtin::BatchMatmul, 2, 2},     {Builtin::LeakyRelu, 1, 1},    {Builtin::Mean, 2, 2},
    {Builtin::Sum, 2, 2},             {Builtin::ReduceMax, 2, 2},
    {Builtin::UnidirectionalSequenceLstm, 24, 24},
    {Builtin::Relu, 1, 1},            {Builtin::ReluN1To1, 1, 1},    {Builtin::Relu6, 1, 1},
    {Builtin::HardSwish, 1, 1},       {Builtin::Logistic, 1, 1},     {Builtin::Tanh, 1, 1},
    {Builtin::Shape, 1, 1},           {Builtin::StridedSlice, 4, 4}, {Builtin::ExpandDims, 2, 2},
    {Builtin::Concatenation, 1, 10},  // concatenation.cc: kMaxInputNum
    {Builtin::Slice, 3, 3},           {Builtin::Split, 2, 2},        {Builtin::SplitV, 3, 3},
    {Builtin::Unpack, 1, 1},          // unpack.cc has no Prepare: Eval reads input 0
};

std::string count_text(const InputCount& n) {
  if (n.min == n.max) return std::to_string(n.min);
  if (n.max == n.min + 1) return std::to_string(n.min) + " or " + std::to_string(n.max);
  return std::to_string(n.min) + " to " + std::to_string(n.max);
}

// TFLM's SqueezePrepare: at most 8 input dims; each squeeze dim, negative
// counted from the rank, names a dimension of size 1.
void check_squeeze(const OperatorImport& c) {
  constexpr size_t kTflmMaxSqueezeDims = 8;
  const int32_t x = c.input(0);
  const std::vector<int32_t>& shape = c.shape(x);
  const auto rank = static_cast<int64_t>(shape.size());
  if (shape.size() > kTflmMaxSqueezeDims) {
    c.fail(c.tensor_label(x) + " has rank " + std::to_string(rank) + ": TFLite Micro squeezes at most " +
           std::to_string(kTflmMaxSqueezeDims) + " dimensions");
  }
  const std::vector<int32_t>& dims = c.options().squeeze_dims;
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t d = dims[k] < 0 ? dims[k] + rank : dims[k];
    if (d < 0 || d >= rank) {
      c.fail("squeeze_dims[" + std::to_string(k) + "] = " + std::to_string(dims[k]) + " is outside [" +
             std::to_string(-rank) + ", " + std::to_string(rank) + ") for " + c.tensor_label(x) + " of shape " +
             tflite::shape_text(shape));
    }
    if (shape[static_cast<size_t>(d)] != 1) {
      c.fail("squeeze_dims[" + std::to_string(k) + "] = " + std::to_string(dims[k]) + " names dimension " +
             std::to_string(d) + " of " + c.tensor_label(x) + " (shape " + tflite::shape_text(shape) +
             "), which is not 1");
    }
  }
}

}  // namespace

void check_operator(const ImportState& state, const OperatorImport& c) {
  const tflite::Operator& op = c.op();
  const auto builtin = static_cast<Builtin>(op.builtin);
  for (const InputCount& n : kInputCounts) {
    if (n.builtin != builtin) continue;
    const auto count = static_cast<int64_t>(op.inputs.size());
    if (count < n.min || count > n.max) {
      c.fail(std::to_string(count) + " inputs; TFLite Micro's " + tflite::builtin_name(op.builtin) + " takes " +
             count_text(n));
    }
  }
  const std::vector<int32_t> outs = c.outputs();
  for (const int32_t out : outs) {
    if (out >= 0 && c.tensor(out).shape.size() > runtime::kMaxTensorRank) {
      c.fail(c.tensor_label(out) + ", the output, has rank " + std::to_string(c.tensor(out).shape.size()) +
             "; a program's tensors have at most " + std::to_string(runtime::kMaxTensorRank) + " dimensions");
    }
  }
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t < 0) continue;
    const std::string label = c.tensor_label(t) + ", input " + std::to_string(k);
    if (std::find(outs.begin(), outs.end(), t) != outs.end()) {
      c.fail(label + ", is also its output: an operator cannot read what it writes");
    }
    if (c.tensor(t).shape.size() > runtime::kMaxTensorRank) {
      c.fail(label + ", has rank " + std::to_string(c.tensor(t).shape.size()) +
             "; a program's tensors have at most " + std::to_string(runtime::kMaxTensorRank) + " dimensions");
    }
    if (state.is_model_input(t) && !c.tensor(t).data.empty()) {
      c.fail(label + ", is a model input with constant data: a caller cannot supply it");
    }
  }
  // The weights' scales, before any derivation divides by them (whose
  // message could not name the tensor).
  const bool weighted = builtin == Builtin::Conv2d || builtin == Builtin::DepthwiseConv2d ||
                        builtin == Builtin::TransposeConv || builtin == Builtin::FullyConnected;
  if (weighted && c.has_input(1)) {
    const int32_t w = c.input(1);
    for (const float s : c.tensor(w).quantization.scales) {
      if (!(s > 0.0F) || !std::isfinite(s)) {
        c.fail(c.tensor_label(w) + ": weight scale " + std::to_string(s) + " is not positive");
      }
    }
  }
  if (builtin == Builtin::Squeeze) check_squeeze(c);
}

}  // namespace etns::tools
