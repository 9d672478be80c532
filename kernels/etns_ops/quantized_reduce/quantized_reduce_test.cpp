#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kQuantizedReduceContract, &quantized_reduce_prepare, &quantized_reduce_run);
constexpr runtime::Arg kSelf = kQuantizedReduceContract.arg("self");
constexpr runtime::Arg kOut = kQuantizedReduceContract.out();

// The 8 arguments; the defaults are fingerprint_signature's MEAN: [1, 42, 42, 16]
// over dims {1, 2}, keep_dims false, int8 grids (0.0203..., -128) -> (0.0114..., -128).
struct Args {
  std::vector<int32_t> self_sizes{1, 42, 42, 16};
  std::vector<int32_t> out_sizes{1, 16};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  std::vector<int64_t> dims{1, 2};
  bool keepdim = false;
  int64_t reduction = static_cast<int64_t>(Reduction::MeanRescaled);
  int64_t in_zero_point = -128;
  int64_t out_zero_point = -128;
  double scale = 1.7755F;
};

void build(KernelCall& call, const Args& a) {
  call.tensor(a.self_dtype, a.self_sizes);
  call.int_list(a.dims);
  call.bool_value(a.keepdim);
  call.int_value(a.reduction);
  call.int_value(a.in_zero_point);
  call.int_value(a.out_zero_point);
  call.double_value(a.scale);
  call.tensor(a.out_dtype, a.out_sizes);
}

// `in` through the operator with `a`'s arguments (self's sizes must hold it).
std::vector<int8_t> run(const Args& a, const std::vector<int8_t>& in) {
  KernelCall call;
  build(call, a);
  const Error prepared = call.prepare(kEntry);
  EXPECT_EQ(prepared, Error::Ok) << call.log();
  if (prepared != Error::Ok) return {};
  call.fill<int8_t>(kSelf, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// A [rows, cols] input reduced over dim 0: one output per column.
Args columns(Reduction reduction, int32_t rows, int32_t cols) {
  Args a;
  a.self_sizes = {rows, cols};
  a.out_sizes = {cols};
  a.dims = {0};
  a.reduction = static_cast<int64_t>(reduction);
  return a;
}

TEST(QuantizedReduce, MeanTruncatedDividesTowardZero) {
  // Columns of 4: sums 7, -7, 508, -512, 2 -> 1, -1, 127, -128, 0.
  const Args a = columns(Reduction::MeanTruncated, 4, 5);
  const std::vector<int8_t> in = {1, -1, 127, -128, 2,  //
                                  2, -2, 127, -128, 0,  //
                                  2, -2, 127, -128, 0,  //
                                  2, -2, 127, -128, 0};
  EXPECT_EQ(run(a, in), (std::vector<int8_t>{1, -1, 127, -128, 0}));
}

TEST(QuantizedReduce, MeanRescaledRoundsHalfAwayFromZeroAndClamps) {
  Args a = columns(Reduction::MeanRescaled, 2, 4);
  a.scale = 1.0;
  a.in_zero_point = 0;
  a.out_zero_point = 0;
  // Means 0.5, -0.5, 1.5, -2.5 -> 1, -1, 2, -3 (ties away from zero).
  EXPECT_EQ(run(a, {0, 0, 1, -2, 1, -1, 2, -3}), (std::vector<int8_t>{1, -1, 2, -3}));
  // scale 4: means 100 and -100 leave int8 and clamp; bias -zp * scale = -4.
  a.scale = 4.0;
  a.in_zero_point = 1;
  a.out_zero_point = 3;
  // (100 * 4 - 4) + 3 -> 127; (-100 * 4 - 4) + 3 -> -128; (0 - 4) + 3 = -1; (2 * 4 - 4) + 3 = 7.
  EXPECT_EQ(run(a, {100, -100, 0, 2, 100, -100, 0, 2}), (std::vector<int8_t>{127, -128, -1, 7}));
}

TEST(QuantizedReduce, SumRescaledWrapsAtTheByte) {
  Args a = columns(Reduction::SumRescaled, 3, 3);
  a.scale = 0.5;
  a.in_zero_point = -1;  // bias = (1 * 0.5) * 3 = 1.5
  a.out_zero_point = 2;
  // Sums 3, -3, 381: round(1.5 + 1.5) + 2 = 5; round(-1.5 + 1.5) + 2 = 2;
  // round(190.5 + 1.5) + 2 = 194, which wraps to -62 (TFLM casts without a clamp).
  EXPECT_EQ(run(a, {1, -1, 127, 1, -1, 127, 1, -1, 127}), (std::vector<int8_t>{5, 2, -62}));
}

TEST(QuantizedReduce, MaxStartsAtMinus128) {
  const Args a = columns(Reduction::Max, 3, 4);
  EXPECT_EQ(run(a, {-128, -5, 0, 127, -128, -7, 1, -128, -128, -6, -1, 0}),
            (std::vector<int8_t>{-128, -5, 1, 127}));
}

// Two separate reduced runs, keepdim true: [2, 3, 2, 2] over dims {0, 2}.
TEST(QuantizedReduce, TwoReducedRunsWithKeepdim) {
  Args a;
  a.self_sizes = {2, 3, 2, 2};
  a.out_sizes = {1, 3, 1, 2};
  a.dims = {2, 0};
  a.keepdim = true;
  a.reduction = static_cast<int64_t>(Reduction::MeanTruncated);
  std::vector<int8_t> in(24);
  for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<int8_t>(k);
  // out[c][w] = mean over n, h of 12n + 4c + 2h + w = 6 + 1 + 4c + w (truncated: 7 + 4c + w).
  EXPECT_EQ(run(a, in), (std::vector<int8_t>{7, 8, 11, 12, 15, 16}));
}

// A channels_last self ([N, C, H, W] stored N, H, W, C) over its logical H, W
// (dims {2, 3}) gives one output per channel, read in memory order.
TEST(QuantizedReduce, WalksAChannelsLastSelfInMemoryOrder) {
  KernelCall call;
  call.tensor(ScalarType::Char, {1, 3, 2, 2}, {0, 2, 3, 1});
  call.int_list({2, 3});
  call.bool_value(false);
  call.int_value(static_cast<int64_t>(Reduction::Max));
  call.int_value(0);
  call.int_value(0);
  call.double_value(1.0);
  call.tensor(ScalarType::Char, {1, 3});
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  // NHWC bytes: four pixels of channels (c0, c1, c2).
  call.fill<int8_t>(kSelf, std::vector<int8_t>{1, 20, -3, 4, 10, -5, 2, 30, -1, 3, 40, -7});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{4, 40, -1}));
}

