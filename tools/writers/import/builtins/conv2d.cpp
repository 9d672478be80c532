#include "kernels/cortex_m/conv2d/conv2d.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// CONV_2D as cortex_m::quantized_conv2d: per-channel requantisation
// (PopulateConvolutionQuantizationParams), grouped when the weights hold a
// whole fraction of the input channels.
namespace etns::tools::builtins {

void import_conv2d(OperatorImport& c) {
  const ConvTensors t = conv_tensors(c, 0, 1);
  const auto& [x, w, y, in, out, sx, sw, sy] = t;
  const int32_t cout = sw[0], cin_w = sw[3];
  expect_output_channels(c, t, cout);
  if (cin_w < 1 || sx[3] % cin_w != 0 || cout % (sx[3] / cin_w) != 0) {
    c.fail("input channels " + std::to_string(sx[3]) + " are not a whole number of groups of " + std::to_string(cin_w));
  }
  const Geometry geo = geometry(c, x, y, sw[1], sw[2], c.options().dilation_h, c.options().dilation_w);
  const tflm::ActivationRange act = c.activation(out);
  const PerChannel pc = per_channel(c, w, 0, cout, in, out);
  const int32_t gx = c.use(x, Form::ChannelsLast), gw = c.use(w, Form::Stored);
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
  // The window: the weight's [KH, KW, Cin/groups].
  c.set_macs_per_output(static_cast<uint64_t>(sw[1]) * static_cast<uint64_t>(sw[2]) * static_cast<uint64_t>(sw[3]));
}

}  // namespace etns::tools::builtins
