#pragma once

#include <cstdint>
#include <vector>

#include "tools/writers/import/import_context.h"

// What several builtins share: the spatial geometry and per-channel
// requantisation of the convolutions and pools, the clamp of a fused
// activation after a kernel that clamps only to int8, and numpy broadcasting.
namespace etns::tools::builtins {

// The tensors of a convolution (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV),
// each checked as every one of them checks it: input, weights and output of
// rank 4, int8 activations with per-tensor grids, constant int8 weights.
struct ConvTensors {
  int32_t x, w, y;
  Grid in, out;
  std::vector<int32_t> sx, sw, sy;  // the TFLite shapes, NHWC and the weights' own order
};
ConvTensors conv_tensors(const OperatorImport& c, size_t input, size_t weights);
// Fails unless the output's batch is the input's and its channels are `channels`.
void expect_output_channels(const OperatorImport& c, const ConvTensors& t, int32_t channels);

// The spatial geometry of a convolution or pool, checked against the output
// TFLite stored: [top, left] padding, the far side implied.
struct Geometry {
  std::vector<int64_t> stride, padding, dilation;
};
Geometry geometry(const OperatorImport& c, int32_t in, int32_t out, int32_t filter_h, int32_t filter_w,
                  int32_t dilation_h, int32_t dilation_w);

// Bias, multipliers and shifts of a per-channel convolution, the weights'
// channels along `channel_dim` (TFLM's PopulateConvolutionQuantizationParams).
struct PerChannel {
  GraphArg bias = GraphArg::null();
  int32_t multipliers = -1;
  int32_t shifts = -1;
};
PerChannel per_channel(OperatorImport& c, int32_t weights, size_t channel_dim, int32_t channels, const Grid& in,
                       const Grid& out, size_t bias_input = 2);

// The graph tensor an operator without a clamp writes for TFLite tensor y:
// y itself, or, when the fused activation clamps, an unclamped copy of it
// that clamp() then reads.
int32_t clamped_output(OperatorImport& c, int32_t y, Form form, const tflm::ActivationRange& act);
// TFLM's clamp to the fused activation's range after an operator whose
// cortex_m:: kernel clamps only to int8 (nothing when the range is int8's).
void clamp(OperatorImport& c, int32_t from, int32_t y, Form form, const tflm::ActivationRange& act);

uint64_t numel(const std::vector<int32_t>& s);
// Dim k of `s` right-aligned into `rank` dims (leading 1s).
int32_t aligned_dim(const std::vector<int32_t>& s, size_t rank, size_t k);
// numpy's broadcast of two shapes; fails when they do not broadcast.
std::vector<int32_t> broadcast_shape(const OperatorImport& c, const std::vector<int32_t>& a,
                                     const std::vector<int32_t>& b);

}  // namespace etns::tools::builtins
