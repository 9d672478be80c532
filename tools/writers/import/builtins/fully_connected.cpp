#include <limits>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/portable/to_dim_order_copy/to_dim_order_copy.h"
#include "kernels/portable/view_copy/view_copy.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// FULLY_CONNECTED as cortex_m::quantized_linear: one per-tensor multiplier
// (GetQuantizedConvolutionMultipler), the input flattened into rows of the
// weights' depth, the bias folded into the kernel sum; per-channel weights
// as a 1x1 quantized_conv2d (import_per_channel).
namespace etns::tools::builtins {
namespace {

// TFLite tensor t as [rows, depth] for quantized_linear: itself when it has
// that shape, else a view_copy of its stored form.
int32_t rows(OperatorImport& c, int32_t t, int32_t batches, int32_t depth) {
  if (c.shape(t) == std::vector<int32_t>{batches, depth}) return c.use(t, Form::Stored);
  const int32_t flat = c.graph().s8(c.name("flat"), {batches, depth}, contiguous_order(2));
  c.call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(c.row_major(t))},
          {"size", GraphArg::list({batches, depth})},
          {"out", GraphArg::of_tensor(flat)}},
         Step::Helper);
  return flat;
}

// A 4-D input that exists only channels_last, one row per image, with bytes
// its default dim order would reorder: flattened as a PyTorch program
// flattens, [N, C, H, W] contiguous (one _to_dim_order_copy, the only
// dim-order change stock ExecuTorch's kernels accept, then a view_copy), with
// the weights' columns put in that (c, h, w) order at import, instead of
// moving the bytes back to NHWC with a second copy.
bool flattens_channel_major(OperatorImport& c, int32_t x, int32_t batches) {
  const std::vector<int32_t>& s = c.shape(x);
  return s.size() == 4 && c.elementwise_form(x) == Form::ChannelsLast && s[0] == batches && s[3] > 1 &&
         s[1] * s[2] > 1;
}

int32_t channel_major_rows(OperatorImport& c, int32_t x, int32_t batches, int32_t depth) {
  const std::vector<int32_t> sizes = OperatorImport::nchw(c.shape(x));
  const int32_t contiguous = c.graph().s8(c.name("nchw"), sizes, contiguous_order(4));
  c.call(portable::kToDimOrderCopyContract,
         {{"self", GraphArg::of_tensor(c.use(x, Form::ChannelsLast))},
          {"non_blocking", GraphArg::boolean(false)},
          {"dim_order", GraphArg::list({0, 1, 2, 3})},
          {"out", GraphArg::of_tensor(contiguous)}},
         Step::Helper);
  const int32_t flat = c.graph().s8(c.name("flat"), {batches, depth}, contiguous_order(2));
  c.call(portable::kViewCopyContract,
         {{"self", GraphArg::of_tensor(contiguous)},
          {"size", GraphArg::list({batches, depth})},
          {"out", GraphArg::of_tensor(flat)}},
         Step::Helper);
  return flat;
}

// The [units, depth] weights with column (h, w, ch) moved to (ch, h, w).
std::vector<uint8_t> channel_major_weights(const std::vector<uint8_t>& w, int32_t units, const std::vector<int32_t>& nhwc) {
  const size_t h = static_cast<size_t>(nhwc[1]), wd = static_cast<size_t>(nhwc[2]), ch = static_cast<size_t>(nhwc[3]);
  const size_t depth = h * wd * ch;
  std::vector<uint8_t> out(w.size());
  for (size_t u = 0; u < static_cast<size_t>(units); ++u) {
    for (size_t y = 0; y < h; ++y) {
      for (size_t x = 0; x < wd; ++x) {
        for (size_t k = 0; k < ch; ++k) {
          out[u * depth + (k * h + y) * wd + x] = w[u * depth + (y * wd + x) * ch + k];
        }
      }
    }
  }
  return out;
}

// kernel_sum = bias + input_offset * sum(w) per unit (the exporter's form;
// CMSIS-NN's Helium path adds it to the plain dot product).
std::vector<int32_t> kernel_sums(const OperatorImport& c, const tflite::Tensor& weights, int32_t units, int32_t depth,
                                 const Grid& in) {
  std::vector<int32_t> bias(static_cast<size_t>(units), 0);
  if (c.has_input(2)) {
    const tflite::Tensor& b = c.constant(c.input(2), tflite::TensorType::Int32);
    if (b.data.size() != static_cast<size_t>(units) * 4) {
      c.fail(c.tensor_label(c.input(2)) + " does not hold one bias per unit");
    }
    bias = OperatorImport::int32_values(b);
  }
  std::vector<int32_t> kernel_sum(static_cast<size_t>(units));
  for (int32_t u = 0; u < units; ++u) {
    int64_t sum = 0;
    for (int32_t k = 0; k < depth; ++k) {
      sum += static_cast<int8_t>(weights.data[static_cast<size_t>(u) * static_cast<size_t>(depth) + static_cast<size_t>(k)]);
    }
    // Modulo 2^32, as TFLM's int32 accumulator wraps on its targets and
    // quantized_linear adds it to its dot product wrapping: the sum is
    // TFLM's accumulator whatever overflows (as CONV_2D's and
    // DEPTHWISE_CONV_2D's).
    const int64_t folded = bias[static_cast<size_t>(u)] + static_cast<int64_t>(-in.zero_point) * sum;
    kernel_sum[static_cast<size_t>(u)] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
  }
  return kernel_sum;
}

