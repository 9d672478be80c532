// Single-operator programs (operator_cases.h).
#include "tests/support/operator_cases.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

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
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/portable/portable.h"
#include "runtime/exec/operator_contract.h"
#include "tests/support/rng.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns::testing {

size_t numel(const std::vector<int32_t>& sizes) {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}

namespace {

using runtime::ScalarType;
using tools::GraphArg;
using tools::GraphBuilder;
using tools::GraphTensor;
using tools::Provider;
using tools::Qparams;
using tools::Requant;

const std::vector<uint8_t> kNhwc = tools::kChannelsLastOrder;

std::vector<uint8_t> random_bytes(Rng& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng.uniform(0, 255));
  return v;
}
// n finite float32 values drawn in [-4, 4], as little-endian bytes.
std::vector<uint8_t> random_float_bytes(Rng& rng, size_t n) {
  std::vector<uint8_t> v(n * sizeof(float));
  for (size_t k = 0; k < n; ++k) {
    const float f = static_cast<float>(rng.unit() * 8.0 - 4.0);
    std::memcpy(v.data() + k * sizeof(float), &f, sizeof(float));
  }
  return v;
}
std::vector<int32_t> random_words(Rng& rng, size_t n, int64_t lo, int64_t hi) {
  std::vector<int32_t> v(n);
  for (int32_t& w : v) w = static_cast<int32_t>(rng.uniform(lo, hi));
  return v;
}

int32_t s8_constant(GraphBuilder& g, Rng& rng, const std::string& name, std::vector<int32_t> sizes) {
  const size_t n = numel(sizes);
  return g.tensor(name, ScalarType::Char, sizes, tools::contiguous_order(sizes.size()), GraphTensor::Role::Constant,
                  random_bytes(rng, n));
}
// A constant int8 tensor of `sizes` in `order` (channels_last operands of the elementwise ops).
int32_t s8_constant_in(GraphBuilder& g, Rng& rng, const std::string& name, std::vector<int32_t> sizes,
                       std::vector<uint8_t> order) {
  const size_t n = numel(sizes);
  return g.tensor(name, ScalarType::Char, std::move(sizes), std::move(order), GraphTensor::Role::Constant,
                  random_bytes(rng, n));
}
// A 0-dim int8 constant holding `value` (the exporter's scalar operand of minimum and maximum).
int32_t s8_scalar(GraphBuilder& g, const std::string& name, int32_t value) {
  return g.tensor(name, ScalarType::Char, {}, {}, GraphTensor::Role::Constant,
                  {static_cast<uint8_t>(static_cast<int8_t>(value))});
}

GraphArg t(int32_t index) { return GraphArg::of_tensor(index); }
GraphArg i(int64_t value) { return GraphArg::integer(value); }
GraphArg l(std::vector<int64_t> values) { return GraphArg::list(std::move(values)); }

// The exporter's QM (operators.md §1.4).
Requant qm(double x) { return tools::quantize_multiplier(x, "operator_programs_test"); }

// A contract under another operator name: the same kernel registered under a
// second spelling (GraphBuilder::call takes the op name from the contract).
runtime::OperatorContract respelled(const runtime::OperatorContract& contract, const char* name) {
  runtime::OperatorContract c = contract;
  c.name = name;
  return c;
}

// Per-channel requantisation as the exporter computes it for a convolution:
// per-channel weight scales (zero point 0), (M, S) = QM(s_in * s_w[oc] / s_out),
// int32 [Cout] tensors; bias at scale s_in * s_w[oc].
struct PerChannel {
  std::vector<int32_t> multipliers;
  std::vector<int32_t> shifts;
  std::vector<int32_t> bias;
};
PerChannel per_channel(Rng& rng, int32_t channels, const Qparams& in, const Qparams& out) {
  PerChannel p;
  for (int32_t oc = 0; oc < channels; ++oc) {
    const double weight_scale = 0.002 + 0.01 * rng.unit();
    const Requant r = qm(in.scale * weight_scale / out.scale);
    p.multipliers.push_back(r.multiplier);
    p.shifts.push_back(r.shift);
    p.bias.push_back(static_cast<int32_t>(rng.uniform(-3000, 3000)));
  }
  return p;
}

// quantized_depthwise_conv2d: input [1, C, H, W] NHWC, weight [1, KH, KW, C*m].
OpCase depthwise(std::string name, int32_t c, int32_t h, int32_t w, int32_t k, int32_t stride, int32_t pad,
               int32_t dilation, int32_t multiplier, bool bias, int32_t out_h, int32_t out_w) {
  const int32_t cout = c * multiplier;
  return {name, {1, c, h, w}, kNhwc, {1, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t out) {
            const int32_t weight = s8_constant(g, rng, "w", {1, k, k, cout});
            const GraphArg b = bias ? t(g.int32_vector("b", random_words(rng, static_cast<size_t>(cout), -5000, 5000)))
                                    : GraphArg::null();
            g.call(cortex_m::kDepthwiseConv2dContract,
                   {{"input", t(x)},
                    {"weight", t(weight)},
                    {"bias", b},
                    {"stride", l({stride, stride})},
                    {"padding", l({pad, pad})},
                    {"dilation", l({dilation, dilation})},
                    {"depth_multiplier", i(multiplier)},
                    {"input_offset", i(7)},
                    {"output_offset", i(-3)},
                    {"requantize_multipliers",
                     t(g.int32_vector("m", random_words(rng, static_cast<size_t>(cout), 1 << 29,
                                                        (1 << 30) + (1 << 29))))},
                    {"requantize_shifts", t(g.int32_vector("s", random_words(rng, static_cast<size_t>(cout), -9, -6)))},
                    {"activation_min", i(-128)},
                    {"activation_max", i(127)},
                    {"out", t(out)}});
          }};
}

OpCase linear_case(std::string name, int32_t batches, int32_t in, int32_t outs, bool kernel_sum) {
  return {name, {batches, in}, {0, 1}, {batches, outs}, {0, 1},
              [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t out) {
                const int32_t weight = s8_constant(g, rng, "w", {outs, in});
                const GraphArg sums =
                    kernel_sum ? t(g.int32_vector("ks", random_words(rng, static_cast<size_t>(outs), -20000, 20000)))
                               : GraphArg::null();
                const GraphArg bias =
                    kernel_sum ? GraphArg::null()
                               : t(g.int32_vector("b", random_words(rng, static_cast<size_t>(outs), -20000, 20000)));
                g.call(cortex_m::kLinearContract, {{"input", t(x)},
                                                   {"weights", t(weight)},
                                                   {"bias", bias},
                                                   {"kernel_sum", sums},
                                                   {"input_offset", i(5)},
                                                   {"filter_offset", i(0)},
                                                   {"output_offset", i(-2)},
                                                   {"requantize_multipliers", l({1 << 30})},
                                                   {"requantize_shifts", l({-8})},
                                                   {"activation_max", i(127)},
                                                   {"activation_min", i(-128)},
                                                   {"out", t(out)}});
              }};
}

