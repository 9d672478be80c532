#include "kernels/cortex_m_ns/mean/mean.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "kernels/cortex_m_ns/test_helpers.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m_ns {

std::ostream& operator<<(std::ostream& os, const MeanParams& p) {
  return os << "MeanParams{zp " << p.in_zero_point << " -> " << p.out_zero_point << ", ("
            << p.out.multiplier << ", " << p.out.shift << ")}";
}

namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::Rng;
using namespace test;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kMeanContract, &mean_prepare, &mean_run);
constexpr runtime::Arg kSelf = kMeanContract.arg("self");
constexpr runtime::Arg kOut = kMeanContract.out();

// tier1mean_ns c0i1's float qparams (operators.md §7).
const Qparams kInQ{0.030633239075541496, 1};
const Qparams kOutQ{0.0006877929554320872, 4};
constexpr size_t kTier1Count = 1024;

// One requantisation of the exact sum with two roundings, the factor (with
// 1 / count folded in) good to 2^-31: never more than one LSB from the float
// mean, for any count, small or large.
constexpr int kBoundLsb = 1;

// The 8 arguments; the defaults are tier1mean_ns c0i1.
struct MeanArgs {
  std::vector<int32_t> self_sizes{1, 16, 32, 32};
  std::vector<int32_t> out_sizes{1, 16, 1, 1};
  std::vector<uint8_t> self_order{};
  std::vector<uint8_t> out_order{};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  int64_t in_zero_point = 1;
  std::vector<int64_t> axis_mask{0, 0, 1, 1};
  bool keepdim = true;
  int64_t out_zero_point = 4;
  int64_t out_multiplier = 1494462729;
  int64_t out_shift = -4;
  const char* as_double = nullptr;  // the argument of this name is passed as a Double
  bool mask_as_int = false;
  bool keepdim_as_int = false;
};

MeanArgs args_for(const MeanParams& p) {
  MeanArgs a;
  a.in_zero_point = p.in_zero_point;
  a.out_zero_point = p.out_zero_point;
  a.out_multiplier = p.out.multiplier;
  a.out_shift = p.out.shift;
  return a;
}

