#include "tools/writers/import/import_context.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "kernels/portable/permute_copy/permute_copy.h"
#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tools/common/failure.h"
#include "tools/writers/import/tflite_import.h"
#include "tools/writers/tflite/tflite_reader.h"

namespace etns::tools {

using runtime::ScalarType;
using tflite::TensorType;

ImportState::ImportState(const tflite::Model& m, std::string c)
    : model(m),
      context(std::move(c)),
      graph("import", Provider::Arm),
      forms(m.tensors.size()),
      folded(m.tensors.size()) {}

bool ImportState::is_model_input(int32_t t) const {
  return std::find(model.inputs.begin(), model.inputs.end(), t) != model.inputs.end();
}

bool ImportState::is_model_output(int32_t t) const {
  return std::find(model.outputs.begin(), model.outputs.end(), t) != model.outputs.end();
}

OperatorImport::OperatorImport(ImportState& state, int32_t index)
    : s_(state), index_(index), op_(state.model.operators.at(static_cast<size_t>(index))) {}

// ---- The operator and messages ----

void OperatorImport::fail(const std::string& why) const { throw Failure(where() + ": " + why); }

std::string OperatorImport::where() const {
  return s_.context + ": operator " + std::to_string(index_) + " (" + tflite::builtin_name(op_.builtin) + ")";
}

std::string OperatorImport::tensor_label(int32_t t) const {
  return "tensor " + std::to_string(t) + " (\"" + tensor(t).name + "\")";
}

std::string OperatorImport::name(const std::string& suffix) const { return "op" + std::to_string(index_) + "_" + suffix; }

// ---- TFLite tensors ----

int32_t OperatorImport::input(size_t k) const {
  if (k >= op_.inputs.size() || op_.inputs[k] < 0) fail("input " + std::to_string(k) + " is missing");
  return op_.inputs[k];
}

bool OperatorImport::has_input(size_t k) const { return k < op_.inputs.size() && op_.inputs[k] >= 0; }

int32_t OperatorImport::output() const {
  if (op_.outputs.size() != 1) fail(std::to_string(op_.outputs.size()) + " outputs, expected 1");
  return op_.outputs[0];
}

std::vector<int32_t> OperatorImport::outputs() const {
  const auto builtin = static_cast<tflite::Builtin>(op_.builtin);
  const bool several = builtin == tflite::Builtin::Split || builtin == tflite::Builtin::SplitV ||
                       builtin == tflite::Builtin::Unpack;
  if (!several) return {output()};
  if (op_.outputs.empty()) fail("0 outputs, expected at least 1");
  for (size_t k = 0; k < op_.outputs.size(); ++k) {
    if (op_.outputs[k] < 0) fail("output " + std::to_string(k) + " is missing");
  }
  return op_.outputs;
}

const tflite::Tensor& OperatorImport::tensor(int32_t t) const {
  if (t < 0 || static_cast<size_t>(t) >= s_.model.tensors.size()) {
    throw Failure(s_.context + ": operator " + std::to_string(index_) + ": tensor index " + std::to_string(t) +
                  " out of range");
  }
  return s_.model.tensors[static_cast<size_t>(t)];
}

uint64_t OperatorImport::elements(int32_t t) const {
  uint64_t n = 1;
  for (const int32_t d : shape(t)) n *= static_cast<uint64_t>(d);
  return n;
}

void OperatorImport::expect_rank(int32_t t, size_t rank) const {
  if (shape(t).size() != rank) {
    fail(tensor_label(t) + " has rank " + std::to_string(shape(t).size()) + ", expected " + std::to_string(rank));
  }
}

Grid OperatorImport::int8_grid(int32_t t) const {
  const tflite::Tensor& x = tensor(t);
  if (x.type != TensorType::Int8) fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ", expected int8");
  return per_tensor_grid(t);
}

Grid OperatorImport::per_tensor_grid(int32_t t) const {
  const tflite::Tensor& x = tensor(t);
  if (!x.has_quantization || x.quantization.scales.size() != 1 || x.quantization.zero_points.size() != 1) {
    fail(tensor_label(t) + " has no per-tensor quantisation (one scale and one zero point)");
  }
  const float s = x.quantization.scales[0];
  const int64_t zp = x.quantization.zero_points[0];
  if (!(s > 0.0F) || !std::isfinite(s)) fail(tensor_label(t) + ": scale " + std::to_string(s) + " is not positive");
  if (zp < -128 || zp > 127) fail(tensor_label(t) + ": zero point " + std::to_string(zp) + " outside int8");
  return {s, static_cast<int32_t>(zp)};
}