OpCase softmax_case(std::string name, std::vector<int32_t> sizes) {
  return {name, sizes, tools::contiguous_order(sizes.size()), sizes, tools::contiguous_order(sizes.size()),
              [](GraphBuilder& g, Rng&, int32_t x, int32_t out) {
                g.call(cortex_m::kSoftmaxContract, {{"input", t(x)},
                                                    {"dim", i(-1)},
                                                    {"input_zero_point", i(3)},
                                                    {"output_zero_point", i(-128)},
                                                    {"input_multiplier", i(1518500250)},
                                                    {"input_shift", i(23)},
                                                    {"diff_min", i(-248)},
                                                    {"out", t(out)}});
              }};
}

OpCase avg_pool_case(std::string name, std::vector<int32_t> in, std::vector<int32_t> out, int32_t kh, int32_t kw,
                           int32_t stride_h, int32_t stride_w, int32_t pad) {
  return {name, in, kNhwc, out, kNhwc, [=](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                g.call(cortex_m::kAvgPool2dContract, {{"input", t(x)},
                                                      {"kernel_size", l({kh, kw})},
                                                      {"stride", l({stride_h, stride_w})},
                                                      {"padding", l({pad, pad})},
                                                      {"zero_point", i(0)},
                                                      {"multiplier", i(1 << 30)},
                                                      {"shift", i(1)},
                                                      {"out", t(o)}});
              }};
}

OpCase max_pool_case(std::string name, std::vector<int32_t> in, std::vector<int32_t> out, int32_t k,
                           int32_t stride, int32_t pad, int32_t act_min, int32_t act_max) {
  return {name, in, kNhwc, out, kNhwc, [=](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                g.call(cortex_m::kMaxPool2dContract, {{"input", t(x)},
                                                      {"kernel_size", l({k, k})},
                                                      {"stride", l({stride, stride})},
                                                      {"padding", l({pad, pad})},
                                                      {"dilation", l({1, 1})},
                                                      {"ceil_mode", GraphArg::boolean(false)},
                                                      {"input_zero_point", i(0)},
                                                      {"output_zero_point", i(0)},
                                                      {"activation_min", i(act_min)},
                                                      {"activation_max", i(act_max)},
                                                      {"out", t(o)}});
              }};
}

// quantized_transpose_conv2d: input [N, Cin, H, W] NHWC, weight OHWI
// [Cout, K, K, Cin]; out = (H - 1) * stride - 2 * pad + K + output_padding.
OpCase transpose_conv(std::string name, int32_t n, int32_t cin, int32_t h, int32_t w, int32_t cout,
                      int32_t k, int32_t stride, int32_t pad, int32_t output_padding, bool bias) {
  const int32_t out_h = (h - 1) * stride - 2 * pad + k + output_padding;
  const int32_t out_w = (w - 1) * stride - 2 * pad + k + output_padding;
  return {name, {n, cin, h, w}, kNhwc, {n, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t out) {
            const int32_t weight = s8_constant(g, rng, "w", {cout, k, k, cin});
            const size_t channels = static_cast<size_t>(cout);
            const GraphArg b =
                bias ? t(g.int32_vector("b", random_words(rng, channels, -5000, 5000))) : GraphArg::null();
            g.call(cortex_m::kTransposeConv2dContract,
                   {{"input", t(x)},
                    {"weight", t(weight)},
                    {"bias", b},
                    {"stride", l({stride, stride})},
                    {"padding", l({pad, pad})},
                    {"output_padding", l({output_padding, output_padding})},
                    {"dilation", l({1, 1})},
                    {"input_offset", i(9)},
                    {"output_offset", i(-4)},
                    {"requantize_multipliers",
                     t(g.int32_vector("m", random_words(rng, channels, 1 << 29, (1 << 30) + (1 << 29))))},
                    {"requantize_shifts", t(g.int32_vector("s", random_words(rng, channels, -10, -7)))},
                    {"activation_min", i(-128)},
                    {"activation_max", i(127)},
                    {"out", t(out)}});
          }};
}

// ---- The stock forms: as ExecuTorch v1.3.0's Cortex-M exporter writes each operator ----

// quantize_per_tensor: float32 input in, int8 out of the same sizes and dim
// order; scale a float32 value carried as a double, dtype the ScalarType code
// of int8, the full int8 range.
OpCase stock_quantize(std::string name, std::vector<int32_t> sizes, std::vector<uint8_t> order, Qparams q) {
  return {name, sizes, order, sizes, order,
          [q](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
            g.call(cortex_m::kQuantizeContract, {{"input", t(x)},
                                                 {"scale", GraphArg::real(q.scale)},
                                                 {"zero_point", i(q.zero_point)},
                                                 {"quant_min", i(-128)},
                                                 {"quant_max", i(127)},
                                                 {"dtype", i(static_cast<int64_t>(ScalarType::Char))},
                                                 {"out", t(o)}});
          },
          ScalarType::Float, ScalarType::Char};
}

// dequantize_per_tensor: int8 in, float32 out, the same arguments as quantize.
OpCase stock_dequantize(std::string name, std::vector<int32_t> sizes, std::vector<uint8_t> order, Qparams q) {
  return {name, sizes, order, sizes, order,
          [q](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
            g.call(cortex_m::kDequantizeContract, {{"input", t(x)},
                                                   {"scale", GraphArg::real(q.scale)},
                                                   {"zero_point", i(q.zero_point)},
                                                   {"quant_min", i(-128)},
                                                   {"quant_max", i(127)},
                                                   {"dtype", i(static_cast<int64_t>(ScalarType::Char))},
                                                   {"out", t(o)}});
          },
          ScalarType::Char, ScalarType::Float};
}

