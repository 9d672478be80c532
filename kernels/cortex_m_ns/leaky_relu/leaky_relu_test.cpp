#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "kernels/cortex_m_ns/test_helpers.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m_ns {

std::ostream& operator<<(std::ostream& os, const LeakyReluParams& p) {
  return os << "LeakyReluParams{zp " << p.in_zero_point << " -> " << p.out_zero_point
            << ", alpha (" << p.alpha.multiplier << ", " << p.alpha.shift << "), identity ("
            << p.identity.multiplier << ", " << p.identity.shift << ")}";
}

namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::Rng;
using namespace test;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kLeakyReluContract, &leaky_relu_prepare, &leaky_relu_run);

// tier1_ns c0i4's float qparams, recovered from the program (operators.md §7).
const Qparams kInQ{0.04002131150, 0};     // conv2 output
const Qparams kOutQ{0.02308945731, -100};
constexpr double kTier1Alpha = 0.125;

const char kTier1Lut[] = R"(
8080818181818182828282838383838384848484848585858586868686868787
8787888888888889898989898a8a8a8a8b8b8b8b8b8c8c8c8c8c8d8d8d8d8e8e
8e8e8e8f8f8f8f90909090909191919191929292929393939393949494949595
959595969696969697979797989898989899999999999a9a9a9a9b9b9b9b9b9c
9c9e9fa1a3a5a6a8aaacadafb1b3b4b6b8b9bbbdbfc0c2c4c6c7c9cbcdced0d2
d3d5d7d9dadcdee0e1e3e5e7e8eaecedeff1f3f4f6f8fafbfdff010204060709
0b0d0e1012141517191b1c1e2021232527282a2c2e2f31333536383a3b3d3f41
42444648494b4d4f5052545557595b5c5e6062636567696a6c6e6f7173757678
)";

// One requantisation with two roundings (DHM then RDIV) of a factor good to
// 2^-31: never more than one LSB from the float result, for any parameters.
constexpr int kBoundLsb = 1;

double leaky_relu(double x, double alpha) { return x >= 0.0 ? x : alpha * x; }

// The 8 arguments; the defaults are tier1_ns c0i4.
struct LeakyReluArgs {
  std::vector<int32_t> self_sizes{1, 16, 32, 32};
  std::vector<int32_t> out_sizes{1, 16, 32, 32};
  std::vector<uint8_t> self_order{0, 2, 3, 1};
  std::vector<uint8_t> out_order{0, 2, 3, 1};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  int64_t in_zero_point = 0;
  int64_t out_zero_point = -100;
  int64_t alpha_multiplier = 1861133219;
  int64_t alpha_shift = -2;
  int64_t identity_multiplier = 1861133219;
  int64_t identity_shift = 1;
  const char* as_double = nullptr;  // the argument of this name is passed as a Double
};

LeakyReluArgs args_for(const LeakyReluParams& p) {
  LeakyReluArgs a;
  a.in_zero_point = p.in_zero_point;
  a.out_zero_point = p.out_zero_point;
  a.alpha_multiplier = p.alpha.multiplier;
  a.alpha_shift = p.alpha.shift;
  a.identity_multiplier = p.identity.multiplier;
  a.identity_shift = p.identity.shift;
  return a;
}

