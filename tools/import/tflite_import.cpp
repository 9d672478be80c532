#include "tools/import/tflite_import.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/cortex_m/add/add.h"
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/portable/portable.h"
#include "tools/common/failure.h"
#include "tools/import/tflm_numerics.h"

namespace etns::tools {
namespace {

using runtime::ScalarType;
using tflite::Builtin;
using tflite::TensorType;

// The per-tensor int8 quantisation of an activation.
struct Grid {
  float scale = 1.0F;
  int32_t zero_point = 0;
};

bool same_grid(const Grid& a, const Grid& b) { return a.scale == b.scale && a.zero_point == b.zero_point; }

enum class Form : uint8_t {
  ChannelsLast,  // 4-D [N,H,W,C] as logical [N,C,H,W], dim order {0,2,3,1}
  Stored,        // the TFLite shape, contiguous
};

class Importer {
 public:
  Importer(const tflite::Model& model, const std::string& context)
      : m_(model), context_(context), g_("import", Provider::Arm), forms_(model.tensors.size()) {}

  ImportedModel run() {
    if (m_.inputs.empty() || m_.outputs.empty()) throw Failure(context_ + ": the model has no input or no output");
    for (size_t i = 0; i < m_.operators.size(); ++i) import_operator(static_cast<int32_t>(i));
    ImportedModel result;
    result.graph = g_.take();
    // The method's inputs and outputs in the model's order (the builder lists
    // them in the order they were made).
    result.graph.inputs.clear();
    for (const int32_t t : m_.inputs) result.graph.inputs.push_back(caller_tensor(t, "input"));
    result.graph.outputs.clear();
    for (const int32_t t : m_.outputs) result.graph.outputs.push_back(caller_tensor(t, "output"));
    result.operators = std::move(trace_);
    return result;
  }

 private:
  struct Forms {
    int32_t channels_last = -1;  // graph tensor indices, -1 = not made
    int32_t stored = -1;
  };

  // The graph tensor holding model input or output t: the form made first
  // (its role is Input or Output; a copy into the other form is an activation).
  int32_t caller_tensor(int32_t t, const char* what) const {
    if (t < 0 || static_cast<size_t>(t) >= m_.tensors.size()) {
      throw Failure(context_ + ": model " + what + " tensor " + std::to_string(t) + " out of range");
    }
    const Forms& f = forms_[static_cast<size_t>(t)];
    const int32_t first = f.channels_last >= 0 && (f.stored < 0 || f.channels_last < f.stored) ? f.channels_last : f.stored;
    if (first < 0) {
      throw Failure(context_ + ": model " + what + " tensor " + std::to_string(t) + " (\"" + m_.tensors[static_cast<size_t>(t)].name +
                    "\") is " + (std::string(what) == "input" ? "read by no operator" : "written by no operator"));
    }
    if (is_model_input(t) && is_model_output(t)) {
      throw Failure(context_ + ": tensor " + std::to_string(t) + " is both a model input and a model output");
    }
    return first;
  }

  // ---- Messages ----

  [[noreturn]] void fail(const std::string& why) const {
    throw Failure(context_ + ": operator " + std::to_string(op_index_) + " (" + tflite::builtin_name(op_->builtin) +
                  "): " + why);
  }
  std::string tensor_label(int32_t t) const {
    return "tensor " + std::to_string(t) + " (\"" + tensor(t).name + "\")";
  }

  // ---- TFLite tensors ----

  const tflite::Tensor& tensor(int32_t t) const {
    if (t < 0 || static_cast<size_t>(t) >= m_.tensors.size()) {
      throw Failure(context_ + ": operator " + std::to_string(op_index_) + ": tensor index " + std::to_string(t) +
                    " out of range");
    }
    return m_.tensors[static_cast<size_t>(t)];
  }
  int32_t input(size_t k) const {
    if (k >= op_->inputs.size() || op_->inputs[k] < 0) fail("input " + std::to_string(k) + " is missing");
    return op_->inputs[k];
  }
  bool has_input(size_t k) const { return k < op_->inputs.size() && op_->inputs[k] >= 0; }
  int32_t output() const {
    if (op_->outputs.size() != 1) fail(std::to_string(op_->outputs.size()) + " outputs, expected 1");
    return op_->outputs[0];
  }
  bool is_model_input(int32_t t) const { return std::find(m_.inputs.begin(), m_.inputs.end(), t) != m_.inputs.end(); }
  bool is_model_output(int32_t t) const {
    return std::find(m_.outputs.begin(), m_.outputs.end(), t) != m_.outputs.end();
  }