void build(KernelCall& call, const MeanArgs& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  int_arg(call, a.in_zero_point, a.as_double, "input_zero_point");
  if (a.mask_as_int) {
    call.int_value(0);
  } else {
    call.int_list(a.axis_mask);
  }
  if (a.keepdim_as_int) {
    call.int_value(1);
  } else {
    call.bool_value(a.keepdim);
  }
  int_arg(call, a.out_zero_point, a.as_double, "output_zero_point");
  int_arg(call, a.out_multiplier, a.as_double, "output_multiplier");
  int_arg(call, a.out_shift, a.as_double, "output_shift");
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// Runs the operator on `in`; empty when prepare fails.
std::vector<int8_t> run_mean(const MeanArgs& a, const std::vector<int8_t>& in) {
  KernelCall call;
  build(call, a);
  if (call.prepare(kEntry) != Error::Ok) {
    ADD_FAILURE() << call.log();
    return {};
  }
  call.fill<int8_t>(kSelf, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

// The float mean of each run of `count` consecutive dequantised codes, on the output grid.
LsbError error_vs_float(const std::vector<int8_t>& out, const std::vector<int8_t>& in,
                        size_t count, Qparams in_q, Qparams out_q) {
  LsbError error;
  for (size_t o = 0; o < out.size(); ++o) {
    double sum = 0.0;
    for (size_t r = 0; r < count; ++r) sum += dequantize(in[o * count + r], in_q);
    error.add(out[o], to_grid(sum / static_cast<double>(count), out_q), in[o * count],
              static_cast<int>(o));
  }
  return error;
}

// Channels of `count` bytes: first every code as a constant channel, then
// `random_channels` channels drawn around a random centre with a random spread,
// so that the sums cover the whole range, not just its middle.
std::vector<int8_t> test_channels(Rng& rng, size_t count, size_t random_channels) {
  std::vector<int8_t> in;
  for (int v = -128; v <= 127; ++v) in.insert(in.end(), count, static_cast<int8_t>(v));
  for (size_t c = 0; c < random_channels; ++c) {
    const int64_t centre = rng.uniform(-128, 127);
    const int64_t spread = rng.uniform(0, 127);
    for (size_t r = 0; r < count; ++r) {
      in.push_back(static_cast<int8_t>(std::clamp<int64_t>(
          centre + rng.uniform(-spread, spread), -128, 127)));
    }
  }
  return in;
}

// Any parameters prepare accepts, including extreme shifts and zero points.
MeanParams random_valid_params(Rng& rng) {
  MeanParams p;
  p.in_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
  p.out_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
  p.out = {static_cast<int32_t>(rng.uniform(0, INT32_MAX)),
           static_cast<int32_t>(rng.uniform(-31, 30))};
  return p;
}

// The build's choice gives the reference's bytes for geometries around the
// lane tile (every variant is checked in mean_variant_test.cpp).
void expect_same_as_reference(MeanFn variant) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  const MeanGeometry geometries[] = {{1, 1, 1, 1, 1},  {1, 1, 3, 5, 1},    {1, 1, 2, 16, 1},
                                     {1, 1, 1, 17, 1}, {1, 1, 4, 3, 5},    {1, 1, 2, 7, 16},
                                     {1, 1, 1, 33, 17}, {1, 1, 16, 1024, 1}, {1, 1, 1, 1000, 3},
                                     {2, 3, 4, 5, 1},  {3, 2, 5, 7, 9}};
  for (const MeanGeometry& g : geometries) {
    const MeanParams p = random_valid_params(rng);
    const std::vector<int8_t> in = testing::random_s8(
        rng, g.outer * g.reduce_outer * g.middle * g.reduce * g.inner);
    std::vector<int8_t> want(g.outputs());
    std::vector<int8_t> got(g.outputs());
    mean_s8_ref(p, g, in.data(), want.data());
    variant(p, g, in.data(), got.data());
    ASSERT_EQ(want, got) << "geometry [" << g.outer << ", " << g.reduce_outer << ", " << g.middle
                         << ", " << g.reduce << ", " << g.inner << "] " << p;
  }
}

TEST(MeanS8, ChooserMatchesReference) { expect_same_as_reference(mean_s8); }

// operators.md §3.5: every byte of a channel set to v.
TEST(MeanS8, SpecVectorsTier1) {
  const int vectors[][2] = {{1, 4}, {2, 49}, {0, -41}, {-1, -85}, {3, 93}, {5, 127}, {-5, -128}};
  std::vector<int8_t> in(16 * kTier1Count, 0);
  for (size_t c = 0; c < 7; ++c) {
    std::fill_n(in.begin() + c * kTier1Count, kTier1Count, static_cast<int8_t>(vectors[c][0]));
  }
  const std::vector<int8_t> out = run_mean(MeanArgs{}, in);
  ASSERT_EQ(out.size(), 16u);
  for (size_t c = 0; c < 7; ++c) EXPECT_EQ(out[c], vectors[c][1]) << "v = " << vectors[c][0];
}

TEST(MeanS8, RecipeReproducesTier1) {
  const kernels::Requant q =
      quantize_multiplier(kInQ.scale / (kOutQ.scale * static_cast<double>(kTier1Count)));
  EXPECT_EQ(q.multiplier, 1494462729);
  EXPECT_EQ(q.shift, -4);
}

TEST(MeanS8, WithinOneLsbVsFloatWithTier1Params) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  const std::vector<int8_t> in = test_channels(rng, kTier1Count, 256);
  MeanArgs a;
  a.self_sizes = {1, 512, 32, 32};
  a.out_sizes = {1, 512, 1, 1};
  const std::vector<int8_t> out = run_mean(a, in);
  ASSERT_EQ(out.size(), 512u);
  const LsbError error = error_vs_float(out, in, kTier1Count, kInQ, kOutQ);
  EXPECT_LE(error.max, kBoundLsb) << error << " (b = channel)";
}

// The exporter's recipe (QM(s_in / (s_out count)), operators.md §3.5) for
// random counts, observed inputs and an output observer that saw a random
// part of the input's range, as means of real data are narrower.
TEST(MeanS8, WithinOneLsbVsFloatWithRandomRecipeParams) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  for (int trial = 0; trial < 150; ++trial) {
    const size_t count = trial < 20 ? static_cast<size_t>(trial + 1)
                                    : static_cast<size_t>(log_uniform(rng, 1.0, 3000.0));
    const Qparams in_q = random_input_qparams(rng);
    const double shrink = log_uniform(rng, 0.01, 1.0);
    const Qparams out_q = observe(dequantize(-128, in_q) * shrink, dequantize(127, in_q) * shrink);
    MeanParams p;
    p.in_zero_point = in_q.zero_point;
    p.out_zero_point = out_q.zero_point;
    p.out = quantize_multiplier(in_q.scale / (out_q.scale * static_cast<double>(count)));
    if (!shift_in_range(p.out)) continue;
    const std::vector<int8_t> in = test_channels(rng, count, 64);
    const size_t channels = in.size() / count;
    MeanArgs a = args_for(p);
    a.self_sizes = {static_cast<int32_t>(channels), static_cast<int32_t>(count)};
    a.out_sizes = {static_cast<int32_t>(channels)};
    a.axis_mask = {0, 0, 0, 1};
    const std::vector<int8_t> out = run_mean(a, in);
    ASSERT_EQ(out.size(), channels);
    const LsbError error = error_vs_float(out, in, count, in_q, out_q);
    ASSERT_LE(error.max, kBoundLsb) << "trial " << trial << ", count " << count << " " << p
                                    << " " << error << " (b = channel)";
  }
}

