// Every cortex_m:: operator and data-movement operator in a program of its
// own, written by the PTE writer, run by `etns run` on the host (reference
// kernels: the host has no Helium) and on the Cortex-M55 firmware under QEMU
// (the Helium variants): the two outputs must be the same bytes. The cases
// are the edges a valid program can hold: strides, uneven far-side padding,
// dilation, depth multipliers, channel tails, batches, null bias.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/rng.h"
#include "tools/common/files.h"
#include "tools/export/graph_to_program.h"
#include "tools/export/quantized_graph.h"

namespace etns {
namespace {

using runtime::ScalarType;
using tools::GraphArg;
using tools::GraphBuilder;
using tools::GraphTensor;
using tools::Provider;

const std::vector<uint8_t> kNhwc = tools::kChannelsLastOrder;

std::vector<uint8_t> random_bytes(testing::Rng& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng.uniform(0, 255));
  return v;
}
size_t numel(const std::vector<int32_t>& sizes) {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}
std::vector<int32_t> random_words(testing::Rng& rng, size_t n, int64_t lo, int64_t hi) {
  std::vector<int32_t> v(n);
  for (int32_t& w : v) w = static_cast<int32_t>(rng.uniform(lo, hi));
  return v;
}

// One single-operator program: int8 input `x` of `in_sizes`, the op built by
// `body` (given the builder, x and the out tensor), int8 output.
struct OpCase {
  std::string name;
  std::vector<int32_t> in_sizes;
  std::vector<uint8_t> in_order;
  std::vector<int32_t> out_sizes;
  std::vector<uint8_t> out_order;
  std::function<void(GraphBuilder&, testing::Rng&, int32_t x, int32_t out)> body;
};

int32_t s8_constant(GraphBuilder& g, testing::Rng& rng, const std::string& name, std::vector<int32_t> sizes) {
  const size_t n = numel(sizes);
  return g.tensor(name, ScalarType::Char, sizes, tools::contiguous_order(sizes.size()), GraphTensor::Role::Constant,
                  random_bytes(rng, n));
}

GraphArg t(int32_t index) { return GraphArg::of_tensor(index); }
GraphArg i(int64_t value) { return GraphArg::integer(value); }
GraphArg l(std::vector<int64_t> values) { return GraphArg::list(std::move(values)); }

// quantized_depthwise_conv2d: input [1, C, H, W] NHWC, weight [1, KH, KW, C*m].
OpCase depthwise(std::string name, int32_t c, int32_t h, int32_t w, int32_t k, int32_t stride, int32_t pad,
               int32_t dilation, int32_t multiplier, bool bias, int32_t out_h, int32_t out_w) {
  const int32_t cout = c * multiplier;
  return {name, {1, c, h, w}, kNhwc, {1, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t out) {
            const int32_t weight = s8_constant(g, rng, "w", {1, k, k, cout});
            const GraphArg b = bias ? t(g.int32_vector("b", random_words(rng, static_cast<size_t>(cout), -5000, 5000)))
                                    : GraphArg::null();
            g.op("cortex_m::quantized_depthwise_conv2d",
                 {t(x), t(weight), b, l({stride, stride}), l({pad, pad}), l({dilation, dilation}), i(multiplier),
                  i(7), i(-3), t(g.int32_vector("m", random_words(rng, static_cast<size_t>(cout), 1 << 29, (1 << 30) + (1 << 29)))),
                  t(g.int32_vector("s", random_words(rng, static_cast<size_t>(cout), -9, -6))), i(-128), i(127), t(out)});
          }};
}

OpCase linear_case(std::string name, int32_t batches, int32_t in, int32_t outs, bool kernel_sum) {
  return {name, {batches, in}, {0, 1}, {batches, outs}, {0, 1},
              [=](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t out) {
                const int32_t weight = s8_constant(g, rng, "w", {outs, in});
                const GraphArg sums =
                    kernel_sum ? t(g.int32_vector("ks", random_words(rng, static_cast<size_t>(outs), -20000, 20000)))
                               : GraphArg::null();
                const GraphArg bias =
                    kernel_sum ? GraphArg::null()
                               : t(g.int32_vector("b", random_words(rng, static_cast<size_t>(outs), -20000, 20000)));
                g.op("cortex_m::quantized_linear",
                     {t(x), t(weight), bias, sums, i(5), i(0), i(-2), l({1 << 30}), l({-8}), i(127), i(-128), t(out)});
              }};
}

OpCase softmax_case(std::string name, std::vector<int32_t> sizes) {
  return {name, sizes, tools::contiguous_order(sizes.size()), sizes, tools::contiguous_order(sizes.size()),
              [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t out) {
                g.op("cortex_m::softmax", {t(x), i(-1), i(3), i(-128), i(1518500250), i(23), i(-248), t(out)});
              }};
}

OpCase avg_pool_case(std::string name, std::vector<int32_t> in, std::vector<int32_t> out, int32_t kh, int32_t kw,
                           int32_t stride_h, int32_t stride_w, int32_t pad) {
  return {name, in, kNhwc, out, kNhwc, [=](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                g.op("cortex_m::quantized_avg_pool2d",
                     {t(x), l({kh, kw}), l({stride_h, stride_w}), l({pad, pad}), i(0), i(1 << 30), i(1), t(o)});
              }};
}

OpCase max_pool_case(std::string name, std::vector<int32_t> in, std::vector<int32_t> out, int32_t k,
                           int32_t stride, int32_t pad, int32_t act_min, int32_t act_max) {
  return {name, in, kNhwc, out, kNhwc, [=](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                g.op("cortex_m::quantized_max_pool2d",
                     {t(x), l({k, k}), l({stride, stride}), l({pad, pad}), l({1, 1}), GraphArg::boolean(false), i(0),
                      i(0), i(act_min), i(act_max), t(o)});
              }};
}

// quantized_transpose_conv2d: input [N, Cin, H, W] NHWC, weight OHWI
// [Cout, K, K, Cin]; out = (H - 1) * stride - 2 * pad + K + output_padding.
OpCase transpose_conv(std::string name, int32_t n, int32_t cin, int32_t h, int32_t w, int32_t cout,
                      int32_t k, int32_t stride, int32_t pad, int32_t output_padding, bool bias) {
  const int32_t out_h = (h - 1) * stride - 2 * pad + k + output_padding;
  const int32_t out_w = (w - 1) * stride - 2 * pad + k + output_padding;
  return {name, {n, cin, h, w}, kNhwc, {n, cout, out_h, out_w}, kNhwc,
          [=](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t out) {
            const int32_t weight = s8_constant(g, rng, "w", {cout, k, k, cin});
            const size_t channels = static_cast<size_t>(cout);
            const GraphArg b =
                bias ? t(g.int32_vector("b", random_words(rng, channels, -5000, 5000))) : GraphArg::null();
            g.op("cortex_m::quantized_transpose_conv2d",
                 {t(x), t(weight), b, l({stride, stride}), l({pad, pad}), l({output_padding, output_padding}),
                  l({1, 1}), i(9), i(-4), t(g.int32_vector("m", random_words(rng, channels, 1 << 29, (1 << 30) + (1 << 29)))),
                  t(g.int32_vector("s", random_words(rng, channels, -10, -7))), i(-128), i(127), t(out)});
          }};
}

std::vector<OpCase> cases() {
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
                 [block](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t o) {
                   const int32_t other = g.tensor("other", ScalarType::Char, block, kNhwc, GraphTensor::Role::Constant,
                                                  random_bytes(rng, numel(block)));
                   g.op("cortex_m::quantized_add", {t(x), i(3), i(1 << 30), i(-1), t(other), i(-7), i(1518500250), i(-1),
                                                    i(-2), i(1 << 30), i(-18), i(-100), i(110), t(o)});
                 }});
  all.push_back({"maximum_same_shape", block, kNhwc, block, kNhwc,
                 [block](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t o) {
                   const int32_t other = g.tensor("other", ScalarType::Char, block, kNhwc, GraphTensor::Role::Constant,
                                                  random_bytes(rng, numel(block)));
                   g.op("cortex_m::maximum", {t(x), t(other), t(o)});
                 }});

  // Transpose convolution: the 2x upsampler (stride 2, pad 1, output_padding
  // 1) with bias; stride 1 without padding or bias, batch 2, a 17-channel tail;
  // stride 3 with a kernel smaller than the stride (gaps in the output).
  all.push_back(transpose_conv("transpose_conv_s2_up", 1, 5, 4, 4, 7, 3, 2, 1, 1, true));
  all.push_back(transpose_conv("transpose_conv_s1_batches_nobias", 2, 17, 3, 5, 3, 2, 1, 0, 0, false));
  all.push_back(transpose_conv("transpose_conv_s3_k2", 1, 4, 3, 3, 9, 2, 3, 0, 2, true));

  // Transpose of a contiguous tensor: NCHW -> NHWC; a rank-3 swap with odd sizes.
  all.push_back({"transpose_nchw_to_nhwc", {1, 17, 5, 3}, {0, 1, 2, 3}, {1, 5, 3, 17}, {0, 1, 2, 3},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("cortex_m::transpose", {t(x), l({0, 2, 3, 1}), t(o)});
                 }});
  all.push_back({"transpose_rank3", {3, 7, 11}, {0, 1, 2}, {11, 3, 7}, {0, 1, 2},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("cortex_m::transpose", {t(x), l({2, 0, 1}), t(o)});
                 }});

  // Pad (pads in physical n, h, w, c order): spatial padding of a channels_last
  // tensor, uneven sides; a channel pad 17 -> 32; a rank-2 contiguous tensor.
  all.push_back({"pad_spatial_uneven", {1, 16, 5, 4}, kNhwc, {1, 16, 8, 5}, kNhwc,
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("cortex_m::pad", {t(x), l({0, 1, 0, 0}), l({0, 2, 1, 0}), i(-5), t(o)});
                 }});
  all.push_back({"pad_channels_17_to_32", {1, 17, 3, 3}, kNhwc, {1, 32, 3, 3}, kNhwc,
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("cortex_m::pad", {t(x), l({0, 0, 0, 0}), l({0, 0, 0, 15}), i(0), t(o)});
                 }});
  all.push_back({"pad_rank2", {3, 19}, {0, 1}, {6, 20}, {0, 1},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("cortex_m::pad", {t(x), l({0, 0, 2, 0}), l({0, 0, 1, 1}), i(127), t(o)});
                 }});

  // Batch matmul against a constant right-hand side (transposed): attention
  // scores with a depth tail; one row, one column.
  const auto batch_matmul = [](std::string name, int32_t batches, int32_t rows, int32_t cols, int32_t depth) {
    return OpCase{name, {batches, rows, depth}, {0, 1, 2}, {batches, rows, cols}, {0, 1, 2},
                  [=](GraphBuilder& g, testing::Rng& rng, int32_t x, int32_t o) {
                    const int32_t rhs = s8_constant(g, rng, "rhs", {batches, cols, depth});
                    g.op("cortex_m::quantized_batch_matmul",
                         {t(x), i(3), t(rhs), i(-1), i(-2), i(1 << 30), i(-9), t(o)});
                  }};
  };
  all.push_back(batch_matmul("batch_matmul_scores", 4, 9, 9, 35));
  all.push_back(batch_matmul("batch_matmul_1x1", 2, 1, 1, 17));

  // Data movement.
  all.push_back({"permute_copy_nchw_to_nhwc", {1, 3, 5, 7}, {0, 1, 2, 3}, {1, 5, 7, 3}, {0, 1, 2, 3},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("aten::permute_copy", {t(x), l({0, 2, 3, 1}), t(o)});
                 }});
  all.push_back({"to_dim_order_copy_to_nhwc", {2, 17, 3, 5}, {0, 1, 2, 3}, {2, 17, 3, 5}, kNhwc,
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("dim_order_ops::_to_dim_order_copy", {t(x), GraphArg::boolean(false), l({0, 2, 3, 1}), t(o)});
                 }});
  // The same kernel under the aten:: spelling operators-cortex-m.md uses.
  all.push_back({"to_dim_order_copy_aten_spelling", {1, 5, 2, 3}, kNhwc, {1, 5, 2, 3}, {0, 1, 2, 3},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("aten::_to_dim_order_copy", {t(x), GraphArg::boolean(false), l({0, 1, 2, 3}), t(o)});
                 }});
  all.push_back({"view_copy_flatten", {1, 32, 1, 1}, {0, 1, 2, 3}, {1, 32}, {0, 1},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("aten::view_copy", {t(x), l({1, -1}), t(o)});
                 }});
  all.push_back({"clone", {3, 5}, {0, 1}, {3, 5}, {0, 1},
                 [](GraphBuilder& g, testing::Rng&, int32_t x, int32_t o) {
                   g.op("aten::clone", {t(x), GraphArg::null(), t(o)});
                 }});
  return all;
}

