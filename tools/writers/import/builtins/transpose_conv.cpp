#include <algorithm>

#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// TRANSPOSE_CONV as TFLM's reference_integer_ops::TransposeConv: input pixel
// (iy, ix) scatters through tap (ky, kx) onto output (iy * stride - pad + ky,
// ix * stride - pad + kx), positions outside the output dropped, then bias,
// per-channel requantisation and the fused activation's clamp, which is
// quantized_transpose_conv2d's arithmetic. Inputs: 0 the output shape (TFLM
// ignores it: the output tensor's shape rules), 1 weights [Cout, KH, KW, Cin],
// 2 the input, 3 an optional int32 bias.
namespace etns::tools::builtins {
namespace {

// One spatial dim as quantized_transpose_conv2d computes it: the near-side
// padding, output_padding, and the size the kernel writes (the TFLite
// output's, or longer by the rows a crop then drops).
struct TransposedDim {
  int32_t pad = 0;
  int32_t output_padding = 0;
  int32_t computed = 0;
};

TransposedDim transposed_dim(const OperatorImport& c, const char* what, int32_t in, int32_t out, int32_t filter,
                             int32_t stride) {
  // TFLM's padding comes from the OUTPUT size (ComputePaddingHeightWidth with
  // the output as its "input", dilation 1; C++ division as TFLM's).
  const int64_t o = out, s = stride, k = filter;
  const int64_t tflm_out = c.options().padding == tflite::Padding::Same ? (o + s - 1) / s : (o + s - k) / s;
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
    c.fail(std::string("output ") + what + " " + std::to_string(out) + " is " + std::to_string(o - reach) +
           " past the " + std::to_string(reach) + " the input reaches (input " + std::to_string(in) + ", padding " +
           std::to_string(d.pad) + "): quantized_transpose_conv2d adds at most stride - 1");
  }
  return d;
}

// The top-left window of the longer output into TFLite tensor y: a 1x1 max
// pool copies it (the pool trusts its output's size; one tap, nothing clamped).
void crop(OperatorImport& c, int32_t computed, int32_t y, const Grid& out) {
  const int32_t gy = c.define(y, Form::ChannelsLast);
  c.call(cortex_m::kMaxPool2dContract,
         {{"input", GraphArg::of_tensor(computed)},
          {"kernel_size", GraphArg::list({1, 1})},
          {"stride", GraphArg::list({1, 1})},
          {"padding", GraphArg::list({0, 0})},
          {"dilation", GraphArg::list({1, 1})},
          {"ceil_mode", GraphArg::boolean(false)},
          {"input_zero_point", GraphArg::integer(out.zero_point)},
          {"output_zero_point", GraphArg::integer(out.zero_point)},
          {"activation_min", GraphArg::integer(-128)},
          {"activation_max", GraphArg::integer(127)},
          {"out", GraphArg::of_tensor(gy)}},
         Step::Helper);
}

}  // namespace

void import_transpose_conv(OperatorImport& c) {
  const ConvTensors t = conv_tensors(c, 2, 1);
  const auto& [x, w, y, in, out, sx, sw, sy] = t;
  const int32_t cout = sw[0];
  if (sw[3] != sx[3]) {
    c.fail(c.tensor_label(w) + " has " + std::to_string(sw[3]) + " input channels, the input " + std::to_string(sx[3]));
  }
  expect_output_channels(c, t, cout);
  const tflite::Options& o = c.options();
  if (o.stride_h < 1 || o.stride_w < 1) c.fail("stride must be positive");
  const TransposedDim dh = transposed_dim(c, "height", sx[1], sy[1], sw[1], o.stride_h);
  const TransposedDim dw = transposed_dim(c, "width", sx[2], sy[2], sw[2], o.stride_w);
  // TFLM applies the fused activation since tflite-micro#3278 (January
  // 2026); before, its transpose convolution ignored it.
  const tflm::ActivationRange act = c.activation(out);
  const PerChannel pc = per_channel(c, w, 0, cout, in, out, 3);
  const int32_t gx = c.use(x, Form::ChannelsLast), gw = c.use(w, Form::Stored);
  const bool cropped = dh.computed != sy[1] || dw.computed != sy[2];
  const int32_t computed =
      cropped ? c.graph().s8(c.name("uncropped"), OperatorImport::nchw({sy[0], dh.computed, dw.computed, cout}),
                             kChannelsLastOrder)
              : c.define(y, Form::ChannelsLast);
  c.call(cortex_m::kTransposeConv2dContract,
         {{"input", GraphArg::of_tensor(gx)},
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
  if (cropped) crop(c, computed, y, out);
}

}  // namespace etns::tools::builtins
