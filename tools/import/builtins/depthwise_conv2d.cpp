#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "tools/import/builtins/builtins.h"
#include "tools/import/builtins/common.h"

// DEPTHWISE_CONV_2D as cortex_m::quantized_depthwise_conv2d: weights
// [1, KH, KW, Cout], Cout a multiple of the input channels.
namespace etns::tools::builtins {

void import_depthwise_conv2d(OperatorImport& c) {
  const int32_t x = c.input(0), w = c.input(1), y = c.output();
  c.expect_rank(x, 4);
  c.expect_rank(w, 4);
  c.expect_rank(y, 4);
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  c.constant(w, tflite::TensorType::Int8);
  const std::vector<int32_t>& sx = c.shape(x);
  const std::vector<int32_t>& sw = c.shape(w);
  const std::vector<int32_t>& sy = c.shape(y);
  const int32_t cin = sx[3], cout = sw[3];
  if (sw[0] != 1) c.fail(c.tensor_label(w) + " is not [1, KH, KW, Cout]");
  if (sy[3] != cout || sy[0] != sx[0]) c.fail("output channels or batch differ from the weights'");
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
