#include <utility>
#include <vector>

#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// DEPTHWISE_CONV_2D as cortex_m::quantized_depthwise_conv2d: weights
// [1, KH, KW, Cout], Cout a multiple of the input channels; with one input
// channel, as cortex_m::quantized_conv2d.
namespace etns::tools::builtins {
namespace {

// The depthwise weights [1, KH, KW, M] of a one-channel input as convolution
// weights [M, KH, KW, 1], and the call of cortex_m::quantized_conv2d.
void as_conv2d(OperatorImport& c, const ConvTensors& t, const Geometry& geo, const tflm::ActivationRange& act,
               const PerChannel& pc) {
  const auto& [x, w, y, in, out, sx, sw, sy] = t;
  const int32_t kh = sw[1], kw = sw[2], m = sw[3];
  const std::vector<uint8_t>& from = c.constant(w, tflite::TensorType::Int8).data;
  std::vector<uint8_t> weights(from.size());
  for (int32_t i = 0; i < kh * kw; ++i) {
    for (int32_t o = 0; o < m; ++o) {
      weights[static_cast<size_t>(o) * static_cast<size_t>(kh * kw) + static_cast<size_t>(i)] =
          from[static_cast<size_t>(i) * static_cast<size_t>(m) + static_cast<size_t>(o)];
    }
  }
  const int32_t gw = c.graph().tensor(c.name("conv_weight"), runtime::ScalarType::Char, {m, kh, kw, 1},
                                      contiguous_order(4), GraphTensor::Role::Constant, std::move(weights));
  const int32_t gx = c.use(x, Form::ChannelsLast);
  const int32_t gy = c.define(y, Form::ChannelsLast);
  c.call(cortex_m::kConv2dContract, {{"input", GraphArg::of_tensor(gx)},
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
  c.set_macs_per_output(static_cast<uint64_t>(kh) * static_cast<uint64_t>(kw));
}

}  // namespace

void import_depthwise_conv2d(OperatorImport& c) {
  const ConvTensors t = conv_tensors(c, 0, 1);
  const auto& [x, w, y, in, out, sx, sw, sy] = t;
  const int32_t cin = sx[3], cout = sw[3];
  if (sw[0] != 1) c.fail(c.tensor_label(w) + " is not [1, KH, KW, Cout]");
  expect_output_channels(c, t, cout);
  if (cin < 1 || cout % cin != 0) {
    c.fail("output channels " + std::to_string(cout) + " are not a multiple of " + std::to_string(cin));
  }
  const int32_t multiplier = cout / cin;
  const tflite::Options& o = c.options();
  if (o.depth_multiplier != 0 && o.depth_multiplier != multiplier) {
    c.fail("depth_multiplier " + std::to_string(o.depth_multiplier) + " but the weights give " +
           std::to_string(multiplier));
  }
  const Geometry geo = geometry(c, x, y, sw[1], sw[2], o.dilation_h, o.dilation_w);
  const tflm::ActivationRange act = c.activation(out);
  const PerChannel pc = per_channel(c, w, 3, cout, in, out);
  // One input channel: each output channel is a plain convolution of that
  // channel, the arithmetic TFLM's depthwise kernel does, so the program
  // takes the convolution's Helium path (a depthwise kernel walks one
  // multiplier at a time: about 230 instructions per MAC on fingerprint's
  // [88, 88, 8] layer).
  if (cin == 1 && multiplier > 1) {
    as_conv2d(c, t, geo, act, pc);
    return;
  }
  const int32_t gx = c.use(x, Form::ChannelsLast), gw = c.use(w, Form::Stored);
  const int32_t gy = c.define(y, Form::ChannelsLast);
  c.call(cortex_m::kDepthwiseConv2dContract, {{"input", GraphArg::of_tensor(gx)},
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
  // The window: the weight's [KH, KW].
  c.set_macs_per_output(static_cast<uint64_t>(sw[1]) * static_cast<uint64_t>(sw[2]));
}

}  // namespace etns::tools::builtins
