#include <cmath>

#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/common.h"

// AVERAGE_POOL_2D and MAX_POOL_2D as cortex_m::quantized_avg_pool2d and
// quantized_max_pool2d. The average pool clamps only to int8, so a fused
// activation becomes a clamp after it (common.h).
namespace etns::tools::builtins {
namespace {

struct Pool {
  int32_t x, y;
  Grid in, out;
  Geometry geo;
  tflm::ActivationRange act;
  std::vector<int64_t> kernel;
};

Pool check_pool(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  c.expect_rank(x, 4);
  c.expect_rank(y, 4);
  const Grid in = c.int8_grid(x), out = c.int8_grid(y);
  // TFLM's PoolingPrepare: equal zero points, scales within 1e-6 (the pool
  // copies codes, it does not requantise).
  if (in.zero_point != out.zero_point ||
      std::abs(static_cast<double>(in.scale) - static_cast<double>(out.scale)) > 1.0e-6) {
    c.fail("input and output quantisation differ (TFLite Micro's pool needs equal zero points and scales within 1e-6)");
  }
  if (c.shape(x)[0] != c.shape(y)[0] || c.shape(x)[3] != c.shape(y)[3]) c.fail("batch or channels change");
  const tflite::Options& o = c.options();
  const Geometry geo = geometry(c, x, y, o.filter_h, o.filter_w, 1, 1);
  const tflm::ActivationRange act = c.activation(out);
  return {x, y, in, out, geo, act, {o.filter_h, o.filter_w}};
}

}  // namespace

void import_max_pool2d(OperatorImport& c) {
  const Pool p = check_pool(c);
  const int32_t gx = c.use(p.x, Form::ChannelsLast);
  const int32_t gy = c.define(p.y, Form::ChannelsLast);
  c.call(cortex_m::kMaxPool2dContract, {{"input", GraphArg::of_tensor(gx)},
                                        {"kernel_size", GraphArg::list(p.kernel)},
                                        {"stride", GraphArg::list(p.geo.stride)},
                                        {"padding", GraphArg::list(p.geo.padding)},
                                        {"dilation", GraphArg::list({1, 1})},
                                        {"ceil_mode", GraphArg::boolean(false)},
                                        {"input_zero_point", GraphArg::integer(p.in.zero_point)},
                                        {"output_zero_point", GraphArg::integer(p.out.zero_point)},
                                        {"activation_min", GraphArg::integer(p.act.min)},
                                        {"activation_max", GraphArg::integer(p.act.max)},
                                        {"out", GraphArg::of_tensor(gy)}});
}

void import_average_pool2d(OperatorImport& c) {
  const Pool p = check_pool(c);
  const int32_t gx = c.use(p.x, Form::ChannelsLast);
  const int32_t gy = clamped_output(c, p.y, Form::ChannelsLast, p.act);
  c.call(cortex_m::kAvgPool2dContract, {{"input", GraphArg::of_tensor(gx)},
                                        {"kernel_size", GraphArg::list(p.kernel)},
                                        {"stride", GraphArg::list(p.geo.stride)},
                                        {"padding", GraphArg::list(p.geo.padding)},
                                        {"zero_point", GraphArg::integer(p.in.zero_point)},
                                        {"multiplier", GraphArg::integer(kIdentityRequant.multiplier)},
                                        {"shift", GraphArg::integer(kIdentityRequant.shift)},
                                        {"out", GraphArg::of_tensor(gy)}});
  clamp(c, gy, p.y, Form::ChannelsLast, p.act);
}

}  // namespace etns::tools::builtins