const tflite::Tensor& OperatorImport::constant(int32_t t, TensorType type) const {
  const std::optional<tflite::Tensor>& value = s_.folded[static_cast<size_t>(t)];
  const tflite::Tensor& x = value ? *value : tensor(t);
  if (x.data.empty()) fail(tensor_label(t) + " is not a constant (its bytes are not in the file)");
  if (x.type != type) {
    fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ", expected " + tflite::to_string(type));
  }
  return x;
}

bool OperatorImport::is_constant(int32_t t) const { return constant_bytes(t) != nullptr; }

const std::vector<uint8_t>* OperatorImport::constant_bytes(int32_t t) const {
  const tflite::Tensor& x = tensor(t);
  if (!x.data.empty()) return &x.data;
  const std::optional<tflite::Tensor>& value = s_.folded[static_cast<size_t>(t)];
  return value ? &value->data : nullptr;
}

std::vector<int32_t> OperatorImport::int32_constant(int32_t t, size_t count) const {
  const tflite::Tensor& x = constant(t, TensorType::Int32);
  if (x.data.size() != count * 4) {
    fail(tensor_label(t) + " holds " + std::to_string(x.data.size() / 4) + " values, expected " + std::to_string(count));
  }
  return int32_values(x);
}

std::vector<int32_t> OperatorImport::int32_values(const tflite::Tensor& x) {
  std::vector<int32_t> v(x.data.size() / 4);
  std::memcpy(v.data(), x.data.data(), v.size() * 4);
  return v;
}

std::vector<float> OperatorImport::weight_scales(int32_t t, size_t dim, int32_t channels) const {
  const tflite::Tensor& w = tensor(t);
  if (!w.has_quantization) fail(tensor_label(t) + " has no quantisation");
  const tflite::Quantization& q = w.quantization;
  for (int64_t zp : q.zero_points) {
    if (zp != 0) fail(tensor_label(t) + ": weight zero point " + std::to_string(zp) + ", expected 0");
  }
  if (q.scales.size() == 1) return std::vector<float>(static_cast<size_t>(channels), q.scales[0]);
  if (q.scales.size() != static_cast<size_t>(channels) || q.quantized_dimension != static_cast<int32_t>(dim)) {
    fail(tensor_label(t) + ": " + std::to_string(q.scales.size()) + " scales along dim " +
         std::to_string(q.quantized_dimension) + ", expected 1 or " + std::to_string(channels) + " along dim " +
         std::to_string(dim));
  }
  for (float s : q.scales) {
    if (!(s > 0.0F) || !std::isfinite(s)) fail(tensor_label(t) + ": weight scale " + std::to_string(s) + " is not positive");
  }
  return q.scales;
}

tflm::ActivationRange OperatorImport::activation(const Grid& out) const {
  return tflm::activation_range(op_.options.activation, out.scale, out.zero_point, where());
}

// ---- Graph tensors ----

namespace {

bool layout_free(const std::vector<int32_t>& nhwc) { return OperatorImport::same_bytes_in_both_forms(nhwc); }

}  // namespace

bool OperatorImport::same_bytes_in_both_forms(const std::vector<int32_t>& nhwc) {
  return nhwc[3] == 1 || (nhwc[1] == 1 && nhwc[2] == 1);
}

ScalarType OperatorImport::dtype_of(TensorType type) {
  switch (type) {
    case TensorType::Int8: return ScalarType::Char;
    case TensorType::Int32: return ScalarType::Int;
    case TensorType::Float32: return ScalarType::Float;
    default: return ScalarType::Byte;
  }
}

int32_t OperatorImport::make(int32_t t, Form form, GraphTensor::Role role, const std::string& suffix) {
  const tflite::Tensor& x = tensor(t);
  if (x.type != TensorType::Int8 && x.type != TensorType::Float32 && x.type != TensorType::Int32) {
    fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ": only int8, int32 and float32 tensors are imported");
  }
  const std::string graph_name = "t" + std::to_string(t) + suffix;
  std::vector<uint8_t> data = role == GraphTensor::Role::Constant ? *constant_bytes(t) : std::vector<uint8_t>{};
  if (form == Form::ChannelsLast) {
    // Where both dim orders hold the same bytes, the default one: upstream's
    // cortex_m:: kernels take it as channels_last there, and its view_copy
    // and permute_copy take only the default order.
    const std::vector<uint8_t>& order = layout_free(x.shape) ? contiguous_order(4) : kChannelsLastOrder;
    return s_.graph.tensor(graph_name, dtype_of(x.type), nchw(x.shape), order, role, std::move(data));
  }
  return s_.graph.tensor(graph_name, dtype_of(x.type), x.shape, contiguous_order(x.shape.size()), role,
                         std::move(data));
}