// quantized_add of x (full size, channels_last) and a constant of
// `other_sizes` (the same, or [1, C, 1, 1] for the channel broadcast); with
// `constant_is_self` the constant is self and x is other (upstream swaps
// them). Parameters as the exporter derives them, CMSIS-NN's left shift 20:
// with m2 = 2 * max(s_self, s_other), self and other scaled by QM(s / m2), the
// sum by QM(m2 / (2^20 * s_out)).
OpCase stock_add(std::string name, std::vector<int32_t> sizes, std::vector<int32_t> other_sizes,
                 bool constant_is_self) {
  return {name, sizes, kNhwc, sizes, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const std::vector<uint8_t> order =
                other_sizes == sizes ? kNhwc : tools::contiguous_order(other_sizes.size());
            const int32_t constant = s8_constant_in(g, rng, "addend", other_sizes, order);
            const Qparams qx{0.05, -3};
            const Qparams qc{0.0825, 11};
            const Qparams qout{0.11, -1};
            const Qparams q_self = constant_is_self ? qc : qx;
            const Qparams q_other = constant_is_self ? qx : qc;
            const double m2 = 2 * std::max(q_self.scale, q_other.scale);
            const Requant self_rq = qm(q_self.scale / m2);
            const Requant other_rq = qm(q_other.scale / m2);
            const Requant out_rq = qm(m2 / (std::ldexp(1.0, cortex_m::kAddLeftShift) * qout.scale));
            g.call(cortex_m::kAddContract, {{"self", t(constant_is_self ? constant : x)},
                                            {"self_zero_point", i(q_self.zero_point)},
                                            {"self_multiplier", i(self_rq.multiplier)},
                                            {"self_shift", i(self_rq.shift)},
                                            {"other", t(constant_is_self ? x : constant)},
                                            {"other_zero_point", i(q_other.zero_point)},
                                            {"other_multiplier", i(other_rq.multiplier)},
                                            {"other_shift", i(other_rq.shift)},
                                            {"output_zero_point", i(qout.zero_point)},
                                            {"output_multiplier", i(out_rq.multiplier)},
                                            {"output_shift", i(out_rq.shift)},
                                            {"activation_min", i(-128)},
                                            {"activation_max", i(127)},
                                            {"out", t(o)}});
          }};
}

// quantized_mul of x and a constant of `other_sizes` (the same, or [1, C, 1, 1]):
// (M, S) = QM(s_self * s_other / s_out), zero points as stored.
OpCase stock_mul(std::string name, std::vector<int32_t> sizes, std::vector<int32_t> other_sizes) {
  return {name, sizes, kNhwc, sizes, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const std::vector<uint8_t> order =
                other_sizes == sizes ? kNhwc : tools::contiguous_order(other_sizes.size());
            const int32_t other = s8_constant_in(g, rng, "factor", other_sizes, order);
            const Qparams q_self{0.046, -39};
            const Qparams q_other{0.021, -128};
            const Qparams qout{0.19, -113};
            const Requant rq = qm(q_self.scale * q_other.scale / qout.scale);
            g.call(cortex_m::kMulContract, {{"self", t(x)},
                                            {"self_zero_point", i(q_self.zero_point)},
                                            {"other", t(other)},
                                            {"other_zero_point", i(q_other.zero_point)},
                                            {"output_zero_point", i(qout.zero_point)},
                                            {"output_multiplier", i(rq.multiplier)},
                                            {"output_shift", i(rq.shift)},
                                            {"out", t(o)}});
          }};
}

// minimum or maximum of x (channels_last) and a 0-dim int8 constant, as the
// exporter's hardswish and clamp decompositions write them.
OpCase stock_min_max_scalar(std::string name, const runtime::OperatorContract& contract, std::vector<int32_t> sizes,
                            int32_t value) {
  const runtime::OperatorContract* c = &contract;
  return {name, sizes, kNhwc, sizes, kNhwc, [=](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
            const int32_t scalar = s8_scalar(g, "bound", value);
            g.call(*c, {{"self", t(x)}, {"other", t(scalar)}, {"out", t(o)}});
          }};
}

// quantized_linear. Weights per-tensor symmetric (filter_offset 0),
// input_offset = -zp_in, one multiplier and shift (per-tensor) as lists.
// kernel_sum = input_offset * sum(w + filter_offset) + bias, int32 stored as
// [1, out] (the exporter's keepdim sum); `with_kernel_sum` and `with_bias`
// choose which of the two the call holds (the exporter's form: kernel_sum
// only, bias None).
OpCase stock_linear(std::string name, int32_t batches, int32_t in, int32_t outs, bool with_kernel_sum, bool with_bias,
                    bool relu) {
  return {name, {batches, in}, {0, 1}, {batches, outs}, {0, 1},
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const Qparams q_in{0.043, -9};
            const Qparams q_out{0.27, relu ? -20 : 6};
            const double weight_scale = 0.0061;
            std::vector<uint8_t> weight_bytes(static_cast<size_t>(outs) * static_cast<size_t>(in));
            std::vector<int32_t> bias(static_cast<size_t>(outs));
            std::vector<int32_t> kernel_sum(static_cast<size_t>(outs));
            const int32_t input_offset = -q_in.zero_point;
            const int32_t filter_offset = 0;
            for (size_t r = 0; r < static_cast<size_t>(outs); ++r) {
              int32_t row_sum = 0;
              for (size_t c = 0; c < static_cast<size_t>(in); ++c) {
                const int32_t w = static_cast<int32_t>(rng.uniform(-127, 127));
                weight_bytes[r * static_cast<size_t>(in) + c] = static_cast<uint8_t>(static_cast<int8_t>(w));
                row_sum += w + filter_offset;
              }
              bias[r] = static_cast<int32_t>(rng.uniform(-4000, 4000));
              kernel_sum[r] = input_offset * row_sum + bias[r];
            }
            const int32_t weights = g.tensor("weights", ScalarType::Char, {outs, in}, tools::contiguous_order(2),
                                             GraphTensor::Role::Constant, weight_bytes);
            const GraphArg bias_arg = with_bias ? t(g.int32_vector("bias", bias)) : GraphArg::null();
            const GraphArg sums_arg =
                with_kernel_sum ? t(g.int32_vector("kernel_sum", kernel_sum, {1, outs})) : GraphArg::null();
            const Requant rq = qm(q_in.scale * weight_scale / q_out.scale);
            g.call(cortex_m::kLinearContract, {{"input", t(x)},
                                               {"weights", t(weights)},
                                               {"bias", bias_arg},
                                               {"kernel_sum", sums_arg},
                                               {"input_offset", i(input_offset)},
                                               {"filter_offset", i(filter_offset)},
                                               {"output_offset", i(q_out.zero_point)},
                                               {"requantize_multipliers", l({rq.multiplier})},
                                               {"requantize_shifts", l({rq.shift})},
                                               {"activation_max", i(127)},
                                               {"activation_min", i(relu ? q_out.zero_point : -128)},
                                               {"out", t(o)}});
          }};
}