TEST(OperatorPrograms, EachOperatorGivesTheSameBytesOnTheHostAndOnTheM55) {
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  testing::Rng rng(0x6f7073);  // "ops"
  for (const OpCase& c : cases()) {
    SCOPED_TRACE(c.name);
    GraphBuilder g(c.name, Provider::Arm);
    const int32_t x = g.tensor("x", ScalarType::Char, c.in_sizes, c.in_order, GraphTensor::Role::Input);
    const int32_t out = g.tensor("y", ScalarType::Char, c.out_sizes, c.out_order, GraphTensor::Role::Output);
    c.body(g, rng, x, out);
    const std::vector<uint8_t> pte = tools::graph_to_pte(g.take());
    const std::string base = dir.path() + "/" + c.name;
    tools::write_file_atomic(base + ".pte", pte.data(), pte.size());
    const std::vector<uint8_t> input = random_bytes(rng, numel(c.in_sizes));
    tools::write_file_atomic(base + ".in.bin", input.data(), input.size());
    const std::string run = "run " + base + ".pte --provider arm --input " + base + ".in.bin --output ";
    const testing::CliResult host = testing::run_cli(run + base + ".host.bin");
    ASSERT_EQ(host.exit_code, 0) << host.stderr_text;
    const testing::CliResult m55 = testing::run_cli(run + base + ".m55.bin --target qemu-m55");
    ASSERT_EQ(m55.exit_code, 0) << m55.stderr_text;
    const std::vector<uint8_t> host_out = tools::read_file(base + ".host.bin");
    EXPECT_EQ(host_out.size(), numel(c.out_sizes));
    EXPECT_EQ(tools::read_file(base + ".m55.bin"), host_out);
  }
}

}  // namespace
}  // namespace etns