  // An int8 activation with per-tensor quantisation: its grid.
  Grid int8_grid(int32_t t) const {
    const tflite::Tensor& x = tensor(t);
    if (x.type != TensorType::Int8) fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ", expected int8");
    return per_tensor_grid(t);
  }
  Grid per_tensor_grid(int32_t t) const {
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
  const std::vector<int32_t>& shape(int32_t t) const { return tensor(t).shape; }
  void expect_rank(int32_t t, size_t rank) const {
    if (shape(t).size() != rank) {
      fail(tensor_label(t) + " has rank " + std::to_string(shape(t).size()) + ", expected " + std::to_string(rank));
    }
  }
  // A constant: the file holds its bytes.
  const tflite::Tensor& constant(int32_t t, TensorType type) const {
    const tflite::Tensor& x = tensor(t);
    if (x.data.empty()) fail(tensor_label(t) + " is not a constant (its bytes are not in the file)");
    if (x.type != type) {
      fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ", expected " + tflite::to_string(type));
    }
    return x;
  }
  std::vector<int32_t> int32_values(const tflite::Tensor& x) const {
    std::vector<int32_t> v(x.data.size() / 4);
    std::memcpy(v.data(), x.data.data(), v.size() * 4);
    return v;
  }
  // Per-channel (or per-tensor, then repeated) weight scales along `dim`,
  // each with zero point 0.
  std::vector<float> weight_scales(int32_t t, size_t dim, int32_t channels) const {
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

  // ---- Graph tensors ----

  static std::vector<int32_t> nchw(const std::vector<int32_t>& nhwc) { return {nhwc[0], nhwc[3], nhwc[1], nhwc[2]}; }

  GraphTensor::Role role_of(int32_t t) const {
    if (is_model_input(t)) return GraphTensor::Role::Input;
    if (is_model_output(t)) return GraphTensor::Role::Output;
    return GraphTensor::Role::Activation;
  }
  static ScalarType dtype_of(TensorType type) {
    switch (type) {
      case TensorType::Int8: return ScalarType::Char;
      case TensorType::Int32: return ScalarType::Int;
      case TensorType::Float32: return ScalarType::Float;
      default: return ScalarType::Byte;
    }
  }

  // A new graph tensor for TFLite tensor t in `form`.
  int32_t make(int32_t t, Form form, GraphTensor::Role role, const std::string& suffix = "") {
    const tflite::Tensor& x = tensor(t);
    if (x.type != TensorType::Int8 && x.type != TensorType::Float32 && x.type != TensorType::Int32) {
      fail(tensor_label(t) + " is " + tflite::to_string(x.type) + ": only int8, int32 and float32 tensors are imported");
    }
    const std::string name = "t" + std::to_string(t) + suffix;
    std::vector<uint8_t> data = role == GraphTensor::Role::Constant ? x.data : std::vector<uint8_t>{};
    if (form == Form::ChannelsLast) {
      return g_.tensor(name, dtype_of(x.type), nchw(x.shape), kChannelsLastOrder, role, std::move(data));
    }
    return g_.tensor(name, dtype_of(x.type), x.shape, contiguous_order(x.shape.size()), role, std::move(data));
  }

  // TFLite tensor t as a graph tensor in `form`: the existing one, or a
  // constant or model input made in that form, or a copy into it (the two
  // forms hold the same bytes; the copy gives the other operators the
  // shape and dim order they take).
  int32_t use(int32_t t, Form form) {
    Forms& f = forms_.at(static_cast<size_t>(t));
    int32_t& want = form == Form::ChannelsLast ? f.channels_last : f.stored;
    if (want >= 0) return want;
    if (form == Form::ChannelsLast) expect_rank(t, 4);
    const int32_t have = form == Form::ChannelsLast ? f.stored : f.channels_last;
    if (have < 0) {
      if (!tensor(t).data.empty()) return want = make(t, form, GraphTensor::Role::Constant);
      if (is_model_input(t)) return want = make(t, form, GraphTensor::Role::Input);
      fail(tensor_label(t) + " is read before any operator writes it");
    }
    // A model input or output keeps one form (the caller's bytes); the copy
    // is an activation.
    want = make(t, form, GraphTensor::Role::Activation, form == Form::ChannelsLast ? "_nchw" : "_nhwc");
    const std::vector<int64_t> dims =
        form == Form::ChannelsLast ? std::vector<int64_t>{0, 3, 1, 2} : std::vector<int64_t>{0, 2, 3, 1};
    g_.call(portable::kPermuteCopyContract,
            {{"self", GraphArg::of_tensor(have)}, {"dims", GraphArg::list(dims)}, {"out", GraphArg::of_tensor(want)}});
    note_instruction(want, "aten::permute_copy", false);
    return want;
  }

  // The graph tensor an operator writes for TFLite tensor t.
  int32_t define(int32_t t, Form form) {
    Forms& f = forms_.at(static_cast<size_t>(t));
    if (f.channels_last >= 0 || f.stored >= 0 || is_model_input(t) || !tensor(t).data.empty()) {
      fail(tensor_label(t) + " is written twice (or is a model input or a constant)");
    }
    if (form == Form::ChannelsLast) expect_rank(t, 4);
    const int32_t index = make(t, form, role_of(t));
    (form == Form::ChannelsLast ? f.channels_last : f.stored) = index;
    return index;
  }

  // Records the op just added as the writer of graph tensor `written`; the
  // operator's main op names what it became (copies between forms do not).
  void note_instruction(int32_t written, const std::string& op_name, bool main = true) {
    const int32_t instruction = instruction_count_++;
    if (static_cast<size_t>(written) >= producer_.size()) producer_.resize(static_cast<size_t>(written) + 1, -1);
    producer_[static_cast<size_t>(written)] = instruction;
    ops_taken_ += 1;
    if (main) became_ = op_name;
  }

  // ---- Operators ----

  void import_operator(int32_t index) {
    op_index_ = index;
    op_ = &m_.operators[static_cast<size_t>(index)];
    became_.clear();
    ops_taken_ = 0;
    const int32_t out = output();
    expect_elements();
    switch (static_cast<Builtin>(op_->builtin)) {
      case Builtin::Conv2d: conv2d(); break;
      case Builtin::DepthwiseConv2d: depthwise_conv2d(); break;
      case Builtin::TransposeConv: transpose_conv2d(); break;
      case Builtin::FullyConnected: fully_connected(); break;
      case Builtin::AveragePool2d: pool(false); break;
      case Builtin::MaxPool2d: pool(true); break;
      case Builtin::Add: add(); break;
      case Builtin::Softmax: softmax(); break;
      case Builtin::Reshape:
      case Builtin::Squeeze: reshape(); break;
      case Builtin::Mul: mul(); break;
      case Builtin::Minimum: min_max(false); break;
      case Builtin::Maximum: min_max(true); break;
      case Builtin::Pad:
      case Builtin::PadV2: pad(); break;
      case Builtin::Transpose: transpose(); break;
      case Builtin::Quantize: quantize(); break;
      case Builtin::Dequantize: dequantize(); break;
      case Builtin::BatchMatmul: batch_matmul(); break;
      case Builtin::Custom: fail("custom operator \"" + op_->custom_code + "\" has no cortex_m:: equivalent");
      default: fail("no cortex_m:: operator computes it like TFLite Micro");
    }
    ImportedOperator record;
    record.index = index;
    record.builtin = tflite::builtin_name(op_->builtin);
    record.became = became_;
    record.output_tensor = out;
    const Forms& f = forms_[static_cast<size_t>(out)];
    const int32_t written = f.channels_last >= 0 ? f.channels_last : f.stored;
    record.instruction = static_cast<size_t>(written) < producer_.size() ? producer_[static_cast<size_t>(written)] : -1;
    record.instructions = ops_taken_;
    record.output_elements = elements(out);
    record.macs = macs(static_cast<Builtin>(op_->builtin), record.output_elements);
    trace_.push_back(std::move(record));
  }

  // Every tensor an operator reads or writes holds at least one element
  // (RESHAPE's new_shape aside, which is empty for a scalar): the shape
  // arithmetic below divides by channel and row counts, and no cortex_m::
  // kernel has work to do on an empty tensor.
  void expect_elements() const {
    for (size_t k = 0; k < op_->inputs.size(); ++k) {
      if (k == 1 && static_cast<Builtin>(op_->builtin) == Builtin::Reshape) continue;
      if (op_->inputs[k] >= 0 && elements(op_->inputs[k]) == 0) {
        fail(tensor_label(op_->inputs[k]) + ", input " + std::to_string(k) + ", has no elements (shape " +
             tflite::shape_text(shape(op_->inputs[k])) + ")");
      }
    }
    if (elements(output()) == 0) {
      fail(tensor_label(output()) + ", the output, has no elements (shape " + tflite::shape_text(shape(output())) + ")");
    }
  }

  uint64_t elements(int32_t t) const {
    uint64_t n = 1;
    for (const int32_t d : shape(t)) n *= static_cast<uint64_t>(d);
    return n;
  }
  // Multiply-accumulates per output element times the output's elements: a
  // convolution's window (the weight's [KH, KW, Cin/groups] or, depthwise,
  // [KH, KW]), a fully connected layer's input features, a batch matmul's
  // inner dimension. The operator was checked above, so the shapes are known.
  uint64_t macs(Builtin builtin, uint64_t output_elements) const {
    switch (builtin) {
      case Builtin::Conv2d: {
        const std::vector<int32_t> w = shape(input(1));
        return output_elements * static_cast<uint64_t>(w[1]) * static_cast<uint64_t>(w[2]) *
               static_cast<uint64_t>(w[3]);
      }
      case Builtin::DepthwiseConv2d: {
        const std::vector<int32_t> w = shape(input(1));
        return output_elements * static_cast<uint64_t>(w[1]) * static_cast<uint64_t>(w[2]);
      }
      case Builtin::FullyConnected:
        return output_elements * static_cast<uint64_t>(shape(input(1)).back());
      case Builtin::BatchMatmul: {
        const std::vector<int32_t> x = shape(input(0));
        const bool adjoint_x = op_->options.adj_x;
        return output_elements * static_cast<uint64_t>(adjoint_x ? x[x.size() - 2] : x.back());
      }
      default:
        return 0;
    }
  }

  tflm::ActivationRange activation(const Grid& out) const {
    return tflm::activation_range(op_->options.activation, out.scale, out.zero_point, where());
  }
  std::string where() const {
    return context_ + ": operator " + std::to_string(op_index_) + " (" + tflite::builtin_name(op_->builtin) + ")";
  }

  // The spatial geometry of a convolution or pool, checked against the
  // output TFLite stored: [top, left] padding, the far side implied.
  struct Geometry {
    std::vector<int64_t> stride, padding, dilation;
  };
  Geometry geometry(int32_t in, int32_t out, int32_t filter_h, int32_t filter_w, int32_t dilation_h,
                    int32_t dilation_w) const {
    const tflite::Options& o = op_->options;
    if (o.stride_h < 1 || o.stride_w < 1 || dilation_h < 1 || dilation_w < 1 || filter_h < 1 || filter_w < 1) {
      fail("stride, dilation and filter sizes must be positive");
    }
    const tflm::SpatialPadding ph = tflm::spatial_padding(o.padding, shape(in)[1], filter_h, o.stride_h, dilation_h);
    const tflm::SpatialPadding pw = tflm::spatial_padding(o.padding, shape(in)[2], filter_w, o.stride_w, dilation_w);
    if (ph.out != shape(out)[1] || pw.out != shape(out)[2]) {
      fail("output " + std::to_string(shape(out)[1]) + "x" + std::to_string(shape(out)[2]) + ", but the options give " +
           std::to_string(ph.out) + "x" + std::to_string(pw.out));
    }
    return {{o.stride_h, o.stride_w}, {ph.near, pw.near}, {dilation_h, dilation_w}};
  }

  // Bias, multipliers and shifts of a per-channel convolution.
  struct PerChannel {
    GraphArg bias = GraphArg::null();
    int32_t multipliers = -1;
    int32_t shifts = -1;
  };
  PerChannel per_channel(int32_t weights, size_t channel_dim, int32_t channels, const Grid& in, const Grid& out,
                         size_t bias_input = 2) {
    const std::vector<float> scales = weight_scales(weights, channel_dim, channels);
    std::vector<int32_t> multipliers, shifts;
    for (int32_t c = 0; c < channels; ++c) {
      const Requant r = tflm::conv_channel_multiplier(in.scale, scales[static_cast<size_t>(c)], out.scale,
                                                      where() + ": channel " + std::to_string(c));
      multipliers.push_back(r.multiplier);
      shifts.push_back(r.shift);
    }
    PerChannel p;
    const std::string prefix = "op" + std::to_string(op_index_) + "_";
    p.multipliers = g_.int32_vector(prefix + "multipliers", multipliers);
    p.shifts = g_.int32_vector(prefix + "shifts", shifts);
    if (has_input(bias_input)) {
      const int32_t bias = input(bias_input);
      const tflite::Tensor& b = constant(bias, TensorType::Int32);
      if (b.data.size() != static_cast<size_t>(channels) * 4) {
        fail(tensor_label(bias) + " holds " + std::to_string(b.data.size() / 4) + " biases, expected " +
             std::to_string(channels));
      }
      p.bias = GraphArg::of_tensor(use(bias, Form::Stored));
    }
    return p;
  }

  void conv2d() {
    const int32_t x = input(0), w = input(1), y = output();
    expect_rank(x, 4);
    expect_rank(w, 4);
    expect_rank(y, 4);
    const Grid in = int8_grid(x), out = int8_grid(y);
    constant(w, TensorType::Int8);
    const int32_t cout = shape(w)[0], cin_w = shape(w)[3];
    if (shape(y)[3] != cout || shape(y)[0] != shape(x)[0]) fail("output channels or batch differ from the weights'");
    if (cin_w < 1 || shape(x)[3] % cin_w != 0 || cout % (shape(x)[3] / cin_w) != 0) {
      fail("input channels " + std::to_string(shape(x)[3]) + " are not a whole number of groups of " +
           std::to_string(cin_w));
    }
    const Geometry geo =
        geometry(x, y, shape(w)[1], shape(w)[2], op_->options.dilation_h, op_->options.dilation_w);
    const tflm::ActivationRange act = activation(out);
    const PerChannel pc = per_channel(w, 0, cout, in, out);
    const int32_t gx = use(x, Form::ChannelsLast), gw = use(w, Form::Stored);
    const int32_t gy = define(y, Form::ChannelsLast);
    g_.call(cortex_m::kConv2dContract, {{"input", GraphArg::of_tensor(gx)},
                                        {"weight", GraphArg::of_tensor(gw)},
                                        {"bias", pc.bias},
                                        {"stride", GraphArg::list(geo.stride)},
                                        {"padding", GraphArg::list(geo.padding)},
                                        {"dilation", GraphArg::list(geo.dilation)},
                                        {"input_offset", GraphArg::integer(-in.zero_point)},
                                        {"output_offset", GraphArg::integer(out.zero_point)},
                                        {"requantize_multipliers", GraphArg::of_tensor(pc.multipliers)},
                                        {"requantize_shifts", GraphArg::of_tensor(pc.shifts)},
                                        {"activation_min", GraphArg::integer(act.min)},
                                        {"activation_max", GraphArg::integer(act.max)},
                                        {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_conv2d");
  }

  void depthwise_conv2d() {
    const int32_t x = input(0), w = input(1), y = output();
    expect_rank(x, 4);
    expect_rank(w, 4);
    expect_rank(y, 4);
    const Grid in = int8_grid(x), out = int8_grid(y);
    constant(w, TensorType::Int8);
    const int32_t cin = shape(x)[3], cout = shape(w)[3];
    if (shape(w)[0] != 1) fail(tensor_label(w) + " is not [1, KH, KW, Cout]");
    if (shape(y)[3] != cout || shape(y)[0] != shape(x)[0]) fail("output channels or batch differ from the weights'");
    if (cin < 1 || cout % cin != 0) fail("output channels " + std::to_string(cout) + " are not a multiple of " + std::to_string(cin));
    const int32_t multiplier = cout / cin;
    if (op_->options.depth_multiplier != 0 && op_->options.depth_multiplier != multiplier) {
      fail("depth_multiplier " + std::to_string(op_->options.depth_multiplier) + " but the weights give " +
           std::to_string(multiplier));
    }
    const Geometry geo =
        geometry(x, y, shape(w)[1], shape(w)[2], op_->options.dilation_h, op_->options.dilation_w);
    const tflm::ActivationRange act = activation(out);
    const PerChannel pc = per_channel(w, 3, cout, in, out);
    const int32_t gx = use(x, Form::ChannelsLast), gw = use(w, Form::Stored);
    const int32_t gy = define(y, Form::ChannelsLast);
    g_.call(cortex_m::kDepthwiseConv2dContract, {{"input", GraphArg::of_tensor(gx)},
                                                 {"weight", GraphArg::of_tensor(gw)},
                                                 {"bias", pc.bias},
                                                 {"stride", GraphArg::list(geo.stride)},
                                                 {"padding", GraphArg::list(geo.padding)},
                                                 {"dilation", GraphArg::list(geo.dilation)},
                                                 {"depth_multiplier", GraphArg::integer(multiplier)},
                                                 {"input_offset", GraphArg::integer(-in.zero_point)},
                                                 {"output_offset", GraphArg::integer(out.zero_point)},
                                                 {"requantize_multipliers", GraphArg::of_tensor(pc.multipliers)},
                                                 {"requantize_shifts", GraphArg::of_tensor(pc.shifts)},
                                                 {"activation_min", GraphArg::integer(act.min)},
                                                 {"activation_max", GraphArg::integer(act.max)},
                                                 {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_depthwise_conv2d");
  }

  // One spatial dim of a TRANSPOSE_CONV as quantized_transpose_conv2d computes
  // it: the near-side padding, output_padding, and the size the kernel writes
  // (the TFLite output's, or longer by the rows a crop then drops).
  struct TransposedDim {
    int32_t pad = 0;
    int32_t output_padding = 0;
    int32_t computed = 0;
  };
  TransposedDim transposed_dim(const char* what, int32_t in, int32_t out, int32_t filter, int32_t stride) const {
    // TFLM's padding comes from the OUTPUT size (ComputePaddingHeightWidth with
    // the output as its "input", dilation 1; C++ division as TFLM's).
    const int64_t o = out, s = stride, k = filter;
    const int64_t tflm_out = op_->options.padding == tflite::Padding::Same ? (o + s - 1) / s : (o + s - k) / s;
    const int64_t total = std::max<int64_t>((tflm_out - 1) * s + k - o, 0);
    TransposedDim d;
    d.pad = static_cast<int32_t>(total / 2);
    // The kernel's output is (in - 1) * stride - 2 * pad + k + output_padding,
    // output_padding in [0, stride). An odd SAME total leaves TFLM's output one
    // row shorter than that (its far side is cropped by pad + 1): the kernel
    // writes the longer output and the extra rows are dropped after it.
    const int64_t reach = (static_cast<int64_t>(in) - 1) * s - 2 * d.pad + k;
    if (o <= reach) {
      d.computed = static_cast<int32_t>(reach);
    } else if (o - reach < s) {
      d.output_padding = static_cast<int32_t>(o - reach);
      d.computed = out;
    } else {
      fail(std::string("output ") + what + " " + std::to_string(out) + " is " + std::to_string(o - reach) +
           " past the " + std::to_string(reach) + " the input reaches (input " + std::to_string(in) + ", padding " +
           std::to_string(d.pad) + "): quantized_transpose_conv2d adds at most stride - 1");
    }
    return d;
  }

  // TRANSPOSE_CONV as TFLM's reference_integer_ops::TransposeConv: input pixel
  // (iy, ix) scatters through tap (ky, kx) onto output (iy * stride - pad + ky,
  // ix * stride - pad + kx), positions outside the output dropped, then
  // bias, per-channel requantisation and the fused activation's clamp, which
  // is quantized_transpose_conv2d's arithmetic. Inputs: 0 the output shape
  // (TFLM ignores it: the output tensor's shape rules), 1 weights
  // [Cout, KH, KW, Cin], 2 the input, 3 an optional int32 bias.
  void transpose_conv2d() {
    const int32_t w = input(1), x = input(2), y = output();
    expect_rank(x, 4);
    expect_rank(w, 4);
    expect_rank(y, 4);
    const Grid in = int8_grid(x), out = int8_grid(y);
    constant(w, TensorType::Int8);
    const int32_t cout = shape(w)[0];
    if (shape(w)[3] != shape(x)[3]) {
      fail(tensor_label(w) + " has " + std::to_string(shape(w)[3]) + " input channels, the input " +
           std::to_string(shape(x)[3]));
    }
    if (shape(y)[3] != cout || shape(y)[0] != shape(x)[0]) fail("output channels or batch differ from the weights'");
    const tflite::Options& o = op_->options;
    if (o.stride_h < 1 || o.stride_w < 1) fail("stride must be positive");
    const TransposedDim dh = transposed_dim("height", shape(x)[1], shape(y)[1], shape(w)[1], o.stride_h);
    const TransposedDim dw = transposed_dim("width", shape(x)[2], shape(y)[2], shape(w)[2], o.stride_w);
    // TFLM applies the fused activation since tflite-micro#3278 (January
    // 2026); before, its transpose convolution ignored it.
    const tflm::ActivationRange act = activation(out);
    const PerChannel pc = per_channel(w, 0, cout, in, out, 3);
    const int32_t gx = use(x, Form::ChannelsLast), gw = use(w, Form::Stored);
    const bool crop = dh.computed != shape(y)[1] || dw.computed != shape(y)[2];
    const int32_t computed =
        crop ? g_.s8("op" + std::to_string(op_index_) + "_uncropped", nchw({shape(y)[0], dh.computed, dw.computed, cout}),
                     kChannelsLastOrder)
             : define(y, Form::ChannelsLast);
    g_.call(cortex_m::kTransposeConv2dContract, {{"input", GraphArg::of_tensor(gx)},
                                                 {"weight", GraphArg::of_tensor(gw)},
                                                 {"bias", pc.bias},
                                                 {"stride", GraphArg::list({o.stride_h, o.stride_w})},
                                                 {"padding", GraphArg::list({dh.pad, dw.pad})},
                                                 {"output_padding", GraphArg::list({dh.output_padding, dw.output_padding})},
                                                 {"dilation", GraphArg::list({1, 1})},
                                                 {"input_offset", GraphArg::integer(-in.zero_point)},
                                                 {"output_offset", GraphArg::integer(out.zero_point)},
                                                 {"requantize_multipliers", GraphArg::of_tensor(pc.multipliers)},
                                                 {"requantize_shifts", GraphArg::of_tensor(pc.shifts)},
                                                 {"activation_min", GraphArg::integer(act.min)},
                                                 {"activation_max", GraphArg::integer(act.max)},
                                                 {"out", GraphArg::of_tensor(computed)}});
    note_instruction(computed, "cortex_m::quantized_transpose_conv2d");
    if (!crop) return;
    // The top-left window of the longer output: a 1x1 max pool copies it
    // (the pool trusts its output's size; one tap, nothing clamped).
    const int32_t gy = define(y, Form::ChannelsLast);
    g_.call(cortex_m::kMaxPool2dContract, {{"input", GraphArg::of_tensor(computed)},
                                           {"kernel_size", GraphArg::list({1, 1})},
                                           {"stride", GraphArg::list({1, 1})},
                                           {"padding", GraphArg::list({0, 0})},
                                           {"dilation", GraphArg::list({1, 1})},
                                           {"ceil_mode", GraphArg::boolean(false)},
                                           {"input_zero_point", GraphArg::integer(out.zero_point)},
                                           {"output_zero_point", GraphArg::integer(out.zero_point)},
                                           {"activation_min", GraphArg::integer(-128)},
                                           {"activation_max", GraphArg::integer(127)},
                                           {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_max_pool2d", false);
  }

  void fully_connected() {
    const int32_t x = input(0), w = input(1), y = output();
    const tflite::Options& o = op_->options;
    if (o.weights_format != 0) fail("weights_format " + std::to_string(o.weights_format) + " (only DEFAULT is imported)");
    if (o.asymmetric_quantize_inputs) fail("asymmetric_quantize_inputs (a hybrid float model)");
    expect_rank(w, 2);
    const Grid in = int8_grid(x), out = int8_grid(y);
    const tflite::Tensor& weights = constant(w, TensorType::Int8);
    const int32_t units = shape(w)[0], depth = shape(w)[1];
    const std::vector<float> scales = weight_scales(w, 0, units);
    if (weights.quantization.scales.size() != 1) {
      fail(tensor_label(w) + " is quantised per channel: quantized_linear applies one multiplier");
    }
    uint64_t elements = 1;
    for (int32_t s : shape(x)) elements *= static_cast<uint64_t>(s);
    if (depth < 1 || elements % static_cast<uint64_t>(depth) != 0) {
      fail("input of " + std::to_string(elements) + " elements is not rows of " + std::to_string(depth));
    }
    const auto batches = static_cast<int32_t>(elements / static_cast<uint64_t>(depth));
    uint64_t out_elements = 1;
    for (int32_t s : shape(y)) out_elements *= static_cast<uint64_t>(s);
    if (out_elements != static_cast<uint64_t>(batches) * static_cast<uint64_t>(units) || shape(y).back() != units) {
      fail("output shape does not hold " + std::to_string(batches) + " rows of " + std::to_string(units));
    }
    const Requant r = tflm::fully_connected_multiplier(in.scale, scales[0], out.scale, where());
    const tflm::ActivationRange act = activation(out);
    // kernel_sum = bias + input_offset * sum(w) per unit (the exporter's form;
    // CMSIS-NN's Helium path adds it to the plain dot product).
    std::vector<int32_t> bias(static_cast<size_t>(units), 0);
    if (has_input(2)) {
      const tflite::Tensor& b = constant(input(2), TensorType::Int32);
      if (b.data.size() != static_cast<size_t>(units) * 4) fail(tensor_label(input(2)) + " does not hold one bias per unit");
      bias = int32_values(b);
    }
    std::vector<int32_t> kernel_sum(static_cast<size_t>(units));
    for (int32_t u = 0; u < units; ++u) {
      int64_t sum = 0;
      for (int32_t k = 0; k < depth; ++k) {
        sum += static_cast<int8_t>(weights.data[static_cast<size_t>(u) * static_cast<size_t>(depth) + static_cast<size_t>(k)]);
      }
      const int64_t folded = bias[static_cast<size_t>(u)] + static_cast<int64_t>(-in.zero_point) * sum;
      if (folded < std::numeric_limits<int32_t>::min() || folded > std::numeric_limits<int32_t>::max()) {
        fail("unit " + std::to_string(u) + ": bias + input offset x weight sum leaves int32");
      }
      kernel_sum[static_cast<size_t>(u)] = static_cast<int32_t>(folded);
    }
    const int32_t gx = rows(x, batches, depth);
    const int32_t sums = g_.int32_vector("op" + std::to_string(op_index_) + "_kernel_sum", kernel_sum, {1, units});
    const int32_t gw = use(w, Form::Stored);
    const bool direct = shape(y).size() == 2;
    const int32_t gy = direct ? define(y, Form::Stored)
                              : g_.s8("op" + std::to_string(op_index_) + "_rows", {batches, units}, contiguous_order(2));
    g_.call(cortex_m::kLinearContract, {{"input", GraphArg::of_tensor(gx)},
                                        {"weights", GraphArg::of_tensor(gw)},
                                        {"bias", GraphArg::null()},
                                        {"kernel_sum", GraphArg::of_tensor(sums)},
                                        {"input_offset", GraphArg::integer(-in.zero_point)},
                                        {"filter_offset", GraphArg::integer(0)},
                                        {"output_offset", GraphArg::integer(out.zero_point)},
                                        {"requantize_multipliers", GraphArg::list({r.multiplier})},
                                        {"requantize_shifts", GraphArg::list({r.shift})},
                                        {"activation_max", GraphArg::integer(act.max)},
                                        {"activation_min", GraphArg::integer(act.min)},
                                        {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_linear");
    if (!direct) view(gy, y, false);
  }

  // TFLite tensor t as [rows, depth] for quantized_linear: itself when it
  // has that shape, else a view_copy of its stored form.
  int32_t rows(int32_t t, int32_t batches, int32_t depth) {
    if (shape(t) == std::vector<int32_t>{batches, depth}) return use(t, Form::Stored);
    const int32_t flat = g_.s8("op" + std::to_string(op_index_) + "_flat", {batches, depth}, contiguous_order(2));
    g_.call(portable::kViewCopyContract, {{"self", GraphArg::of_tensor(row_major(t))},
                                          {"size", GraphArg::list({batches, depth})},
                                          {"out", GraphArg::of_tensor(flat)}});
    note_instruction(flat, "aten::view_copy", false);
    return flat;
  }

  // t in a form whose logical order is its NHWC byte order: the stored
  // form, or the channels_last one when no dim but C (or H and W) exceeds 1,
  // where both orders coincide.
  int32_t row_major(int32_t t) {
    const Forms& f = forms_[static_cast<size_t>(t)];
    if (f.stored >= 0 || f.channels_last < 0) return use(t, Form::Stored);
    const std::vector<int32_t>& s = shape(t);
    if (s[3] == 1 || (s[1] == 1 && s[2] == 1)) return f.channels_last;
    return use(t, Form::Stored);
  }

  // Graph tensor `from` copied into TFLite tensor t's stored form.
  void view(int32_t from, int32_t t, bool main = true) {
    const int32_t gy = define(t, Form::Stored);
    std::vector<int64_t> size(shape(t).begin(), shape(t).end());
    g_.call(portable::kViewCopyContract,
            {{"self", GraphArg::of_tensor(from)}, {"size", GraphArg::list(size)}, {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "aten::view_copy", main);
  }

  void reshape() {
    const int32_t x = input(0), y = output();
    const tflite::Tensor& in = tensor(x);
    const tflite::Tensor& out = tensor(y);
    // TFLM copies the bytes whatever the quantisation says.
    if (in.type != out.type) fail("input and output types differ");
    uint64_t a = 1, b = 1;
    for (int32_t s : in.shape) a *= static_cast<uint64_t>(s);
    for (int32_t s : out.shape) b *= static_cast<uint64_t>(s);
    if (a != b) fail("reshapes " + std::to_string(a) + " elements into " + std::to_string(b));
    view(shape(x).size() == 4 ? row_major(x) : use(x, Form::Stored), y);
  }

  void pool(bool max) {
    const int32_t x = input(0), y = output();
    expect_rank(x, 4);
    expect_rank(y, 4);
    const Grid in = int8_grid(x), out = int8_grid(y);
    // TFLM's PoolingPrepare: equal zero points, scales within 1e-6 (the pool
    // copies codes, it does not requantise).
    if (in.zero_point != out.zero_point ||
        std::abs(static_cast<double>(in.scale) - static_cast<double>(out.scale)) > 1.0e-6) {
      fail("input and output quantisation differ (TFLite Micro's pool needs equal zero points and scales within 1e-6)");
    }
    if (shape(x)[0] != shape(y)[0] || shape(x)[3] != shape(y)[3]) fail("batch or channels change");
    const tflite::Options& o = op_->options;
    const Geometry geo = geometry(x, y, o.filter_h, o.filter_w, 1, 1);
    const tflm::ActivationRange act = activation(out);
    const int32_t gx = use(x, Form::ChannelsLast);
    const std::vector<int64_t> kernel{o.filter_h, o.filter_w};
    if (max) {
      const int32_t gy = define(y, Form::ChannelsLast);
      g_.call(cortex_m::kMaxPool2dContract, {{"input", GraphArg::of_tensor(gx)},
                                             {"kernel_size", GraphArg::list(kernel)},
                                             {"stride", GraphArg::list(geo.stride)},
                                             {"padding", GraphArg::list(geo.padding)},
                                             {"dilation", GraphArg::list({1, 1})},
                                             {"ceil_mode", GraphArg::boolean(false)},
                                             {"input_zero_point", GraphArg::integer(in.zero_point)},
                                             {"output_zero_point", GraphArg::integer(out.zero_point)},
                                             {"activation_min", GraphArg::integer(act.min)},
                                             {"activation_max", GraphArg::integer(act.max)},
                                             {"out", GraphArg::of_tensor(gy)}});
      note_instruction(gy, "cortex_m::quantized_max_pool2d");
      return;
    }
    const int32_t gy = clamped_output(y, Form::ChannelsLast, act);
    g_.call(cortex_m::kAvgPool2dContract, {{"input", GraphArg::of_tensor(gx)},
                                           {"kernel_size", GraphArg::list(kernel)},
                                           {"stride", GraphArg::list(geo.stride)},
                                           {"padding", GraphArg::list(geo.padding)},
                                           {"zero_point", GraphArg::integer(in.zero_point)},
                                           {"multiplier", GraphArg::integer(kIdentityRequant.multiplier)},
                                           {"shift", GraphArg::integer(kIdentityRequant.shift)},
                                           {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_avg_pool2d");
    clamp(gy, y, Form::ChannelsLast, act);
  }

  // The graph tensor an operator without a clamp writes for TFLite tensor y:
  // y itself, or, when the fused activation clamps, an unclamped copy of it
  // that clamp() then reads.
  int32_t clamped_output(int32_t y, Form form, const tflm::ActivationRange& act) {
    if (act.min == -128 && act.max == 127) return define(y, form);
    if (form == Form::ChannelsLast) expect_rank(y, 4);
    return make(y, form, GraphTensor::Role::Activation, "_unclamped");
  }

  // TFLM's clamp to the fused activation's range after an operator whose
  // cortex_m:: kernel clamps only to int8: cortex_m::maximum with the lower
  // bound, then cortex_m::minimum with the upper one, each a one-element
  // constant (both compare codes; within int8, max then min is the clamp).
  void clamp(int32_t from, int32_t y, Form form, const tflm::ActivationRange& act) {
    if (act.min == -128 && act.max == 127) return;
    const std::string prefix = "op" + std::to_string(op_index_) + "_";
    const auto bound = [&](const char* name, int32_t value) {
      return g_.tensor(prefix + name, ScalarType::Char, {1}, contiguous_order(1), GraphTensor::Role::Constant,
                       {static_cast<uint8_t>(static_cast<int8_t>(value))});
    };
    int32_t current = from;
    if (act.min > -128) {
      const int32_t to = act.max < 127 ? make(y, form, GraphTensor::Role::Activation, "_low") : define(y, form);
      g_.call(cortex_m::kMaximumContract, {{"self", GraphArg::of_tensor(current)},
                                           {"other", GraphArg::of_tensor(bound("activation_min", act.min))},
                                           {"out", GraphArg::of_tensor(to)}});
      note_instruction(to, "cortex_m::maximum", false);
      current = to;
    }
    if (act.max < 127) {
      const int32_t to = define(y, form);
      g_.call(cortex_m::kMinimumContract, {{"self", GraphArg::of_tensor(current)},
                                           {"other", GraphArg::of_tensor(bound("activation_max", act.max))},
                                           {"out", GraphArg::of_tensor(to)}});
      note_instruction(to, "cortex_m::minimum", false);
    }
  }

  void add() {
    const int32_t a = input(0), b = input(1), y = output();
    const Grid qa = int8_grid(a), qb = int8_grid(b), out = int8_grid(y);
    if (shape(a) != shape(b) || shape(a) != shape(y)) {
      fail("input shapes differ (broadcasting ADD is not imported)");
    }
    const tflm::AddParams p = tflm::add_params(qa.scale, qb.scale, out.scale, where());
    const tflm::ActivationRange act = activation(out);
    // Elementwise in memory order: every operand in one form, the one its
    // first input already has.
    const Forms& fa = forms_[static_cast<size_t>(a)];
    const Form form = shape(a).size() == 4 && fa.stored < 0 && fa.channels_last >= 0 ? Form::ChannelsLast : Form::Stored;
    const int32_t ga = use(a, form), gb = use(b, form);
    const int32_t gy = define(y, form);
    g_.call(cortex_m::kAddContract, {{"self", GraphArg::of_tensor(ga)},
                                     {"self_zero_point", GraphArg::integer(qa.zero_point)},
                                     {"self_multiplier", GraphArg::integer(p.input1.multiplier)},
                                     {"self_shift", GraphArg::integer(p.input1.shift)},
                                     {"other", GraphArg::of_tensor(gb)},
                                     {"other_zero_point", GraphArg::integer(qb.zero_point)},
                                     {"other_multiplier", GraphArg::integer(p.input2.multiplier)},
                                     {"other_shift", GraphArg::integer(p.input2.shift)},
                                     {"output_zero_point", GraphArg::integer(out.zero_point)},
                                     {"output_multiplier", GraphArg::integer(p.output.multiplier)},
                                     {"output_shift", GraphArg::integer(p.output.shift)},
                                     {"activation_min", GraphArg::integer(act.min)},
                                     {"activation_max", GraphArg::integer(act.max)},
                                     {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_add");
  }

  void softmax() {
    const int32_t x = input(0), y = output();
    const Grid in = int8_grid(x), out = int8_grid(y);
    if (out.scale != 1.0F / 256.0F || out.zero_point != -128) {
      fail("output quantisation must be scale 1/256, zero point -128 (TFLite Micro's int8 softmax)");
    }
    if (shape(x) != shape(y) || shape(x).empty()) fail("input and output shapes differ");
    const tflm::SoftmaxParams p = tflm::softmax_params(op_->options.beta, in.scale, where());
    const int32_t gx = use(x, Form::Stored);  // rows along the last dim: TFLite's own shape
    const int32_t gy = define(y, Form::Stored);
    g_.call(cortex_m::kSoftmaxContract, {{"input", GraphArg::of_tensor(gx)},
                                         {"dim", GraphArg::integer(-1)},
                                         {"input_zero_point", GraphArg::integer(in.zero_point)},
                                         {"output_zero_point", GraphArg::integer(out.zero_point)},
                                         {"input_multiplier", GraphArg::integer(p.multiplier)},
                                         {"input_shift", GraphArg::integer(p.left_shift)},
                                         {"diff_min", GraphArg::integer(p.diff_min)},
                                         {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::softmax");
  }

  // The form an elementwise operator works in: channels_last when its first
  // operand exists only in that form, else the stored one.
  Form elementwise_form(int32_t first) const {
    const Forms& f = forms_[static_cast<size_t>(first)];
    return shape(first).size() == 4 && f.stored < 0 && f.channels_last >= 0 ? Form::ChannelsLast : Form::Stored;
  }

  // A constant int32 tensor of `count` values (paddings, permutations).
  std::vector<int32_t> int32_constant(int32_t t, size_t count) const {
    const tflite::Tensor& x = constant(t, TensorType::Int32);
    if (x.data.size() != count * 4) {
      fail(tensor_label(t) + " holds " + std::to_string(x.data.size() / 4) + " values, expected " + std::to_string(count));
    }
    return int32_values(x);
  }

  void mul() {
    const int32_t a = input(0), b = input(1), y = output();
    const Grid qa = int8_grid(a), qb = int8_grid(b), out = int8_grid(y);
    if (shape(a) != shape(b) || shape(a) != shape(y)) fail("input shapes differ (broadcasting MUL is not imported)");
    const tflm::ActivationRange act = activation(out);
    const Requant r = tflm::mul_multiplier(qa.scale, qb.scale, out.scale, where());
    const Form form = elementwise_form(a);
    const int32_t ga = use(a, form), gb = use(b, form);
    const int32_t gy = clamped_output(y, form, act);
    g_.call(cortex_m::kMulContract, {{"self", GraphArg::of_tensor(ga)},
                                     {"self_zero_point", GraphArg::integer(qa.zero_point)},
                                     {"other", GraphArg::of_tensor(gb)},
                                     {"other_zero_point", GraphArg::integer(qb.zero_point)},
                                     {"output_zero_point", GraphArg::integer(out.zero_point)},
                                     {"output_multiplier", GraphArg::integer(r.multiplier)},
                                     {"output_shift", GraphArg::integer(r.shift)},
                                     {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_mul");
    clamp(gy, y, form, act);
  }

  // MINIMUM and MAXIMUM compare the int8 codes as they are (TFLM does not
  // requantise), with numpy broadcasting of the stored shapes.
  void min_max(bool maximum) {
    const int32_t a = input(0), b = input(1), y = output();
    int8_grid(a);
    int8_grid(b);
    int8_grid(y);
    const std::vector<int32_t> sizes = broadcast_shape(shape(a), shape(b));
    if (sizes != shape(y)) fail("output shape is not the inputs' broadcast");
    const auto call = [&](int32_t ga, int32_t gb, int32_t gy) {
      g_.call(maximum ? cortex_m::kMaximumContract : cortex_m::kMinimumContract,
              {{"self", GraphArg::of_tensor(ga)}, {"other", GraphArg::of_tensor(gb)}, {"out", GraphArg::of_tensor(gy)}});
      note_instruction(gy, maximum ? "cortex_m::maximum" : "cortex_m::minimum");
    };
    // Same shapes, or one value against a tensor: a walk in memory order,
    // so any form the full-size operand has.
    const bool a_full = shape(a) == shape(y), b_full = shape(b) == shape(y);
    if ((a_full && b_full) || (a_full && numel(b) == 1) || (b_full && numel(a) == 1)) {
      const Form form = elementwise_form(a_full ? a : b);
      const int32_t ga = use(a, a_full ? form : Form::Stored), gb = use(b, b_full ? form : Form::Stored);
      call(ga, gb, define(y, form));
      return;
    }
    if (!broadcast_walk_refused(shape(a), shape(b), sizes)) {
      call(use(a, Form::Stored), use(b, Form::Stored), define(y, Form::Stored));
      return;
    }
    // The same broadcast over fewer dims: dims of size 1 everywhere dropped,
    // neighbours that broadcast alike merged (the bytes do not move).
    std::vector<int32_t> ca, cb, cy;
    int previous = -1;
    for (size_t k = 0; k < sizes.size(); ++k) {
      const int32_t da = aligned_dim(shape(a), sizes.size(), k), db = aligned_dim(shape(b), sizes.size(), k);
      if (sizes[k] == 1) continue;
      const int kind = da == 1 ? 1 : (db == 1 ? 2 : 0);
      if (kind == previous) {
        ca.back() *= da;
        cb.back() *= db;
        cy.back() *= sizes[k];
      } else {
        ca.push_back(da);
        cb.push_back(db);
        cy.push_back(sizes[k]);
      }
      previous = kind;
    }
    if (cy.size() > 4) fail("the broadcast alternates over " + std::to_string(cy.size()) + " dims (4 are imported)");
    const std::string prefix = "op" + std::to_string(op_index_) + "_";
    const int32_t gy = g_.s8(prefix + "merged", cy, contiguous_order(cy.size()));
    call(reshaped(a, ca, prefix + "self"), reshaped(b, cb, prefix + "other"), gy);
    view(gy, y, false);
  }

  static uint64_t numel(const std::vector<int32_t>& s) {
    uint64_t n = 1;
    for (const int32_t d : s) n *= static_cast<uint64_t>(d);
    return n;
  }
  uint64_t numel(int32_t t) const { return numel(shape(t)); }

  // Dim k of `s` right-aligned into `rank` dims (leading 1s).
  static int32_t aligned_dim(const std::vector<int32_t>& s, size_t rank, size_t k) {
    return k + s.size() < rank ? 1 : s[k + s.size() - rank];
  }

  // numpy's broadcast of two shapes; Failure when they do not broadcast.
  std::vector<int32_t> broadcast_shape(const std::vector<int32_t>& a, const std::vector<int32_t>& b) const {
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int32_t> out(rank);
    for (size_t k = 0; k < rank; ++k) {
      const int32_t da = aligned_dim(a, rank, k), db = aligned_dim(b, rank, k);
      if (da != db && da != 1 && db != 1) fail("input shapes do not broadcast");
      out[k] = da == 1 ? db : da;
    }
    return out;
  }

  // Whether cortex_m::minimum/maximum refuse a general broadcast of these
  // stored shapes (kernels/common/broadcast_walk.cpp): a rank-5 output with
  // a leading dim other than 1, or, in the last 4 dims, an operand whose last
  // two are 1 and third-last above 1 against one whose second-last is above 1
  // (CMSIS-NN's row-scalar walk skips elements there).
  static bool broadcast_walk_refused(const std::vector<int32_t>& a, const std::vector<int32_t>& b,
                                     const std::vector<int32_t>& out) {
    if (out.size() > 4 && out[0] != 1) return true;
    const auto skips = [](const std::vector<int32_t>& p, const std::vector<int32_t>& q) {
      return aligned_dim(p, 4, 2) == 1 && aligned_dim(p, 4, 3) == 1 && aligned_dim(p, 4, 1) > 1 &&
             aligned_dim(q, 4, 2) > 1;
    };
    return skips(a, b) || skips(b, a);
  }

  // TFLite tensor t's stored bytes as a contiguous graph tensor of `sizes`
  // (same element count): a constant made so, else a view_copy.
  int32_t reshaped(int32_t t, const std::vector<int32_t>& sizes, const std::string& name) {
    if (shape(t) == sizes) return use(t, Form::Stored);
    if (!tensor(t).data.empty()) {
      return g_.tensor(name, dtype_of(tensor(t).type), sizes, contiguous_order(sizes.size()), GraphTensor::Role::Constant,
                       tensor(t).data);
    }
    const int32_t from = shape(t).size() == 4 ? row_major(t) : use(t, Form::Stored);
    const int32_t to = g_.tensor(name, dtype_of(tensor(t).type), sizes, contiguous_order(sizes.size()));
    g_.call(portable::kViewCopyContract,
            {{"self", GraphArg::of_tensor(from)},
             {"size", GraphArg::list(std::vector<int64_t>(sizes.begin(), sizes.end()))},
             {"out", GraphArg::of_tensor(to)}});
    note_instruction(to, "aten::view_copy", false);
    return to;
  }

  // PAD and PADV2 as TFLM's Pad: the int8 codes copied whatever the input
  // and output quantisation (TFLM checks neither), the border filled with the
  // output zero point (PAD, PADV2 without a value) or the constant value's
  // code, which TFLM requires to be on the output's grid. The pads are in the
  // stored (NHWC) order, which is cortex_m::pad's physical order in either
  // form.
  void pad() {
    const int32_t x = input(0), y = output();
    int8_grid(x);
    const Grid out = int8_grid(y);
    const size_t rank = shape(x).size();
    if (rank < 1 || rank > 4 || shape(y).size() != rank) fail("rank " + std::to_string(rank) + " (1 to 4 are imported)");
    const std::vector<int32_t> pads = int32_constant(input(1), rank * 2);
    int32_t value = out.zero_point;
    if (has_input(2)) {
      const tflite::Tensor& v = constant(input(2), TensorType::Int8);
      if (v.data.size() != 1) fail(tensor_label(input(2)) + " is not one value");
      if (!same_grid(per_tensor_grid(input(2)), out)) {
        fail(tensor_label(input(2)) + " is not quantised as the output (TFLite Micro requires it)");
      }
      value = static_cast<int8_t>(v.data[0]);
    }
    // cortex_m::pad takes four physical dims, the stored shape right-aligned.
    std::vector<int64_t> pre(4, 0), post(4, 0);
    for (size_t k = 0; k < rank; ++k) {
      const int32_t before = pads[2 * k], after = pads[2 * k + 1];
      if (before < 0 || after < 0) fail("negative padding");
      if (static_cast<int64_t>(shape(x)[k]) + before + after != shape(y)[k]) fail("output size is not the padded input's");
      pre[4 - rank + k] = before;
      post[4 - rank + k] = after;
    }
    const Form form = rank == 4 ? elementwise_form(x) : Form::Stored;
    const int32_t gx = use(x, form);
    const int32_t gy = define(y, form);
    g_.call(cortex_m::kPadContract, {{"input", GraphArg::of_tensor(gx)},
                                     {"pre_pad", GraphArg::list(pre)},
                                     {"post_pad", GraphArg::list(post)},
                                     {"pad_value", GraphArg::integer(value)},
                                     {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::pad");
  }

  void transpose() {
    const int32_t x = input(0), y = output();
    int8_grid(x);
    int8_grid(y);
    const size_t rank = shape(x).size();
    if (rank < 1 || rank > 4) fail("rank " + std::to_string(rank) + " (1 to 4 are imported)");
    const std::vector<int32_t> perm = int32_constant(input(1), rank);
    // TFLM indexes with the entries as they are: each must name a dim once.
    std::vector<bool> named(rank, false);
    for (const int32_t p : perm) {
      if (p < 0 || static_cast<size_t>(p) >= rank || named[static_cast<size_t>(p)]) {
        fail(tensor_label(input(1)) + " is not a permutation of 0 to " + std::to_string(rank - 1));
      }
      named[static_cast<size_t>(p)] = true;
    }
    for (size_t d = 0; d < rank; ++d) {
      if (shape(y).size() != rank || shape(y)[d] != shape(x)[static_cast<size_t>(perm[d])]) {
        fail("output shape is not the input's permuted");
      }
    }
    std::vector<int64_t> dims(perm.begin(), perm.end());
    const int32_t gx = use(x, Form::Stored);
    const int32_t gy = define(y, Form::Stored);
    g_.call(cortex_m::kTransposeContract,
            {{"input", GraphArg::of_tensor(gx)}, {"perm", GraphArg::list(dims)}, {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::transpose");
  }

  // QUANTIZE of a float32 tensor: quantize_per_tensor, whose x * (1 / s)
  // rounds to even where TFLM's round(x / s) rounds halves away from zero
  // (docs/numerics.md: inputs on a tie, or within a float32 rounding of one,
  // differ by one step).
  void quantize() {
    const int32_t x = input(0), y = output();
    if (tensor(x).type != TensorType::Float32) {
      fail("requantises " + tflite::to_string(tensor(x).type) + " (only float32 -> int8 is imported)");
    }
    const Grid out = int8_grid(y);
    const Form form = elementwise_form(x);
    const int32_t gx = use(x, form);
    const int32_t gy = define(y, form);
    g_.per_tensor(cortex_m::kQuantizeContract, gx, {static_cast<double>(out.scale), out.zero_point}, gy);
    note_instruction(gy, "cortex_m::quantize_per_tensor");
  }

  void dequantize() {
    const int32_t x = input(0), y = output();
    const Grid in = int8_grid(x);
    if (tensor(y).type != TensorType::Float32) fail("output is " + tflite::to_string(tensor(y).type) + ", expected float32");
    const Form form = elementwise_form(x);
    const int32_t gx = use(x, form);
    const int32_t gy = define(y, form);
    g_.per_tensor(cortex_m::kDequantizeContract, gx, {static_cast<double>(in.scale), in.zero_point}, gy);
    note_instruction(gy, "cortex_m::dequantize_per_tensor");
  }

  // BATCH_MATMUL as TFLM's reference BatchMatMul: out[.., m, n] =
  // RQ(sum_k (lhs[.., m, k] - zp_l) * (rhs[.., k, n] - zp_r)) + zp_out, clamped
  // to int8 (no fused activation), adj_x / adj_y transposing an operand's last
  // two dims, ranks 2 to 5. quantized_batch_matmul multiplies [B, M, K] by
  // [B, N, K]: equal batch dims flatten into B, and a right operand without
  // batches (all 1) folds the left one's batches into M, as TFLM's
  // ReshapeToFlattenBatchDimsIfPossible does.
  void batch_matmul() {
    const int32_t a = input(0), b = input(1), y = output();
    const Grid qa = int8_grid(a), qb = int8_grid(b), out = int8_grid(y);
    const std::vector<int32_t>& sa = shape(a);
    const std::vector<int32_t>& sb = shape(b);
    if (sa.size() < 2 || sa.size() > 5 || sb.size() < 2 || sb.size() > 5) {
      fail("ranks " + std::to_string(sa.size()) + " and " + std::to_string(sb.size()) + " (2 to 5 are imported)");
    }
    const tflite::Options& o = op_->options;
    const size_t ra = sa.size(), rb = sb.size();
    const int32_t m = o.adj_x ? sa[ra - 1] : sa[ra - 2], k = o.adj_x ? sa[ra - 2] : sa[ra - 1];
    const int32_t kb = o.adj_y ? sb[rb - 1] : sb[rb - 2], n = o.adj_y ? sb[rb - 2] : sb[rb - 1];
    if (kb != k) fail("depths differ: " + std::to_string(k) + " and " + std::to_string(kb));
    const std::vector<int32_t> batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
    std::vector<int32_t> product = broadcast_shape(batch_a, batch_b);
    product.push_back(m);
    product.push_back(n);
    if (shape(y) != product) fail("output shape is not the product's");
    const auto batches_a = static_cast<int32_t>(numel(batch_a));
    const bool fold = numel(batch_b) == 1;
    if (!fold) {
      const size_t rank = std::max(batch_a.size(), batch_b.size());
      for (size_t i = 0; i < rank; ++i) {
        if (aligned_dim(batch_a, rank, i) != aligned_dim(batch_b, rank, i)) {
          fail("batch dims broadcast (equal batch dims, or a right operand without batch dims, are imported)");
        }
      }
    }
    const int32_t batches = fold ? 1 : batches_a, rows = fold ? batches_a * m : m;
    // GetQuantizedConvolutionMultipler: the scale product rounded to float32.
    const Requant r = tflm::fully_connected_multiplier(qa.scale, qb.scale, out.scale, where());
    const int32_t lhs = matrices(a, o.adj_x, {batches, rows, k}, "lhs");
    const int32_t rhs = matrices(b, !o.adj_y, {batches, n, k}, "rhs");
    const std::vector<int32_t> sizes{batches, rows, n};
    const bool direct = shape(y) == sizes;
    const int32_t gy =
        direct ? define(y, Form::Stored) : g_.s8("op" + std::to_string(op_index_) + "_product", sizes, contiguous_order(3));
    g_.call(cortex_m::kBatchMatmulContract, {{"lhs", GraphArg::of_tensor(lhs)},
                                             {"lhs_zero_point", GraphArg::integer(-qa.zero_point)},
                                             {"rhs_transposed", GraphArg::of_tensor(rhs)},
                                             {"rhs_zero_point", GraphArg::integer(-qb.zero_point)},
                                             {"output_zero_point", GraphArg::integer(out.zero_point)},
                                             {"output_multiplier", GraphArg::integer(r.multiplier)},
                                             {"output_shift", GraphArg::integer(r.shift)},
                                             {"out", GraphArg::of_tensor(gy)}});
    note_instruction(gy, "cortex_m::quantized_batch_matmul");
    if (!direct) view(gy, y, false);
  }

  // TFLite tensor t ([.., R, C]) as the contiguous graph tensor of `want`
  // sizes quantized_batch_matmul reads, with its last two dims swapped when
  // `transpose`: a constant reordered here, else cortex_m::transpose and
  // view_copy where the sizes need them.
  int32_t matrices(int32_t t, bool transpose, const std::vector<int32_t>& want, const std::string& role) {
    const std::string name = "op" + std::to_string(op_index_) + "_" + role;
    if (!transpose) return reshaped(t, want, name);
    const std::vector<int32_t>& s = shape(t);
    const auto rows = static_cast<size_t>(s[s.size() - 2]), cols = static_cast<size_t>(s[s.size() - 1]);
    const auto count = static_cast<int32_t>(numel(s) / (rows * cols));
    if (!tensor(t).data.empty()) {
      const std::vector<uint8_t>& in = tensor(t).data;
      std::vector<uint8_t> swapped(in.size());
      for (size_t b = 0; b < static_cast<size_t>(count); ++b) {
        for (size_t r = 0; r < rows; ++r) {
          for (size_t c = 0; c < cols; ++c) swapped[(b * cols + c) * rows + r] = in[(b * rows + r) * cols + c];
        }
      }
      return g_.tensor(name, ScalarType::Char, want, contiguous_order(want.size()), GraphTensor::Role::Constant,
                       std::move(swapped));
    }
    const int32_t from = reshaped(t, {count, static_cast<int32_t>(rows), static_cast<int32_t>(cols)}, name + "_batches");
    const std::vector<int32_t> sizes{count, static_cast<int32_t>(cols), static_cast<int32_t>(rows)};
    const int32_t to = g_.s8(name + "_transposed", sizes, contiguous_order(3));
    g_.call(cortex_m::kTransposeContract,
            {{"input", GraphArg::of_tensor(from)}, {"perm", GraphArg::list({0, 2, 1})}, {"out", GraphArg::of_tensor(to)}});
    note_instruction(to, "cortex_m::transpose", false);
    if (sizes == want) return to;
    const int32_t viewed = g_.s8(name, want, contiguous_order(want.size()));
    g_.call(portable::kViewCopyContract,
            {{"self", GraphArg::of_tensor(to)},
             {"size", GraphArg::list(std::vector<int64_t>(want.begin(), want.end()))},
             {"out", GraphArg::of_tensor(viewed)}});
    note_instruction(viewed, "aten::view_copy", false);
    return viewed;
  }


  const tflite::Model& m_;
  std::string context_;
  GraphBuilder g_;
  std::vector<Forms> forms_;
  std::vector<int32_t> producer_;  // by graph tensor: the instruction writing it
  std::vector<ImportedOperator> trace_;
  int32_t instruction_count_ = 0;
  int32_t op_index_ = -1;
  const tflite::Operator* op_ = nullptr;
  std::string became_;
  int32_t ops_taken_ = 0;
};

}  // namespace

ImportedModel import_tflite(const tflite::Model& model, const std::string& context) {
  return Importer(model, context).run();
}

}  // namespace etns::tools