// softmax over the last dim into 1/256, -128, with the exporter's parameters
// for 5 integer bits: QM(min(s_in * 2^26, 2^31 - 1)), diff_min =
// -floor(31 * 2^26 / 2^shift).
OpCase stock_softmax(std::string name, std::vector<int32_t> sizes, Qparams q_in) {
  return {name, sizes, tools::contiguous_order(sizes.size()), sizes, tools::contiguous_order(sizes.size()),
          [q_in](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
            const Requant rq = qm(std::min(q_in.scale * std::ldexp(1.0, 26), std::ldexp(1.0, 31) - 1.0));
            const int64_t diff_min =
                -static_cast<int64_t>(std::floor(31.0 * std::ldexp(1.0, 26) / std::ldexp(1.0, rq.shift)));
            g.call(cortex_m::kSoftmaxContract, {{"input", t(x)},
                                                {"dim", i(-1)},
                                                {"input_zero_point", i(q_in.zero_point)},
                                                {"output_zero_point", i(-128)},
                                                {"input_multiplier", i(rq.multiplier)},
                                                {"input_shift", i(rq.shift)},
                                                {"diff_min", i(diff_min)},
                                                {"out", t(o)}});
          }};
}

// quantized_conv2d: input NHWC [N, Cin, H, W], weight OHWI [Cout, K, K, Cin / groups]
// contiguous, bias int32 [Cout] (or None), per-channel int32 [Cout]
// multipliers and shifts. Channels listed in `dead` hold what a TFLite-converted
// model holds for a channel whose weights are all zero: multiplier 0, shift -31.
struct ConvShape {
  int32_t n, cin, h, w, cout, k, stride, pad, groups;
  bool bias;
  bool relu;
};
OpCase stock_conv(std::string name, ConvShape s, std::vector<int32_t> dead = {}) {
  const int32_t out_h = (s.h + 2 * s.pad - s.k) / s.stride + 1;
  const int32_t out_w = (s.w + 2 * s.pad - s.k) / s.stride + 1;
  return {name, {s.n, s.cin, s.h, s.w}, kNhwc, {s.n, s.cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const Qparams q_in{0.031, -7};
            const Qparams q_out{0.087, s.relu ? -25 : 4};
            const int32_t filter_c = s.cin / s.groups;
            const size_t per_channel_bytes = static_cast<size_t>(s.k) * static_cast<size_t>(s.k) *
                                             static_cast<size_t>(filter_c);
            std::vector<uint8_t> weight_bytes = random_bytes(rng, static_cast<size_t>(s.cout) * per_channel_bytes);
            PerChannel pc = per_channel(rng, s.cout, q_in, q_out);
            for (int32_t oc : dead) {
              const size_t c = static_cast<size_t>(oc);
              std::fill(weight_bytes.begin() + static_cast<std::ptrdiff_t>(c * per_channel_bytes),
                        weight_bytes.begin() + static_cast<std::ptrdiff_t>((c + 1) * per_channel_bytes), uint8_t{0});
              pc.multipliers[c] = 0;
              pc.shifts[c] = -31;
              pc.bias[c] = 0;
            }
            const int32_t weight = g.tensor("weight", ScalarType::Char, {s.cout, s.k, s.k, filter_c},
                                            tools::contiguous_order(4), GraphTensor::Role::Constant, weight_bytes);
            const GraphArg bias = s.bias ? t(g.int32_vector("bias", pc.bias)) : GraphArg::null();
            g.call(cortex_m::kConv2dContract,
                   {{"input", t(x)},
                    {"weight", t(weight)},
                    {"bias", bias},
                    {"stride", l({s.stride, s.stride})},
                    {"padding", l({s.pad, s.pad})},
                    {"dilation", l({1, 1})},
                    {"input_offset", i(-q_in.zero_point)},
                    {"output_offset", i(q_out.zero_point)},
                    {"requantize_multipliers", t(g.int32_vector("multipliers", pc.multipliers))},
                    {"requantize_shifts", t(g.int32_vector("shifts", pc.shifts))},
                    {"activation_min", i(s.relu ? q_out.zero_point : -128)},
                    {"activation_max", i(127)},
                    {"out", t(o)}});
          }};
}

// quantized_depthwise_conv2d at batch 1: weight IHWO [1, K, K, C * m]
// contiguous, bias [Cout], per-channel [Cout] tensors.
OpCase stock_depthwise(std::string name, int32_t c, int32_t h, int32_t w, int32_t k, int32_t stride, int32_t pad,
                       int32_t multiplier) {
  const int32_t cout = c * multiplier;
  const int32_t out_h = (h + 2 * pad - k) / stride + 1;
  const int32_t out_w = (w + 2 * pad - k) / stride + 1;
  return {name, {1, c, h, w}, kNhwc, {1, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const Qparams q_in{0.087, -128};
            const Qparams q_out{0.064, -128};
            const int32_t weight = s8_constant(g, rng, "weight", {1, k, k, cout});
            const PerChannel pc = per_channel(rng, cout, q_in, q_out);
            g.call(cortex_m::kDepthwiseConv2dContract,
                   {{"input", t(x)},
                    {"weight", t(weight)},
                    {"bias", t(g.int32_vector("bias", pc.bias))},
                    {"stride", l({stride, stride})},
                    {"padding", l({pad, pad})},
                    {"dilation", l({1, 1})},
                    {"depth_multiplier", i(multiplier)},
                    {"input_offset", i(-q_in.zero_point)},
                    {"output_offset", i(q_out.zero_point)},
                    {"requantize_multipliers", t(g.int32_vector("multipliers", pc.multipliers))},
                    {"requantize_shifts", t(g.int32_vector("shifts", pc.shifts))},
                    {"activation_min", i(q_out.zero_point)},
                    {"activation_max", i(127)},
                    {"out", t(o)}});
          }};
}

// quantized_transpose_conv2d: weight OHWI [Cout, K, K, Cin], bias [Cout],
// per-channel [Cout] tensors, dilation [1, 1].
OpCase stock_transpose_conv(std::string name, int32_t cin, int32_t h, int32_t w, int32_t cout, int32_t k,
                            int32_t stride, int32_t pad, int32_t output_padding) {
  const int32_t out_h = (h - 1) * stride - 2 * pad + k + output_padding;
  const int32_t out_w = (w - 1) * stride - 2 * pad + k + output_padding;
  return {name, {1, cin, h, w}, kNhwc, {1, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
            const Qparams q_in{0.052, 12};
            const Qparams q_out{0.21, -20};
            const int32_t weight = s8_constant(g, rng, "weight", {cout, k, k, cin});
            const PerChannel pc = per_channel(rng, cout, q_in, q_out);
            g.call(cortex_m::kTransposeConv2dContract,
                   {{"input", t(x)},
                    {"weight", t(weight)},
                    {"bias", t(g.int32_vector("bias", pc.bias))},
                    {"stride", l({stride, stride})},
                    {"padding", l({pad, pad})},
                    {"output_padding", l({output_padding, output_padding})},
                    {"dilation", l({1, 1})},
                    {"input_offset", i(-q_in.zero_point)},
                    {"output_offset", i(q_out.zero_point)},
                    {"requantize_multipliers", t(g.int32_vector("multipliers", pc.multipliers))},
                    {"requantize_shifts", t(g.int32_vector("shifts", pc.shifts))},
                    {"activation_min", i(-128)},
                    {"activation_max", i(127)},
                    {"out", t(o)}});
          }};
}

}  // namespace