TEST(QuantizedReduce, RoundHalfAwayFromZeroIsStdRound) {
  const float cases[] = {0.0F,         0.49999997F, 0.5F,       -0.5F,  1.5F,    2.5F,    -2.5F,
                         8388607.5F,   -8388607.5F, 8388608.0F, 1e10F,  -1e10F,  0.25F,   -0.75F,
                         16777215.0F,  4.5F,        -4.5000005F};
  for (const float x : cases) EXPECT_EQ(round_half_away_from_zero(x), std::round(x)) << x;
}

TEST(QuantizedReducePrepare, AcceptsEveryReductionOnTheFingerprintShape) {
  for (int64_t r = 0; r <= 3; ++r) {
    Args a;
    a.reduction = r;
    KernelCall call;
    build(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
}

struct Rejection {
  const char* what;
  void (*edit)(Args&);
  Error code;
  const char* message;
};

const Rejection kRejections[] = {
    {"float self", [](Args& a) { a.self_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "self dtype float32, expected int8"},
    {"dim out of range", [](Args& a) { a.dims = {1, 4}; }, Error::InvalidArgument,
     "dims[1] = 4, expected [0, 4) (self's rank)"},
    {"negative dim", [](Args& a) { a.dims = {-1}; }, Error::InvalidArgument,
     "dims[0] = -1, expected [0, 4) (self's rank)"},
    {"repeated dim", [](Args& a) { a.dims = {1, 1}; }, Error::InvalidArgument, "dims names dim 1 twice"},
    {"reduction code", [](Args& a) { a.reduction = 4; }, Error::InvalidArgument, "reduction = 4, expected [0, 3]"},
    {"zero point", [](Args& a) { a.in_zero_point = 128; }, Error::InvalidArgument, "input_zero_point = 128"},
    {"scale", [](Args& a) { a.scale = 0.0; }, Error::InvalidArgument, "scale = 0"},
    {"out shape, keepdim false", [](Args& a) { a.out_sizes = {1, 1, 1, 16}; }, Error::InvalidArgument,
     "out [1, 1, 1, 16] in memory order, expected [1, 16] (self [1, 42, 42, 16] with keepdim false)"},
    {"out shape, keepdim true", [](Args& a) { a.keepdim = true; }, Error::InvalidArgument,
     "out [1, 16] in memory order, expected [1, 1, 1, 16] (self [1, 42, 42, 16] with keepdim true)"},
    {"three reduced runs",
     [](Args& a) {
       a.self_sizes = {2, 3, 2, 3, 2};
       a.dims = {0, 2, 4};
       a.out_sizes = {3, 3};
     },
     Error::NotSupported, "dims leave 3 separate reduced runs in self [2, 3, 2, 3, 2], expected at most 2"},
    {"no elements",
     [](Args& a) {
       a.self_sizes = {0, 4};
       a.dims = {1};
       a.out_sizes = {0};
     },
     Error::NotSupported, "self [0, 4] has no elements"},
    {"count above 2^24",
     [](Args& a) {
       a.self_sizes = {4097, 4097};
       a.dims = {0, 1};
       a.out_sizes = {};
     },
     Error::InvalidArgument, "reduces 16785409 elements per output, expected at most 16777216"},
    {"sum could leave int32",
     [](Args& a) {
       a.reduction = static_cast<int64_t>(Reduction::SumRescaled);
       a.scale = 3000.0;  // 256 * 3000 * 1764 > 2^30
     },
     Error::InvalidArgument, "the scaled sum could leave int32"},
};

TEST(QuantizedReducePrepare, RejectsBadArguments) {
  for (const Rejection& r : kRejections) {
    SCOPED_TRACE(r.what);
    Args a;
    r.edit(a);
    KernelCall call;
    build(call, a);
    EXPECT_EQ(call.prepare(kEntry), r.code) << call.log();
    EXPECT_TRUE(testing::logged(call, r.message));
  }
}

}  // namespace
}  // namespace etns::etns_ops