// The two forms hold the same bytes; the copy gives the other operators the
// shape and dim order they take, in calls upstream's portable kernels accept:
// view_copy and permute_copy keep the default dim order (or channels_last on
// both sides), and only _to_dim_order_copy changes it, keeping the sizes.
int32_t OperatorImport::use(int32_t t, Form form) {
  ImportState::Forms& f = s_.forms.at(static_cast<size_t>(t));
  int32_t& want = form == Form::ChannelsLast ? f.channels_last : f.stored;
  if (want >= 0) return want;
  if (form == Form::ChannelsLast) expect_rank(t, 4);
  const int32_t have = form == Form::ChannelsLast ? f.stored : f.channels_last;
  if (have < 0) {
    if (is_constant(t)) return want = make(t, form, GraphTensor::Role::Constant);
    if (s_.is_model_input(t)) return want = make(t, form, GraphTensor::Role::Input);
    fail(tensor_label(t) + " is read before any operator writes it");
  }
  // A model input or output keeps one form (the caller's bytes); the copy
  // is an activation.
  want = make(t, form, GraphTensor::Role::Activation, form == Form::ChannelsLast ? "_nchw" : "_nhwc");
  const std::vector<int32_t>& nhwc = shape(t);
  if (layout_free(nhwc)) {
    // Both forms in the default dim order: the bytes as they are.
    const std::vector<int32_t> sizes = form == Form::ChannelsLast ? nchw(nhwc) : nhwc;
    call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(have)},
          {"size", GraphArg::list(std::vector<int64_t>(sizes.begin(), sizes.end()))},
          {"out", GraphArg::of_tensor(want)}},
         Step::Helper);
    return want;
  }
  // Through the contiguous [N, C, H, W] tensor: a dim order change and a
  // permute, each a real transposition of the bytes.
  const int32_t between = s_.graph.tensor("t" + std::to_string(t) + "_nchw_contiguous", dtype_of(tensor(t).type),
                                          nchw(nhwc), contiguous_order(4));
  const auto to_dim_order = [&](int32_t from, int32_t to, const std::vector<int64_t>& order) {
    call(portable::kToDimOrderCopyContract,
         {{"self", GraphArg::of_tensor(from)},
          {"non_blocking", GraphArg::boolean(false)},
          {"dim_order", GraphArg::list(order)},
          {"out", GraphArg::of_tensor(to)}},
         Step::Helper);
  };
  const auto permute = [&](int32_t from, int32_t to, const std::vector<int64_t>& dims) {
    call(portable::kPermuteCopyContract,
         {{"self", GraphArg::of_tensor(from)}, {"dims", GraphArg::list(dims)}, {"out", GraphArg::of_tensor(to)}},
         Step::Helper);
  };
  if (form == Form::Stored) {
    to_dim_order(have, between, {0, 1, 2, 3});
    permute(between, want, {0, 2, 3, 1});
  } else {
    permute(have, between, {0, 3, 1, 2});
    to_dim_order(between, want, {0, 2, 3, 1});
  }
  return want;
}

int32_t OperatorImport::define(int32_t t, Form form) {
  ImportState::Forms& f = s_.forms.at(static_cast<size_t>(t));
  if (f.channels_last >= 0 || f.stored >= 0 || s_.is_model_input(t) || is_constant(t)) {
    fail(tensor_label(t) + " is written twice (or is a model input or a constant)");
  }
  if (form == Form::ChannelsLast) expect_rank(t, 4);
  GraphTensor::Role role = GraphTensor::Role::Activation;
  if (s_.is_model_input(t)) {
    role = GraphTensor::Role::Input;
  } else if (s_.is_model_output(t)) {
    role = GraphTensor::Role::Output;
  }
  const int32_t index = make(t, form, role);
  (form == Form::ChannelsLast ? f.channels_last : f.stored) = index;
  return index;
}

Form OperatorImport::elementwise_form(int32_t first) const {
  const ImportState::Forms& f = s_.forms[static_cast<size_t>(first)];
  return shape(first).size() == 4 && f.stored < 0 && f.channels_last >= 0 ? Form::ChannelsLast : Form::Stored;
}

// The stored form, or the channels_last one when no dim but C (or H and W)
// exceeds 1, where both orders coincide and make() gave it the default one.
int32_t OperatorImport::row_major(int32_t t) {
  const ImportState::Forms& f = s_.forms[static_cast<size_t>(t)];
  if (f.stored >= 0 || f.channels_last < 0) return use(t, Form::Stored);
  if (layout_free(shape(t))) return f.channels_last;
  return use(t, Form::Stored);
}