// The operator against a plain sum over the masked dims of the right-aligned
// 4-D view, for every mask: adjacent reduced dims, reduced dims with kept dims
// between them (two reduced runs), and size-1 dims anywhere.
TEST(MeanS8, GeometryFollowsTheMask) {
  struct Case {
    std::vector<int32_t> sizes;
    std::vector<int64_t> mask;
  };
  const Case cases[] = {
      {{1, 16, 32, 32}, {0, 0, 1, 1}}, {{2, 3, 4, 5}, {0, 1, 0, 0}}, {{2, 3, 4, 5}, {1, 1, 1, 1}},
      {{2, 3, 4, 5}, {0, 0, 0, 0}},    {{2, 3, 4, 5}, {1, 1, 0, 0}}, {{2, 3, 4, 5}, {0, 1, 1, 0}},
      {{3, 5}, {0, 0, 1, 0}},          {{3, 5}, {1, 1, 0, 1}},       {{2, 1, 4, 5}, {1, 0, 1, 0}},
      {{7}, {0, 0, 0, 1}},             {{4, 1, 3}, {0, 1, 0, 1}},    {{}, {1, 1, 1, 1}},
      {{2, 3, 4, 5}, {1, 0, 1, 0}},    {{2, 3, 4, 5}, {0, 1, 0, 1}}, {{2, 3, 4, 5}, {1, 0, 0, 1}},
      {{2, 3, 4, 5}, {1, 0, 1, 1}},    {{2, 3, 4, 5}, {1, 1, 0, 1}}, {{4, 3, 5}, {0, 1, 0, 1}},
      {{3, 1, 4, 5}, {1, 0, 0, 1}},    {{2, 16, 8, 8}, {1, 0, 1, 0}}, {{16, 1, 40}, {0, 1, 1, 0}},
      {{5, 300}, {0, 0, 1, 0}},        {{3, 2, 17, 33}, {0, 1, 0, 1}},
  };
  Rng rng(kSeed);
  MeanParams p;
  p.in_zero_point = -3;
  p.out_zero_point = 2;
  p.out = {1518500250, -1};  // about 0.354
  for (const Case& c : cases) {
    size_t dims[4] = {1, 1, 1, 1};
    for (size_t d = 0; d < c.sizes.size(); ++d) dims[4 - c.sizes.size() + d] = c.sizes[d];
    std::vector<int32_t> out_sizes;
    size_t numel = 1;
    for (int k = 0; k < 4; ++k) {
      numel *= dims[k];
      if (c.mask[k] == 0) out_sizes.push_back(static_cast<int32_t>(dims[k]));
    }
    const std::vector<int8_t> in = testing::random_s8(rng, numel);
    // Sum by visiting every element and its output index.
    std::vector<int32_t> sums;
    size_t outputs = 1;
    for (int32_t s : out_sizes) outputs *= static_cast<size_t>(s);
    sums.assign(outputs, 0);
    for (size_t i = 0; i < numel; ++i) {
      size_t rest = i;
      size_t index[4];
      for (int k = 3; k >= 0; --k) {
        index[k] = rest % dims[k];
        rest /= dims[k];
      }
      size_t o = 0;
      for (int k = 0; k < 4; ++k) {
        if (c.mask[k] == 0) o = o * dims[k] + index[k];
      }
      sums[o] += in[i] - p.in_zero_point;
    }
    std::vector<int8_t> want(outputs);
    for (size_t o = 0; o < outputs; ++o) {
      want[o] = static_cast<int8_t>(
          std::clamp<int32_t>(kernels::requantize(sums[o], p.out) + p.out_zero_point, -128, 127));
    }
    MeanArgs a = args_for(p);
    a.self_sizes = c.sizes;
    a.out_sizes = out_sizes;
    a.axis_mask = c.mask;
    const std::vector<int8_t> got = run_mean(a, in);
    EXPECT_EQ(got, want) << "sizes rank " << c.sizes.size() << ", mask " << c.mask[0]
                         << c.mask[1] << c.mask[2] << c.mask[3];
  }
}

