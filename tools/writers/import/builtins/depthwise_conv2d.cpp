#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// DEPTHWISE_CONV_2D as cortex_m::quantized_depthwise_conv2d: weights
// [1, KH, KW, Cout], Cout a multiple of the input channels.
namespace etns::tools::builtins {

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