// TFLM's per-channel path (FullyConnectedPerChannel): unit u requantised by
// double(s_in) double(s_w[u]) / double(s_out), the bias added to the
// accumulator; quantized_linear applies one multiplier, so a 1x1
// cortex_m::quantized_conv2d (the same sum, one factor per output channel)
// over the rows as [batches, depth, 1, 1] computes it.
void import_per_channel(OperatorImport& c, int32_t batches, int32_t units, int32_t depth, const Grid& in,
                        const Grid& out) {
  const int32_t x = c.input(0), w = c.input(1), y = c.output();
  const tflm::ActivationRange act = c.activation(out);
  const PerChannel pc = per_channel(c, w, 0, units, in, out);
  const int32_t gx = c.reshaped(x, {batches, depth, 1, 1}, c.name("rows"));
  const int32_t gw = c.reshaped(w, {units, 1, 1, depth}, c.name("weight"));
  const int32_t gy = c.graph().s8(c.name("units"), {batches, units, 1, 1}, contiguous_order(4));
  c.call(cortex_m::kConv2dContract, {{"input", GraphArg::of_tensor(gx)},
                                     {"weight", GraphArg::of_tensor(gw)},
                                     {"bias", pc.bias},
                                     {"stride", GraphArg::list({1, 1})},
                                     {"padding", GraphArg::list({0, 0})},
                                     {"dilation", GraphArg::list({1, 1})},
                                     {"input_offset", GraphArg::integer(-in.zero_point)},
                                     {"output_offset", GraphArg::integer(out.zero_point)},
                                     {"requantize_multipliers", GraphArg::of_tensor(pc.multipliers)},
                                     {"requantize_shifts", GraphArg::of_tensor(pc.shifts)},
                                     {"activation_min", GraphArg::integer(act.min)},
                                     {"activation_max", GraphArg::integer(act.max)},
                                     {"out", GraphArg::of_tensor(gy)}});
  c.view(gy, y, Step::Helper);
  c.set_macs_per_output(static_cast<uint64_t>(depth));
}

}  // namespace

void import_fully_connected(OperatorImport& c) {
  const int32_t x = c.input(0), w = c.input(1), y = c.output();
  const tflite::Options& o = c.options();
  if (o.weights_format != 0) c.fail("weights_format " + std::to_string(o.weights_format) + " (only DEFAULT is imported)");
  if (o.asymmetric_quantize_inputs) c.fail("asymmetric_quantize_inputs (a hybrid float model)");
  c.expect_rank(w, 2);
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  const tflite::Tensor& weights = c.constant(w, tflite::TensorType::Int8);
  const int32_t units = c.shape(w)[0], depth = c.shape(w)[1];
  const std::vector<float> scales = c.weight_scales(w, 0, units);
  const uint64_t elements = numel(c.shape(x));
  if (depth < 1 || elements % static_cast<uint64_t>(depth) != 0) {
    c.fail("input of " + std::to_string(elements) + " elements is not rows of " + std::to_string(depth));
  }
  const auto batches = static_cast<int32_t>(elements / static_cast<uint64_t>(depth));
  const std::vector<int32_t>& sy = c.shape(y);
  if (numel(sy) != static_cast<uint64_t>(batches) * static_cast<uint64_t>(units) || sy.back() != units) {
    c.fail("output shape does not hold " + std::to_string(batches) + " rows of " + std::to_string(units));
  }
  if (weights.quantization.scales.size() != 1) {
    import_per_channel(c, batches, units, depth, in, out);
    return;
  }
  const Requant r = tflm::fully_connected_multiplier(in.scale, scales[0], out.scale, c.where());
  const tflm::ActivationRange act = c.activation(out);
  const std::vector<int32_t> kernel_sum = kernel_sums(c, weights, units, depth, in);
  const bool channel_major = flattens_channel_major(c, x, batches);
  const int32_t gx = channel_major ? channel_major_rows(c, x, batches, depth) : rows(c, x, batches, depth);
  const int32_t sums = c.graph().int32_vector(c.name("kernel_sum"), kernel_sum, {1, units});
  const int32_t gw = channel_major
                         ? c.graph().tensor(c.name("weights_nchw"), runtime::ScalarType::Char, {units, depth},
                                            contiguous_order(2), GraphTensor::Role::Constant,
                                            channel_major_weights(weights.data, units, c.shape(x)))
                         : c.use(w, Form::Stored);
  const bool direct = sy.size() == 2;
  const int32_t gy = direct ? c.define(y, Form::Stored) : c.graph().s8(c.name("rows"), {batches, units}, contiguous_order(2));
  c.call(cortex_m::kLinearContract, {{"input", GraphArg::of_tensor(gx)},
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
  if (!direct) c.view(gy, y, Step::Helper);
  // The input features.
  c.set_macs_per_output(static_cast<uint64_t>(c.shape(w).back()));
}

}  // namespace etns::tools::builtins