// Hand-worked: zero points at the ends, the largest sums and the shift extremes.
TEST(MeanS8, Extremes) {
  MeanParams p;
  p.in_zero_point = -128;
  p.out_zero_point = 127;
  p.out = {int32_t{1} << 30, -31};  // 2^-32: every sum here rounds to 0
  const std::vector<int8_t> in(4000, 127);
  std::vector<int8_t> out(1);
  const MeanGeometry g{1, 1, 1, 4000, 1};
  mean_s8_ref(p, g, in.data(), out.data());
  EXPECT_EQ(out[0], 127);
  p.out_zero_point = -128;
  p.out = {int32_t{1} << 30, 1};  // factor 1: 255 * 4000 saturates
  mean_s8_ref(p, g, in.data(), out.data());
  EXPECT_EQ(out[0], 127);
  p.in_zero_point = 127;
  const std::vector<int8_t> low(4000, -128);
  mean_s8_ref(p, g, low.data(), out.data());
  EXPECT_EQ(out[0], -128);
  // (2^30, -12): sum / 2^13 with ties away from zero; 4 * -255 / 8192 = -0.12 -> 0.
  p.out = {int32_t{1} << 30, -12};
  p.out_zero_point = 0;
  mean_s8_ref(p, MeanGeometry{1, 1, 1, 4, 1}, low.data(), out.data());
  EXPECT_EQ(out[0], 0);
}

TEST(MeanPrepare, AcceptsTier1) { expect_accepts<MeanArgs>(kEntry, build); }

// The kernel needs self and out row-major in memory; a size-1 dim may sit
// anywhere in the dim order ([1, 16, 1, 1] channels_last is the same bytes as
// contiguous) and gives the contiguous call's bytes.
TEST(MeanPrepare, TakesRowMajorTensorsInAnyDimOrder) {
  Rng rng(kSeed);
  const std::vector<int8_t> in = testing::random_s8(rng, 16 * kTier1Count);
  const std::vector<int8_t> want = run_mean(MeanArgs{}, in);
  ASSERT_EQ(want.size(), 16u);
  MeanArgs a;
  a.out_order = {0, 2, 3, 1};
  EXPECT_EQ(run_mean(a, in), want);
  a.self_order = {1, 0, 2, 3};
  a.out_order = {3, 0, 1, 2};
  EXPECT_EQ(run_mean(a, in), want);
}

// TFLite flushes a factor below 2^-32 to (0, 0), and real models hold shifts
// down to -31: prepare takes them and every output is the output zero point
// (|sum| <= 255 * 1024, far below 2^30).
TEST(MeanPrepare, TakesMultiplierZeroAndShiftMinus31) {
  Rng rng(kSeed);
  const std::vector<int8_t> in = testing::random_s8(rng, 16 * kTier1Count);
  for (const kernels::Requant q : {kernels::Requant{0, 0}, kernels::Requant{0, -31},
                                   kernels::Requant{INT32_MAX, -31}}) {
    MeanArgs a;
    a.out_multiplier = q.multiplier;
    a.out_shift = q.shift;
    EXPECT_EQ(run_mean(a, in), std::vector<int8_t>(16, 4)) << q.multiplier << ", " << q.shift;
  }
}