int32_t OperatorImport::reshaped(int32_t t, const std::vector<int32_t>& sizes, const std::string& graph_name) {
  if (shape(t) == sizes) return use(t, Form::Stored);
  if (is_constant(t)) {
    return s_.graph.tensor(graph_name, dtype_of(tensor(t).type), sizes, contiguous_order(sizes.size()),
                           GraphTensor::Role::Constant, *constant_bytes(t));
  }
  const int32_t from = shape(t).size() == 4 ? row_major(t) : use(t, Form::Stored);
  const int32_t to = s_.graph.tensor(graph_name, dtype_of(tensor(t).type), sizes, contiguous_order(sizes.size()));
  call(portable::kViewCopyContract,
       {{"self", GraphArg::of_tensor(from)},
        {"size", GraphArg::list(std::vector<int64_t>(sizes.begin(), sizes.end()))},
        {"out", GraphArg::of_tensor(to)}},
       Step::Helper);
  return to;
}

// A 4-D int8 result whose two forms are the same bytes is written in the
// channels_last one (default dim order, make()): a convolution or pool reads
// it with no copy, and row_major() gives it to everything else.
void OperatorImport::view(int32_t from, int32_t t, Step step) {
  const bool channels_last = shape(t).size() == 4 && tensor(t).type == TensorType::Int8 && layout_free(shape(t)) &&
                             !s_.is_model_output(t);
  const int32_t gy = define(t, channels_last ? Form::ChannelsLast : Form::Stored);
  const std::vector<int32_t> sizes = channels_last ? nchw(shape(t)) : shape(t);
  std::vector<int64_t> size(sizes.begin(), sizes.end());
  call(portable::kViewCopyContract,
       {{"self", GraphArg::of_tensor(from)}, {"size", GraphArg::list(size)}, {"out", GraphArg::of_tensor(gy)}}, step);
}

// ---- Folding ----

void OperatorImport::fold(int32_t t, std::vector<uint8_t> bytes) {
  const ImportState::Forms& f = s_.forms.at(static_cast<size_t>(t));
  if (f.channels_last >= 0 || f.stored >= 0 || s_.is_model_input(t) || is_constant(t)) {
    fail(tensor_label(t) + " is written twice (or is a model input or a constant)");
  }
  if (s_.is_model_output(t)) {
    fail(tensor_label(t) + " is a model output: its value is known at import, and a program cannot return a "
                           "constant as an output");
  }
  const uint64_t expected = elements(t) * tflite::element_size(tensor(t).type);
  if (bytes.size() != expected) {
    throw Failure(where() + ": internal: folded " + std::to_string(bytes.size()) + " bytes for " + tensor_label(t) +
                  ", expected " + std::to_string(expected));
  }
  tflite::Tensor value = tensor(t);
  value.data = std::move(bytes);
  s_.folded[static_cast<size_t>(t)] = std::move(value);
  folded_ = true;
  became_ = kFoldedAtImport;
}

// ---- Calls ----

namespace {

// The PTE operator name without its overload: what the trace says an
// operator became ("cortex_m::quantized_conv2d").
std::string operator_name(const runtime::OperatorContract& contract) {
  const std::string full = contract.name;
  return full.substr(0, full.rfind('.'));
}

}  // namespace

void OperatorImport::call(const runtime::OperatorContract& contract, const std::vector<NamedArg>& args, Step step) {
  s_.graph.call(contract, args);
  const auto out = std::find_if(args.begin(), args.end(), [](const NamedArg& a) { return std::strcmp(a.name, "out") == 0; });
  note_instruction(out->value.tensor, operator_name(contract), step);
}

void OperatorImport::per_tensor(const runtime::OperatorContract& contract, int32_t in, const Qparams& q, int32_t out) {
  s_.graph.per_tensor(contract, in, q, out);
  note_instruction(out, operator_name(contract), Step::Main);
}

// Records the op just added as the writer of graph tensor `written`.
void OperatorImport::note_instruction(int32_t written, const std::string& op_name, Step step) {
  const int32_t instruction = s_.instruction_count++;
  if (static_cast<size_t>(written) >= s_.producer.size()) s_.producer.resize(static_cast<size_t>(written) + 1, -1);
  s_.producer[static_cast<size_t>(written)] = instruction;
  instructions_ += 1;
  if (step == Step::Main) became_ = op_name;
}

}  // namespace etns::tools