void build(KernelCall& call, const LeakyReluArgs& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  int_arg(call, a.in_zero_point, a.as_double, "input_zero_point");
  int_arg(call, a.out_zero_point, a.as_double, "output_zero_point");
  int_arg(call, a.alpha_multiplier, a.as_double, "alpha_multiplier");
  int_arg(call, a.alpha_shift, a.as_double, "alpha_shift");
  int_arg(call, a.identity_multiplier, a.as_double, "identity_multiplier");
  int_arg(call, a.identity_shift, a.as_double, "identity_shift");
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// All 256 codes through the operator (entry i is the output for q = i - 128).
std::vector<int8_t> run_lut(const LeakyReluArgs& a) {
  return run_all_codes<LeakyReluArgs>(kEntry, build, a);
}

LsbError lut_error_vs_float(const std::vector<int8_t>& lut, Qparams in_q, Qparams out_q,
                            double alpha) {
  LsbError error;
  for (int q = -128; q <= 127; ++q) {
    error.add(lut[q + 128], to_grid(leaky_relu(dequantize(q, in_q), alpha), out_q), q);
  }
  return error;
}

struct LeakyReluCase {
  Qparams in_q;
  Qparams out_q;
  double alpha = 0.0;
  LeakyReluParams params;
};

// The exporter's recipe (operators.md §3.2): alpha QM(s_in alpha / s_out),
// identity the (2^30, 1) sentinel for unchanged qparams, else QM(s_in / s_out).
bool make_leaky_relu_params(LeakyReluCase& c) {
  LeakyReluParams& p = c.params;
  p.in_zero_point = c.in_q.zero_point;
  p.out_zero_point = c.out_q.zero_point;
  p.alpha = quantize_multiplier(c.in_q.scale * c.alpha / c.out_q.scale);
  const bool same = c.in_q.scale == c.out_q.scale && c.in_q.zero_point == c.out_q.zero_point;
  p.identity = same ? kernels::Requant{int32_t{1} << 30, 1}
                    : quantize_multiplier(c.in_q.scale / c.out_q.scale);
  return shift_in_range(p.alpha) && shift_in_range(p.identity);
}

// A random slope and observed input; the output observer sees leaky_relu of
// every input code, or (one case in four) the output shares the input's qparams.
LeakyReluCase random_leaky_relu_case(Rng& rng) {
  for (;;) {
    LeakyReluCase c;
    c.alpha = log_uniform(rng, 0.001, 1.0);
    c.in_q = random_input_qparams(rng);
    if (rng.uniform(0, 3) == 0) {
      c.out_q = c.in_q;
    } else {
      c.out_q = observe(leaky_relu(dequantize(-128, c.in_q), c.alpha), dequantize(127, c.in_q));
    }
    if (make_leaky_relu_params(c)) return c;
  }
}


TEST(LeakyReluS8, LutTier1) { EXPECT_EQ(run_lut(LeakyReluArgs{}), from_hex(kTier1Lut)); }

TEST(LeakyReluS8, SamplesTier1) {
  const std::vector<int8_t> lut = run_lut(LeakyReluArgs{});
  ASSERT_EQ(lut.size(), 256u);
  const int samples[][2] = {{-128, -128}, {-100, -122}, {-64, -114}, {-1, -100}, {0, -100},
                            {1, -98},     {4, -93},     {50, -13},   {64, 11},   {127, 120}};
  for (const auto& s : samples) EXPECT_EQ(lut[s[0] + 128], s[1]) << "input " << s[0];
}

TEST(LeakyReluS8, RecipeReproducesTier1) {
  LeakyReluCase c{kInQ, kOutQ, kTier1Alpha, {}};
  ASSERT_TRUE(make_leaky_relu_params(c));
  // The scales are printed to 10 digits only; the multipliers land within a few units.
  EXPECT_NEAR(c.params.alpha.multiplier, 1861133219, 64);
  EXPECT_EQ(c.params.alpha.shift, -2);
  EXPECT_NEAR(c.params.identity.multiplier, 1861133219, 64);
  EXPECT_EQ(c.params.identity.shift, 1);
}

TEST(LeakyReluS8, WithinOneLsbVsFloatWithTier1Params) {
  const std::vector<int8_t> lut = run_lut(LeakyReluArgs{});
  ASSERT_EQ(lut.size(), 256u);
  const LsbError error = lut_error_vs_float(lut, kInQ, kOutQ, kTier1Alpha);
  EXPECT_LE(error.max, kBoundLsb) << error;
}

TEST(LeakyReluS8, WithinOneLsbVsFloatWithRandomRecipeParams) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  for (int trial = 0; trial < 400; ++trial) {
    const LeakyReluCase c = random_leaky_relu_case(rng);
    const std::vector<int8_t> lut = run_lut(args_for(c.params));
    ASSERT_EQ(lut.size(), 256u);
    const LsbError error = lut_error_vs_float(lut, c.in_q, c.out_q, c.alpha);
    ASSERT_LE(error.max, kBoundLsb) << "trial " << trial << ", alpha " << c.alpha << " "
                                    << c.params << " " << error;
  }
}