TEST(MeanPrepare, RejectsSumsThatCouldOverflow) {
  MeanArgs a;
  a.self_sizes = {2, 4210753};  // 8421506 elements reduced; 8421504 is the most
  a.out_sizes = {1};
  a.axis_mask = {0, 0, 1, 1};
  KernelCall call;
  build(call, a);
  EXPECT_TRUE(rejects(call, kEntry, Error::InvalidArgument,
                      "reduces 8421506 elements per output, expected at most 8421504"));
}

using Rejection = test::Rejection<MeanArgs>;

const Rejection kRejections[] = {
    {"float self", [](MeanArgs& a) { a.self_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "self dtype float32, expected int8"},
    {"float out", [](MeanArgs& a) { a.out_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "out dtype float32, expected int8"},
    {"Double shift", [](MeanArgs& a) { a.as_double = "output_shift"; }, Error::InvalidProgram,
     "(output_shift) is Double, expected Int"},
    {"Int mask", [](MeanArgs& a) { a.mask_as_int = true; }, Error::InvalidProgram,
     "(axis_mask) is Int, expected IntList"},
    {"Int keepdim", [](MeanArgs& a) { a.keepdim_as_int = true; }, Error::InvalidProgram,
     "(keepdim) is Int, expected Bool"},
    {"shift 31", [](MeanArgs& a) { a.out_shift = 31; }, Error::InvalidArgument,
     "output_shift = 31, expected [-31, 30]"},
    {"shift 40", [](MeanArgs& a) { a.out_shift = 40; }, Error::InvalidArgument,
     "output_shift = 40, expected [-31, 30]"},
    {"negative multiplier", [](MeanArgs& a) { a.out_multiplier = -1494462729; },
     Error::InvalidArgument, "output_multiplier = -1494462729, expected [0, 2147483647]"},
    {"zero point 200", [](MeanArgs& a) { a.in_zero_point = 200; }, Error::InvalidArgument,
     "input_zero_point = 200, expected [-128, 127]"},
    {"channels_last self", [](MeanArgs& a) { a.self_order = {0, 2, 3, 1}; },
     Error::InvalidArgument, "self must be contiguous (row-major in memory)"},
    {"permuted out",
     [](MeanArgs& a) {
       a.out_sizes = {1, 4, 4};
       a.out_order = {0, 2, 1};
     },
     Error::InvalidArgument, "out must be contiguous (row-major in memory)"},
    {"rank 5",
     [](MeanArgs& a) {
       a.self_sizes = {1, 1, 16, 32, 32};
       a.axis_mask = {0, 0, 1, 1};
     },
     Error::InvalidArgument, "self has rank 5, expected at most 4"},
    {"mask of 3", [](MeanArgs& a) { a.axis_mask = {0, 1, 1}; }, Error::InvalidArgument,
     "axis_mask has 3 entries, expected 4"},
    {"mask entry 2", [](MeanArgs& a) { a.axis_mask = {0, 0, 2, 1}; }, Error::InvalidArgument,
     "axis_mask[2] = 2, expected 0 or 1"},
    {"out too large", [](MeanArgs& a) { a.out_sizes = {1, 16, 2, 1}; }, Error::InvalidArgument,
     "out has 32 elements, expected 16 (the product of the kept dims)"},
    {"out too large for two reduced runs",
     [](MeanArgs& a) {
       a.axis_mask = {0, 1, 0, 1};
       a.out_sizes = {1, 1, 32, 2};
     },
     Error::InvalidArgument, "out has 64 elements, expected 32 (the product of the kept dims)"},
};

TEST(MeanPrepare, RejectsBadArguments) { expect_rejections<MeanArgs>(kEntry, build, kRejections); }

}  // namespace
}  // namespace etns::cortex_m_ns
