#include "tools/writers/import/tflm_numerics.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tools/common/failure.h"

// Expected values are TFLite Micro's, as the MLPerf Tiny census lists them
// (../shared/models/mlperf-tiny/CENSUS.md; the scales are its float32
// values, printed to round-trip).
namespace etns::tools::tflm {
namespace {

using tflite::Activation;
using tflite::Padding;

TEST(TflmNumerics, QuantizeMultiplierRoundsHalvesAwayFromZeroAndFlushesTinyFactors) {
  EXPECT_EQ(quantize_multiplier(0.5, "t").multiplier, 1 << 30);
  EXPECT_EQ(quantize_multiplier(0.5, "t").shift, 0);
  EXPECT_EQ(quantize_multiplier(0.0, "t").multiplier, 0);
  // m * 2^31 = k + 0.5 exactly: away from zero (the exporter's QM would round to even).
  const double tie = (1073741824.0 + 2.5) / 2147483648.0;  // m = (2^30 + 2.5) / 2^31
  EXPECT_EQ(quantize_multiplier(tie, "t").multiplier, 1073741827);
  // Just below 1: M reaches 2^31 and carries into the exponent.
  const Requant carry = quantize_multiplier(std::nextafter(1.0, 0.0), "t");
  EXPECT_EQ(carry.multiplier, 1 << 30);
  EXPECT_EQ(carry.shift, 1);
  // Below 2^-32 TFLM flushes to (0, 0); at 2^-32 the shift is -31.
  EXPECT_EQ(quantize_multiplier(std::ldexp(1.0, -33), "t").multiplier, 0);
  EXPECT_EQ(quantize_multiplier(std::ldexp(1.0, -33), "t").shift, 0);
  EXPECT_EQ(quantize_multiplier(std::ldexp(1.0, -32), "t").shift, -31);
  EXPECT_THROW(quantize_multiplier(-1.0, "t"), Failure);
  EXPECT_THROW(quantize_multiplier(std::ldexp(1.0, 31), "t"), Failure);
}

TEST(TflmNumerics, FullyConnectedRoundsTheScaleProductToFloat32First) {
  // kws operator 11: the float32 product gives 1278221461; the all-double
  // product would give 1278221421.
  const Requant r = fully_connected_multiplier(0.0802361593F, 0.00838575512F, 0.14469251F, "t");
  EXPECT_EQ(r.multiplier, 1278221461);
  EXPECT_EQ(r.shift, -7);
  const Requant d = conv_channel_multiplier(0.0802361593F, 0.00838575512F, 0.14469251F, "t");
  EXPECT_EQ(d.multiplier, 1278221421);
}

TEST(TflmNumerics, SoftmaxParametersOfTheThreeClassifiers) {
  const SoftmaxParams kws = softmax_params(1.0F, 0.14469251F, "t");
  EXPECT_EQ(kws.multiplier, 1242899200);
  EXPECT_EQ(kws.left_shift, 24);
  EXPECT_EQ(kws.diff_min, -124);
  const SoftmaxParams vww = softmax_params(1.0F, 0.0146362185F, "t");
  EXPECT_EQ(vww.multiplier, 2011586560);
  EXPECT_EQ(vww.left_shift, 20);
  EXPECT_EQ(vww.diff_min, -1984);
  const SoftmaxParams ic = softmax_params(1.0F, 0.171853513F, "t");
  EXPECT_EQ(ic.multiplier, 1476210432);
  EXPECT_EQ(ic.left_shift, 24);
  EXPECT_EQ(ic.diff_min, -124);
}

TEST(TflmNumerics, AddParametersOfIcOperator3) {
  const AddParams p = add_params(0.0393935516F, 0.104194961F, 0.0509456731F, "t");
  EXPECT_EQ(p.input1.multiplier, 1623821475);
  EXPECT_EQ(p.input1.shift, -2);
  EXPECT_EQ(p.input2.multiplier, 1073741824);
  EXPECT_EQ(p.input2.shift, 0);
  EXPECT_EQ(p.output.multiplier, 1098017566);
  EXPECT_EQ(p.output.shift, -17);
}

TEST(TflmNumerics, SamePaddingPutsTheOddRowOnTheFarSide) {
  // kws operator 0: 10x4 kernel, stride 2, 49x10 -> 25x5, rows 4 above and 5 below.
  const SpatialPadding h = spatial_padding(Padding::Same, 49, 10, 2, 1);
  EXPECT_EQ(h.out, 25);
  EXPECT_EQ(h.near, 4);
  EXPECT_EQ(h.far, 5);
  const SpatialPadding w = spatial_padding(Padding::Same, 10, 4, 2, 1);
  EXPECT_EQ(w.out, 5);
  EXPECT_EQ(w.near, 1);
  EXPECT_EQ(w.far, 1);
  // vww operator 0: 3x3 stride 2 on 96: nothing above, one row below.
  const SpatialPadding v = spatial_padding(Padding::Same, 96, 3, 2, 1);
  EXPECT_EQ(v.out, 48);
  EXPECT_EQ(v.near, 0);
  EXPECT_EQ(v.far, 1);
  const SpatialPadding valid = spatial_padding(Padding::Valid, 25, 25, 25, 1);
  EXPECT_EQ(valid.out, 1);
  EXPECT_EQ(valid.near, 0);
  EXPECT_EQ(spatial_padding(Padding::Valid, 7, 3, 2, 2).out, 2);  // effective filter 5
}

TEST(TflmNumerics, FusedActivationsBecomeClampsOnTheOutputGrid) {
  EXPECT_EQ(activation_range(Activation::Relu, 0.1F, -128, "t").min, -128);
  EXPECT_EQ(activation_range(Activation::Relu, 0.1F, 5, "t").min, 5);
  const ActivationRange r6 = activation_range(Activation::Relu6, 0.05F, -100, "t");
  EXPECT_EQ(r6.min, -100);
  EXPECT_EQ(r6.max, 20);  // -100 + round(6 / 0.05)
  const ActivationRange n1 = activation_range(Activation::ReluN1To1, 0.02F, 0, "t");
  EXPECT_EQ(n1.min, -50);
  EXPECT_EQ(n1.max, 50);
  // 6 / s = 0.5 exactly: away from zero, 1 (round half to even would give 0).
  EXPECT_EQ(activation_range(Activation::Relu6, 12.0F, 0, "t").max, 1);
  EXPECT_THROW(activation_range(Activation::Tanh, 0.1F, 0, "t"), Failure);
}

}  // namespace
}  // namespace etns::tools::tflm