// Hand-worked: the sign of x = q - zp picks the pair. Identity doubles (zero
// points at the ends); alpha shows both roundings: at shift 0 only DHM rounds
// (ties toward +infinity), at shift -1 RDIV rounds last (ties away from zero).
TEST(LeakyReluS8, SignPicksThePair) {
  LeakyReluParams p;
  p.in_zero_point = -128;
  p.out_zero_point = 0;
  p.identity = {int32_t{1} << 30, 2};
  p.alpha = {int32_t{1} << 30, 0};
  std::vector<int8_t> out(4);
  const std::vector<int8_t> positive{-128, -127, -100, 127};
  leaky_relu_s8_ref(p, positive.data(), out.data(), positive.size());
  // x = 0, 1, 28, 255 -> 0, 2, 56, 510 saturating.
  EXPECT_EQ(out, (std::vector<int8_t>{0, 2, 56, 127}));

  p.in_zero_point = 0;
  const std::vector<int8_t> negative{-1, -3, -4, -128};
  leaky_relu_s8_ref(p, negative.data(), out.data(), negative.size());
  // x / 2: -0.5 -> 0 and -1.5 -> -1 (half up), -2, -64.
  EXPECT_EQ(out, (std::vector<int8_t>{0, -1, -2, -64}));

  p.alpha = {int32_t{1} << 30, -1};
  const std::vector<int8_t> quarter{-1, -2, -6, -128};
  leaky_relu_s8_ref(p, quarter.data(), out.data(), quarter.size());
  // x / 4: DHM gives x / 2 = -0.5 -> 0, -1, -3, -64; RDIV halves with ties
  // away from zero: 0, -0.5 -> -1, -1.5 -> -2, -32.
  EXPECT_EQ(out, (std::vector<int8_t>{0, -1, -2, -32}));
}

TEST(LeakyReluPrepare, AcceptsTier1) { expect_accepts<LeakyReluArgs>(kEntry, build); }

TEST(LeakyReluPrepare, TakesSize1DimsInAnyDimOrder) {
  expect_size1_dims_in_any_order<LeakyReluArgs>(kEntry, build);
}

// TFLite flushes a factor below 2^-32 to (0, 0), and real models hold shifts
// down to -31: prepare takes them for either pair and the kernel gives the
// reference's bytes, here the output zero point for every code.
TEST(LeakyReluPrepare, TakesMultiplierZeroAndShiftMinus31) {
  const kernels::Requant pairs[] = {{0, 0}, {0, -31}, {INT32_MAX, -31}};
  for (const kernels::Requant alpha : pairs) {
    for (const kernels::Requant identity : pairs) {
      LeakyReluParams p;
      p.out_zero_point = -100;
      p.alpha = alpha;
      p.identity = identity;
      std::vector<int8_t> want(256);
      leaky_relu_s8_ref(p, all_codes().data(), want.data(), want.size());
      EXPECT_EQ(want, std::vector<int8_t>(256, -100));
      EXPECT_EQ(run_lut(args_for(p)), want) << p;
    }
  }
}

using Rejection = test::Rejection<LeakyReluArgs>;

const Rejection kRejections[] = {
    {"float self", [](LeakyReluArgs& a) { a.self_dtype = ScalarType::Float; },
     Error::InvalidArgument, "self dtype float32, expected int8"},
    {"int32 out", [](LeakyReluArgs& a) { a.out_dtype = ScalarType::Int; }, Error::InvalidArgument,
     "out dtype int32, expected int8"},
    {"Double multiplier", [](LeakyReluArgs& a) { a.as_double = "identity_multiplier"; },
     Error::InvalidProgram,
     "(identity_multiplier) is Double, expected Int"},
    {"identity shift 31", [](LeakyReluArgs& a) { a.identity_shift = 31; },
     Error::InvalidArgument, "identity_shift = 31, expected [-31, 30]"},
    {"alpha shift 40", [](LeakyReluArgs& a) { a.alpha_shift = 40; }, Error::InvalidArgument,
     "alpha_shift = 40, expected [-31, 30]"},
    {"negative multiplier", [](LeakyReluArgs& a) { a.alpha_multiplier = -1861133219; },
     Error::InvalidArgument, "alpha_multiplier = -1861133219, expected [0, 2147483647]"},
    {"zero point 200", [](LeakyReluArgs& a) { a.out_zero_point = 200; }, Error::InvalidArgument,
     "output_zero_point = 200, expected [-128, 127]"},
    {"mismatched sizes", [](LeakyReluArgs& a) { a.self_sizes = {1, 16, 32, 33}; },
     Error::InvalidArgument, "self [1, 16, 32, 33] and out [1, 16, 32, 32] differ in shape"},
    {"dim orders", [](LeakyReluArgs& a) { a.self_order = {0, 1, 2, 3}; }, Error::InvalidArgument,
     "self and out have different dim orders"},
};

TEST(LeakyReluPrepare, RejectsBadArguments) { expect_rejections<LeakyReluArgs>(kEntry, build, kRejections); }

}  // namespace
}  // namespace etns::cortex_m_ns
