#include "tools/writers/import/builtins/common.h"

#include <algorithm>
#include <string>

#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"

namespace etns::tools::builtins {

ConvTensors conv_tensors(const OperatorImport& c, size_t input, size_t weights) {
  ConvTensors t{};
  // Missing inputs are reported in index order, as TFLite numbers them.
  if (input < weights) {
    t.x = c.input(input);
    t.w = c.input(weights);
  } else {
    t.w = c.input(weights);
    t.x = c.input(input);
  }
  t.y = c.output();
  c.expect_rank(t.x, 4);
  c.expect_rank(t.w, 4);
  c.expect_rank(t.y, 4);
  t.in = c.int8_grid(t.x);
  t.out = c.int8_grid(t.y);
  c.constant(t.w, tflite::TensorType::Int8);
  t.sx = c.shape(t.x);
  t.sw = c.shape(t.w);
  t.sy = c.shape(t.y);
  return t;
}

void expect_output_channels(const OperatorImport& c, const ConvTensors& t, int32_t channels) {
  if (t.sy[3] != channels || t.sy[0] != t.sx[0]) c.fail("output channels or batch differ from the weights'");
}

Geometry geometry(const OperatorImport& c, int32_t in, int32_t out, int32_t filter_h, int32_t filter_w,
                  int32_t dilation_h, int32_t dilation_w) {
  const tflite::Options& o = c.options();
  if (o.stride_h < 1 || o.stride_w < 1 || dilation_h < 1 || dilation_w < 1 || filter_h < 1 || filter_w < 1) {
    c.fail("stride, dilation and filter sizes must be positive");
  }
  const tflm::SpatialPadding ph = tflm::spatial_padding(o.padding, c.shape(in)[1], filter_h, o.stride_h, dilation_h);
  const tflm::SpatialPadding pw = tflm::spatial_padding(o.padding, c.shape(in)[2], filter_w, o.stride_w, dilation_w);
  if (ph.out != c.shape(out)[1] || pw.out != c.shape(out)[2]) {
    c.fail("output " + std::to_string(c.shape(out)[1]) + "x" + std::to_string(c.shape(out)[2]) +
           ", but the options give " + std::to_string(ph.out) + "x" + std::to_string(pw.out));
  }
  return {{o.stride_h, o.stride_w}, {ph.near, pw.near}, {dilation_h, dilation_w}};
}

PerChannel per_channel(OperatorImport& c, int32_t weights, size_t channel_dim, int32_t channels, const Grid& in,
                       const Grid& out, size_t bias_input) {
  const std::vector<float> scales = c.weight_scales(weights, channel_dim, channels);
  std::vector<int32_t> multipliers, shifts;
  for (int32_t k = 0; k < channels; ++k) {
    const Requant r = tflm::conv_channel_multiplier(in.scale, scales[static_cast<size_t>(k)], out.scale,
                                                    c.where() + ": channel " + std::to_string(k));
    multipliers.push_back(r.multiplier);
    shifts.push_back(r.shift);
  }
  PerChannel p;
  p.multipliers = c.graph().int32_vector(c.name("multipliers"), multipliers);
  p.shifts = c.graph().int32_vector(c.name("shifts"), shifts);
  if (c.has_input(bias_input)) {
    const int32_t bias = c.input(bias_input);
    const tflite::Tensor& b = c.constant(bias, tflite::TensorType::Int32);
    if (b.data.size() != static_cast<size_t>(channels) * 4) {
      c.fail(c.tensor_label(bias) + " holds " + std::to_string(b.data.size() / 4) + " biases, expected " +
             std::to_string(channels));
    }
    p.bias = GraphArg::of_tensor(c.use(bias, Form::Stored));
  }
  return p;
}

int32_t clamped_output(OperatorImport& c, int32_t y, Form form, const tflm::ActivationRange& act) {
  if (act.min == -128 && act.max == 127) return c.define(y, form);
  if (form == Form::ChannelsLast) c.expect_rank(y, 4);
  return c.make(y, form, GraphTensor::Role::Activation, "_unclamped");
}

// cortex_m::maximum with the lower bound, then cortex_m::minimum with the
// upper one, each a one-element constant (both compare codes; within int8,
// max then min is the clamp).
void clamp(OperatorImport& c, int32_t from, int32_t y, Form form, const tflm::ActivationRange& act) {
  if (act.min == -128 && act.max == 127) return;
  const auto bound = [&](const char* name, int32_t value) {
    return c.graph().tensor(c.name(name), runtime::ScalarType::Char, {1}, contiguous_order(1),
                            GraphTensor::Role::Constant, {static_cast<uint8_t>(static_cast<int8_t>(value))});
  };
  int32_t current = from;
  if (act.min > -128) {
    const int32_t to = act.max < 127 ? c.make(y, form, GraphTensor::Role::Activation, "_low") : c.define(y, form);
    c.call(cortex_m::kMaximumContract,
           {{"self", GraphArg::of_tensor(current)},
            {"other", GraphArg::of_tensor(bound("activation_min", act.min))},
            {"out", GraphArg::of_tensor(to)}},
           Step::Helper);
    current = to;
  }
  if (act.max < 127) {
    const int32_t to = c.define(y, form);
    c.call(cortex_m::kMinimumContract,
           {{"self", GraphArg::of_tensor(current)},
            {"other", GraphArg::of_tensor(bound("activation_max", act.max))},
            {"out", GraphArg::of_tensor(to)}},
           Step::Helper);
  }
}

uint64_t numel(const std::vector<int32_t>& s) {
  uint64_t n = 1;
  for (const int32_t d : s) n *= static_cast<uint64_t>(d);
  return n;
}

int32_t aligned_dim(const std::vector<int32_t>& s, size_t rank, size_t k) {
  return k + s.size() < rank ? 1 : s[k + s.size() - rank];
}

std::vector<int32_t> broadcast_shape(const OperatorImport& c, const std::vector<int32_t>& a,
                                     const std::vector<int32_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int32_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    const int32_t da = aligned_dim(a, rank, k), db = aligned_dim(b, rank, k);
    if (da != db && da != 1 && db != 1) c.fail("input shapes do not broadcast");
    out[k] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace etns::tools::builtins