std::vector<OpCase> operator_cases() {
  std::vector<OpCase> all;
  // Depthwise: the DS-CNN layer; stride 2 with the extra row and column on
  // the far side (TF SAME: 9x7 -> 5x4 with near padding 1); dilation 2 with
  // depth multiplier 2 and no bias; a 17-channel tail; multiplier 3.
  all.push_back(depthwise("depthwise_dscnn", 16, 24, 5, 3, 1, 1, 1, 1, true, 24, 5));
  all.push_back(depthwise("depthwise_s2_uneven", 6, 9, 7, 3, 2, 1, 1, 1, true, 5, 4));
  all.push_back(depthwise("depthwise_d2_m2_nobias", 5, 11, 10, 3, 1, 2, 2, 2, false, 11, 10));
  all.push_back(depthwise("depthwise_c17", 17, 6, 6, 3, 1, 1, 1, 1, true, 6, 6));
  all.push_back(depthwise("depthwise_m3_c1", 1, 8, 8, 5, 1, 2, 1, 3, true, 8, 8));

  // Linear: a classifier head with kernel_sum; batches with an input tail; bias only.
  all.push_back(linear_case("linear_head", 1, 512, 12, true));
  all.push_back(linear_case("linear_batches", 3, 17, 5, true));
  all.push_back(linear_case("linear_bias_only", 2, 33, 7, false));

  // Softmax over the last dim: a 12-class row; rows of 257 (a tail).
  all.push_back(softmax_case("softmax_12", {1, 12}));
  all.push_back(softmax_case("softmax_rows_257", {4, 257}));

  // Average pool: DS-CNN's global pool; 3x3 stride 2 with far-side padding, batch 2, 17 channels.
  all.push_back(avg_pool_case("avg_pool_global", {1, 64, 25, 5}, {1, 64, 1, 1}, 25, 5, 25, 5, 0));
  all.push_back(avg_pool_case("avg_pool_s2_uneven", {2, 17, 9, 9}, {2, 17, 5, 5}, 3, 3, 2, 2, 1));

  // Max pool: 2x2 stride 2; 3x3 stride 2 padded, 17 channels, an activation clamp.
  all.push_back(max_pool_case("max_pool_2x2", {1, 32, 16, 16}, {1, 32, 8, 8}, 2, 2, 0, -128, 127));
  all.push_back(max_pool_case("max_pool_3x3_clamped", {1, 17, 9, 9}, {1, 17, 5, 5}, 3, 2, 1, -20, 90));

  // Add and maximum against a constant operand of the same shape.
  const std::vector<int32_t> block{1, 64, 5, 5};
  all.push_back({"add_same_shape", block, kNhwc, block, kNhwc,
                 [block](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                   const int32_t other = g.tensor("other", ScalarType::Char, block, kNhwc, GraphTensor::Role::Constant,
                                                  random_bytes(rng, numel(block)));
                   g.call(cortex_m::kAddContract, {{"self", t(x)},
                                                   {"self_zero_point", i(3)},
                                                   {"self_multiplier", i(1 << 30)},
                                                   {"self_shift", i(-1)},
                                                   {"other", t(other)},
                                                   {"other_zero_point", i(-7)},
                                                   {"other_multiplier", i(1518500250)},
                                                   {"other_shift", i(-1)},
                                                   {"output_zero_point", i(-2)},
                                                   {"output_multiplier", i(1 << 30)},
                                                   {"output_shift", i(-18)},
                                                   {"activation_min", i(-100)},
                                                   {"activation_max", i(110)},
                                                   {"out", t(o)}});
                 }});
  all.push_back({"maximum_same_shape", block, kNhwc, block, kNhwc,
                 [block](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                   const int32_t other = g.tensor("other", ScalarType::Char, block, kNhwc, GraphTensor::Role::Constant,
                                                  random_bytes(rng, numel(block)));
                   g.call(cortex_m::kMaximumContract, {{"self", t(x)}, {"other", t(other)}, {"out", t(o)}});
                 }});

  // Transpose convolution: the 2x upsampler (stride 2, pad 1, output_padding
  // 1) with bias; stride 1 without padding or bias, batch 2, a 17-channel tail;
  // stride 3 with a kernel smaller than the stride (gaps in the output).
  all.push_back(transpose_conv("transpose_conv_s2_up", 1, 5, 4, 4, 7, 3, 2, 1, 1, true));
  all.push_back(transpose_conv("transpose_conv_s1_batches_nobias", 2, 17, 3, 5, 3, 2, 1, 0, 0, false));
  all.push_back(transpose_conv("transpose_conv_s3_k2", 1, 4, 3, 3, 9, 2, 3, 0, 2, true));

  // Transpose of a contiguous tensor: NCHW -> NHWC; a rank-3 swap with odd sizes.
  all.push_back({"transpose_nchw_to_nhwc", {1, 17, 5, 3}, {0, 1, 2, 3}, {1, 5, 3, 17}, {0, 1, 2, 3},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kTransposeContract, {{"input", t(x)}, {"perm", l({0, 2, 3, 1})}, {"out", t(o)}});
                 }});
  all.push_back({"transpose_rank3", {3, 7, 11}, {0, 1, 2}, {11, 3, 7}, {0, 1, 2},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kTransposeContract, {{"input", t(x)}, {"perm", l({2, 0, 1})}, {"out", t(o)}});
                 }});

  // Pad (pads in physical n, h, w, c order): spatial padding of a channels_last
  // tensor, uneven sides; a channel pad 17 -> 32; a rank-2 contiguous tensor.
  all.push_back({"pad_spatial_uneven", {1, 16, 5, 4}, kNhwc, {1, 16, 8, 5}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kPadContract, {{"input", t(x)},
                                                   {"pre_pad", l({0, 1, 0, 0})},
                                                   {"post_pad", l({0, 2, 1, 0})},
                                                   {"pad_value", i(-5)},
                                                   {"out", t(o)}});
                 }});
  all.push_back({"pad_channels_17_to_32", {1, 17, 3, 3}, kNhwc, {1, 32, 3, 3}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kPadContract, {{"input", t(x)},
                                                   {"pre_pad", l({0, 0, 0, 0})},
                                                   {"post_pad", l({0, 0, 0, 15})},
                                                   {"pad_value", i(0)},
                                                   {"out", t(o)}});
                 }});
  all.push_back({"pad_rank2", {3, 19}, {0, 1}, {6, 20}, {0, 1},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kPadContract, {{"input", t(x)},
                                                   {"pre_pad", l({0, 0, 2, 0})},
                                                   {"post_pad", l({0, 0, 1, 1})},
                                                   {"pad_value", i(127)},
                                                   {"out", t(o)}});
                 }});

  // Batch matmul against a constant right-hand side (transposed): attention
  // scores with a depth tail; one row, one column.
  const auto batch_matmul = [](std::string name, int32_t batches, int32_t rows, int32_t cols, int32_t depth) {
    return OpCase{name, {batches, rows, depth}, {0, 1, 2}, {batches, rows, cols}, {0, 1, 2},
                  [=](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                    const int32_t rhs = s8_constant(g, rng, "rhs", {batches, cols, depth});
                    g.call(cortex_m::kBatchMatmulContract, {{"lhs", t(x)},
                                                            {"lhs_zero_point", i(3)},
                                                            {"rhs_transposed", t(rhs)},
                                                            {"rhs_zero_point", i(-1)},
                                                            {"output_zero_point", i(-2)},
                                                            {"output_multiplier", i(1 << 30)},
                                                            {"output_shift", i(-9)},
                                                            {"out", t(o)}});
                  }};
  };
  all.push_back(batch_matmul("batch_matmul_scores", 4, 9, 9, 35));
  all.push_back(batch_matmul("batch_matmul_1x1", 2, 1, 1, 17));

  // Data movement.
  all.push_back({"permute_copy_nchw_to_nhwc", {1, 3, 5, 7}, {0, 1, 2, 3}, {1, 5, 7, 3}, {0, 1, 2, 3},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kPermuteCopyContract, {{"self", t(x)}, {"dims", l({0, 2, 3, 1})}, {"out", t(o)}});
                 }});
  all.push_back({"to_dim_order_copy_to_nhwc", {2, 17, 3, 5}, {0, 1, 2, 3}, {2, 17, 3, 5}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kToDimOrderCopyContract, {{"self", t(x)},
                                                              {"non_blocking", GraphArg::boolean(false)},
                                                              {"dim_order", l({0, 2, 3, 1})},
                                                              {"out", t(o)}});
                 }});
  // The same kernel under the aten:: spelling operators-cortex-m.md uses.
  all.push_back({"to_dim_order_copy_aten_spelling", {1, 5, 2, 3}, kNhwc, {1, 5, 2, 3}, {0, 1, 2, 3},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(respelled(portable::kToDimOrderCopyContract, "aten::_to_dim_order_copy.out"),
                          {{"self", t(x)},
                           {"non_blocking", GraphArg::boolean(false)},
                           {"dim_order", l({0, 1, 2, 3})},
                           {"out", t(o)}});
                 }});
  all.push_back({"view_copy_flatten", {1, 32, 1, 1}, {0, 1, 2, 3}, {1, 32}, {0, 1},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kViewCopyContract, {{"self", t(x)}, {"size", l({1, -1})}, {"out", t(o)}});
                 }});
  all.push_back({"clone", {3, 5}, {0, 1}, {3, 5}, {0, 1},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kCloneContract,
                          {{"self", t(x)}, {"memory_format", GraphArg::null()}, {"out", t(o)}});
                 }});

  // ---- Stock forms, one or more per cortex_m:: operator ----

  // quantize_per_tensor: DS-CNN's NCHW float input at tier1's input grid; a
  // channels_last image on the min/max observer's grid for [-4, 4].
  all.push_back(stock_quantize("stock_quantize_per_tensor_nchw", {1, 1, 49, 10}, tools::contiguous_order(4),
                               Qparams{0.030633239075541496, 1}));
  all.push_back(stock_quantize("stock_quantize_per_tensor_channels_last", {1, 3, 8, 8}, kNhwc,
                               tools::observe_min_max(-4.0f, 4.0f)));
  // dequantize_per_tensor: softmax probabilities (1/256, -128); a channels_last
  // activation at tier1's conv1 output grid.
  all.push_back(stock_dequantize("stock_dequantize_per_tensor_probabilities", {1, 12}, tools::contiguous_order(2),
                                 Qparams{1.0 / 256.0, -128}));
  all.push_back(stock_dequantize("stock_dequantize_per_tensor_channels_last", {1, 16, 5, 5}, kNhwc,
                                 Qparams{0.024257738143205643, -113}));

  // quantized_add: a residual (same shape); a per-channel addend [1, C, 1, 1]
  // as other, and as self (upstream swaps the operands).
  all.push_back(stock_add("stock_quantized_add_same_shape", {1, 32, 6, 6}, {1, 32, 6, 6}, false));
  all.push_back(stock_add("stock_quantized_add_channel_broadcast", {1, 24, 5, 7}, {1, 24, 1, 1}, false));
  all.push_back(stock_add("stock_quantized_add_channel_broadcast_self", {1, 19, 4, 3}, {1, 19, 1, 1}, true));

  // quantized_mul: same shape (tier1's hardswish product); a channel scale [1, C, 1, 1].
  all.push_back(stock_mul("stock_quantized_mul_same_shape", {1, 16, 8, 8}, {1, 16, 8, 8}));
  all.push_back(stock_mul("stock_quantized_mul_channel_broadcast", {1, 20, 3, 5}, {1, 20, 1, 1}));

  // minimum and maximum against a 0-dim constant (tier1's hardswish bound), and
  // a minimum of two same-shape channels_last tensors.
  all.push_back(stock_min_max_scalar("stock_minimum_scalar", cortex_m::kMinimumContract, {1, 16, 8, 8}, 50));
  all.push_back(stock_min_max_scalar("stock_maximum_scalar", cortex_m::kMaximumContract, {1, 16, 8, 8}, -39));
  all.push_back({"stock_minimum_same_shape", {1, 8, 4, 4}, kNhwc, {1, 8, 4, 4}, kNhwc,
                 [](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                   const int32_t other = s8_constant_in(g, rng, "other", {1, 8, 4, 4}, kNhwc);
                   g.call(cortex_m::kMinimumContract, {{"self", t(x)}, {"other", t(other)}, {"out", t(o)}});
                 }});

  // quantized_linear: the exporter's form (bias None, kernel_sum [1, out]) for
  // a classifier head and for batches with a fused ReLU; bias and kernel_sum
  // both present; bias only (no kernel_sum: the kernel derives the sums).
  all.push_back(stock_linear("stock_quantized_linear_kernel_sum", 1, 64, 12, true, false, false));
  all.push_back(stock_linear("stock_quantized_linear_kernel_sum_batches_relu", 4, 33, 10, true, false, true));
  all.push_back(stock_linear("stock_quantized_linear_bias_and_kernel_sum", 2, 40, 16, true, true, false));
  all.push_back(stock_linear("stock_quantized_linear_bias_only", 1, 48, 20, false, true, false));

  // softmax: a classifier's logits; rank-3 rows.
  all.push_back(stock_softmax("stock_softmax_classes", {1, 12}, Qparams{0.1, 7}));
  all.push_back(stock_softmax("stock_softmax_rank3_rows", {2, 3, 35}, Qparams{0.0473, -21}));

  // transpose: a contiguous NHWC-ordered tensor back to NCHW (perm p % rank, non-negative).
  all.push_back({"stock_transpose_nhwc_to_nchw", {1, 6, 7, 16}, {0, 1, 2, 3}, {1, 16, 6, 7}, {0, 1, 2, 3},
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kTransposeContract, {{"input", t(x)}, {"perm", l({0, 3, 1, 2})}, {"out", t(o)}});
                 }});

  // pad: constant_pad_nd of a channels_last activation, one pixel each side,
  // padded with the zero point.
  all.push_back({"stock_pad_spatial", {1, 8, 6, 6}, kNhwc, {1, 8, 8, 8}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kPadContract, {{"input", t(x)},
                                                   {"pre_pad", l({0, 1, 1, 0})},
                                                   {"post_pad", l({0, 1, 1, 0})},
                                                   {"pad_value", i(-7)},
                                                   {"out", t(o)}});
                 }});

  // quantized_conv2d: 3x3 stride 1 pad 1 with a fused ReLU; a 1x1 pointwise
  // layer; 3x3 stride 2 with dead channels (multiplier 0, shift -31); a
  // batch-2 depthwise layer, which the exporter writes as a grouped conv2d
  // (groups = C, weight [C, K, K, 1]) without bias.
  all.push_back(stock_conv("stock_quantized_conv2d_3x3_s1_p1", ConvShape{1, 8, 12, 12, 16, 3, 1, 1, 1, true, true}));
  all.push_back(
      stock_conv("stock_quantized_conv2d_1x1_pointwise", ConvShape{1, 32, 7, 7, 24, 1, 1, 0, 1, true, false}));
  all.push_back(stock_conv("stock_quantized_conv2d_dead_channels", ConvShape{1, 6, 9, 9, 12, 3, 2, 1, 1, true, false},
                           {2, 5, 11}));
  all.push_back(
      stock_conv("stock_quantized_conv2d_grouped_batch2", ConvShape{2, 8, 6, 6, 8, 3, 1, 1, 8, false, false}));

  // quantized_depthwise_conv2d: a 3x3 layer of a MobileNet block; stride 2 with depth multiplier 2.
  all.push_back(stock_depthwise("stock_quantized_depthwise_conv2d_3x3", 32, 10, 10, 3, 1, 1, 1));
  all.push_back(stock_depthwise("stock_quantized_depthwise_conv2d_s2_m2", 8, 9, 9, 3, 2, 1, 2));

  // quantized_transpose_conv2d: a 2x upsampler (stride 2, pad 1, output_padding 1).
  all.push_back(stock_transpose_conv("stock_quantized_transpose_conv2d_s2_up", 8, 5, 5, 6, 3, 2, 1, 1));

  // quantized_avg_pool2d: 2x2 stride 2, the input's zero point and QM(scale) passed along.
  all.push_back({"stock_quantized_avg_pool2d_2x2", {1, 16, 8, 8}, kNhwc, {1, 16, 4, 4}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   const Qparams q{0.071, -17};
                   const Requant rq = qm(q.scale);
                   g.call(cortex_m::kAvgPool2dContract, {{"input", t(x)},
                                                         {"kernel_size", l({2, 2})},
                                                         {"stride", l({2, 2})},
                                                         {"padding", l({0, 0})},
                                                         {"zero_point", i(q.zero_point)},
                                                         {"multiplier", i(rq.multiplier)},
                                                         {"shift", i(rq.shift)},
                                                         {"out", t(o)}});
                 }});

  // quantized_max_pool2d: 3x3 stride 2 pad 1, dilation [1, 1], ceil_mode
  // false, equal zero points, the full int8 range.
  all.push_back({"stock_quantized_max_pool2d_3x3_s2", {1, 8, 11, 11}, kNhwc, {1, 8, 6, 6}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(cortex_m::kMaxPool2dContract, {{"input", t(x)},
                                                         {"kernel_size", l({3, 3})},
                                                         {"stride", l({2, 2})},
                                                         {"padding", l({1, 1})},
                                                         {"dilation", l({1, 1})},
                                                         {"ceil_mode", GraphArg::boolean(false)},
                                                         {"input_zero_point", i(-5)},
                                                         {"output_zero_point", i(-5)},
                                                         {"activation_min", i(-128)},
                                                         {"activation_max", i(127)},
                                                         {"out", t(o)}});
                 }});

  // quantized_batch_matmul: attention scores against a constant rhs stored
  // transposed [B, N, K]; the zero points passed as offsets (negated),
  // (M, S) = QM(s_lhs * s_rhs / s_out).
  all.push_back({"stock_quantized_batch_matmul_attention", {2, 10, 16}, {0, 1, 2}, {2, 10, 12}, {0, 1, 2},
                 [](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                   const Qparams q_lhs{0.05, -3};
                   const Qparams q_rhs{0.02, 0};
                   const Qparams q_out{0.2, 5};
                   const int32_t rhs = s8_constant(g, rng, "rhs_transposed", {2, 12, 16});
                   const Requant rq = qm(q_lhs.scale * q_rhs.scale / q_out.scale);
                   g.call(cortex_m::kBatchMatmulContract, {{"lhs", t(x)},
                                                           {"lhs_zero_point", i(-q_lhs.zero_point)},
                                                           {"rhs_transposed", t(rhs)},
                                                           {"rhs_zero_point", i(-q_rhs.zero_point)},
                                                           {"output_zero_point", i(q_out.zero_point)},
                                                           {"output_multiplier", i(rq.multiplier)},
                                                           {"output_shift", i(rq.shift)},
                                                           {"out", t(o)}});
                 }});
  // The cortex_m_ns:: operators (provider ns) at shapes of the Tier-1
  // programs, with parameters derived from scales as the exporter derives them.
  auto ns = [](OpCase c) {
    c.provider = Provider::Ns;
    return c;
  };
  all.push_back(ns({"ns_relu6", {1, 8, 6, 6}, kNhwc, {1, 8, 6, 6}, kNhwc, [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                      const Requant rq = qm(0.05 / 0.03);
                      g.call(cortex_m_ns::kReluContract, {{"self", t(x)},
                                                          {"input_zero_point", i(-5)},
                                                          {"output_zero_point", i(-128)},
                                                          {"output_multiplier", i(rq.multiplier)},
                                                          {"output_shift", i(rq.shift)},
                                                          {"activation_min", i(-128)},
                                                          {"activation_max", i(72)},
                                                          {"out", t(o)}});
                    }}));
  all.push_back(ns({"ns_leaky_relu", {1, 8, 5, 7}, kNhwc, {1, 8, 5, 7}, kNhwc,
                    [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                      const Requant alpha = qm(0.2 * 0.04 / 0.03);
                      const Requant identity = qm(0.04 / 0.03);
                      g.call(cortex_m_ns::kLeakyReluContract, {{"self", t(x)},
                                                               {"input_zero_point", i(7)},
                                                               {"output_zero_point", i(-20)},
                                                               {"alpha_multiplier", i(alpha.multiplier)},
                                                               {"alpha_shift", i(alpha.shift)},
                                                               {"identity_multiplier", i(identity.multiplier)},
                                                               {"identity_shift", i(identity.shift)},
                                                               {"out", t(o)}});
                    }}));
  all.push_back(ns({"ns_hardswish", {1, 16, 4, 4}, kNhwc, {1, 16, 4, 4}, kNhwc,
                    [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                      const double s_in = 0.05;
                      const Requant hs = qm(s_in * s_in / (6.0 * 0.03));
                      g.call(cortex_m_ns::kHardswishContract, {{"self", t(x)},
                                                               {"input_zero_point", i(3)},
                                                               {"output_zero_point", i(-110)},
                                                               {"output_multiplier", i(hs.multiplier)},
                                                               {"output_shift", i(hs.shift)},
                                                               {"relu_q3", i(60)},
                                                               {"relu_q6", i(120)},
                                                               {"prescale", i(0)},
                                                               {"out", t(o)}});
                    }}));
  all.push_back(ns({"ns_sub_channel", {1, 8, 4, 4}, kNhwc, {1, 8, 4, 4}, kNhwc,
                    [](GraphBuilder& g, Rng& rng, int32_t x, int32_t o) {
                      const int32_t other = s8_constant_in(g, rng, "c", {1, 8, 1, 1}, kNhwc);
                      const double s_x = 0.04, s_c = 0.02, s_y = 0.05;
                      const double m2 = 2.0 * std::max(s_x, s_c);
                      const Requant self_r = qm(s_x / m2);
                      const Requant other_r = qm(s_c / m2);
                      const Requant out_r = qm(m2 / (s_y * 1048576.0));
                      g.call(cortex_m_ns::kSubContract, {{"self", t(x)},
                                                         {"self_zero_point", i(4)},
                                                         {"self_multiplier", i(self_r.multiplier)},
                                                         {"self_shift", i(self_r.shift)},
                                                         {"other", t(other)},
                                                         {"other_zero_point", i(-9)},
                                                         {"other_multiplier", i(other_r.multiplier)},
                                                         {"other_shift", i(other_r.shift)},
                                                         {"output_zero_point", i(2)},
                                                         {"output_multiplier", i(out_r.multiplier)},
                                                         {"output_shift", i(out_r.shift)},
                                                         {"activation_min", i(-128)},
                                                         {"activation_max", i(127)},
                                                         {"out", t(o)}});
                    }}));
  all.push_back(ns({"ns_mean_hw", {1, 6, 5, 4}, tools::contiguous_order(4), {1, 6, 1, 1}, tools::contiguous_order(4),
                    [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                      const Requant rq = qm(0.04 / (0.03 * 20.0));
                      g.call(cortex_m_ns::kMeanContract, {{"self", t(x)},
                                                          {"input_zero_point", i(-3)},
                                                          {"axis_mask", l({0, 0, 1, 1})},
                                                          {"keepdim", GraphArg::boolean(true)},
                                                          {"output_zero_point", i(6)},
                                                          {"output_multiplier", i(rq.multiplier)},
                                                          {"output_shift", i(rq.shift)},
                                                          {"out", t(o)}});
                    }}));

  // The portable float operators the arm programs fall back to.
  const std::vector<uint8_t> kRowMajor4 = tools::contiguous_order(4);
  all.push_back({"portable_clamp", {1, 4, 3, 5}, kRowMajor4, {1, 4, 3, 5}, kRowMajor4,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kClampContract,
                          {{"self", t(x)}, {"min", GraphArg::real(-1.5)}, {"max", GraphArg::real(2.25)}, {"out", t(o)}});
                 },
                 ScalarType::Float, ScalarType::Float});
  all.push_back({"portable_leaky_relu", {1, 4, 3, 5}, kNhwc, {1, 4, 3, 5}, kNhwc,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kLeakyReluContract,
                          {{"self", t(x)}, {"negative_slope", GraphArg::real(0.01)}, {"out", t(o)}});
                 },
                 ScalarType::Float, ScalarType::Float});
  all.push_back({"portable_sub", {1, 4, 3, 5}, kRowMajor4, {1, 4, 3, 5}, kRowMajor4,
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   const std::vector<int32_t> c_sizes{1, 4, 1, 1};
                   std::vector<uint8_t> bytes(4 * sizeof(float));
                   const float c[4] = {0.5F, -1.25F, 3.0F, 0.0F};
                   std::memcpy(bytes.data(), c, bytes.size());
                   const int32_t other = g.tensor("c", ScalarType::Float, c_sizes, tools::contiguous_order(4),
                                                  GraphTensor::Role::Constant, bytes);
                   g.call(portable::kSubContract,
                          {{"self", t(x)}, {"other", t(other)}, {"alpha", i(1)}, {"out", t(o)}});
                 },
                 ScalarType::Float, ScalarType::Float});
  all.push_back({"portable_mean", {2, 3, 7}, tools::contiguous_order(3), {2, 3}, tools::contiguous_order(2),
                 [](GraphBuilder& g, Rng&, int32_t x, int32_t o) {
                   g.call(portable::kMeanContract, {{"self", t(x)},
                                                    {"dim", l({-1})},
                                                    {"keepdim", GraphArg::boolean(false)},
                                                    {"dtype", GraphArg::null()},
                                                    {"out", t(o)}});
                 },
                 ScalarType::Float, ScalarType::Float});
  return all;
}
std::vector<uint8_t> case_program(const OpCase& c, Rng& rng) {
  GraphBuilder g(c.name, c.provider);
  const int32_t x = g.tensor("x", c.in_dtype, c.in_sizes, c.in_order, GraphTensor::Role::Input);
  const int32_t out = g.tensor("y", c.out_dtype, c.out_sizes, c.out_order, GraphTensor::Role::Output);
  c.body(g, rng, x, out);
  return tools::graph_to_pte(g.take());
}

std::vector<uint8_t> case_input(const OpCase& c, Rng& rng) {
  return c.in_dtype == ScalarType::Float ? random_float_bytes(rng, numel(c.in_sizes))
                                         : random_bytes(rng, numel(c.in_sizes) * runtime::element_size(c.in_dtype));
}

}  // namespace etns::testing
