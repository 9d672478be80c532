#include "kernels/cortex_m_ns/hardswish/hardswish.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

#include "kernels/cortex_m_ns/test_helpers.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m_ns {

std::ostream& operator<<(std::ostream& os, const HardswishParams& p) {
  return os << "HardswishParams{zp " << p.in_zero_point << " -> " << p.out_zero_point << ", ("
            << p.out.multiplier << ", " << p.out.shift << "), relu_q3 " << p.relu_q3
            << ", relu_q6 " << p.relu_q6 << ", prescale " << p.prescale << "}";
}

namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::Rng;
using namespace test;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kHardswishContract, &hardswish_prepare, &hardswish_run);

// tier1_ns c0i2 (operators.md §3.1, §7). The input scale is not stored; it
// follows from the stored factor s_in^2 / (6 s_out) and gives 3 / s_in = 67.04.
const Qparams kOutQ{0.024257738143205643, -113};
const Qparams kInQ{std::sqrt(6.0 * kOutQ.scale * real_factor({1890869522, -6})), 3};

const char kTier1Lut[] = R"(
8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f
8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f8f
8f8e8d8c8c8b8a89888887878685858484838382828281818181808080808080
80808080808080808080818181818282828383848485858687878888898a8b8c
8c8d8e8f9091929394959697989a9b9c9d9fa0a1a3a4a5a7a8aaabadafb0b2b4
b5b7b9bbbcbec0c2c4c6c8caccced0d2d4d7d9dbdddfe2e4e7e9ebeef0f3f5f8
fafd000205080b0c0e1012141617191b1d1f21222426282a2c2e2f3133353739
3a3c3e4042444647494b4d4f51525456585a5c5d5f61636567696a6c6e707274
)";

// With the real parameters the rounding of relu_q3 = 67 (3 / s_in = 67.04)
// stays under one LSB (operators.md §7).
constexpr int kTier1BoundLsb = 1;
// relu_q3 and relu_q6 are 3 / s_in and 6 / s_in rounded, so the kernel's
// "+3" and "6" are off by up to s_in / 2 and the output by up to
// |x| s_in / (12 s_out) LSBs on top of one LSB of rounding. It grows with
// s_in / s_out: hardswish squashes negative inputs, so an input range that is
// mostly negative gets a fine output scale. Measured over the random cases below:
constexpr int kRandomMaxLsb = 9;

double hardswish(double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }

// The 9 arguments; the defaults are tier1_ns c0i2.
struct HardswishArgs {
  std::vector<int32_t> self_sizes{1, 16, 32, 32};
  std::vector<int32_t> out_sizes{1, 16, 32, 32};
  std::vector<uint8_t> self_order{0, 2, 3, 1};
  std::vector<uint8_t> out_order{0, 2, 3, 1};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  int64_t in_zero_point = 3;
  int64_t out_zero_point = -113;
  int64_t out_multiplier = 1890869522;
  int64_t out_shift = -6;
  int64_t relu_q3 = 67;
  int64_t relu_q6 = 134;
  int64_t prescale = 0;
  const char* as_double = nullptr;  // the argument of this name is passed as a Double
};

HardswishArgs args_for(const HardswishParams& p) {
  HardswishArgs a;
  a.in_zero_point = p.in_zero_point;
  a.out_zero_point = p.out_zero_point;
  a.out_multiplier = p.out.multiplier;
  a.out_shift = p.out.shift;
  a.relu_q3 = p.relu_q3;
  a.relu_q6 = p.relu_q6;
  a.prescale = p.prescale;
  return a;
}

void build(KernelCall& call, const HardswishArgs& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  int_arg(call, a.in_zero_point, a.as_double, "input_zero_point");
  int_arg(call, a.out_zero_point, a.as_double, "output_zero_point");
  int_arg(call, a.out_multiplier, a.as_double, "output_multiplier");
  int_arg(call, a.out_shift, a.as_double, "output_shift");
  int_arg(call, a.relu_q3, a.as_double, "relu_q3");
  int_arg(call, a.relu_q6, a.as_double, "relu_q6");
  int_arg(call, a.prescale, a.as_double, "prescale");
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// All 256 codes through the operator (entry i is the output for q = i - 128).
std::vector<int8_t> run_lut(const HardswishArgs& a) {
  return run_all_codes<HardswishArgs>(kEntry, build, a);
}

LsbError lut_error_vs_float(const std::vector<int8_t>& lut, Qparams in_q, Qparams out_q) {
  LsbError error;
  for (int q = -128; q <= 127; ++q) {
    error.add(lut[q + 128], to_grid(hardswish(dequantize(q, in_q)), out_q), q);
  }
  return error;
}

struct HardswishCase {
  Qparams in_q;
  Qparams out_q;
  HardswishParams params;
};

// The exporter's recipe (operators.md §3.1) on a random observed input; the
// output observer sees hardswish of every input code.
HardswishCase random_hardswish_case(Rng& rng) {
  for (;;) {
    HardswishCase c;
    c.in_q = random_input_qparams(rng);
    double lo = 0.0;
    double hi = 0.0;
    for (int q = -128; q <= 127; ++q) {
      lo = std::min(lo, hardswish(dequantize(q, c.in_q)));
      hi = std::max(hi, hardswish(dequantize(q, c.in_q)));
    }
    c.out_q = observe(lo, hi);
    HardswishParams& p = c.params;
    p.in_zero_point = c.in_q.zero_point;
    p.out_zero_point = c.out_q.zero_point;
    p.relu_q3 = static_cast<int32_t>(std::nearbyint(3.0 / c.in_q.scale));
    p.relu_q6 = static_cast<int32_t>(std::nearbyint(6.0 / c.in_q.scale));
    p.out = quantize_multiplier(c.in_q.scale * c.in_q.scale / (6.0 * c.out_q.scale));
    if (p.relu_q6 >= 1 && p.relu_q6 <= (1 << 22) && shift_in_range(p.out)) return c;
  }
}

// One LSB of rounding plus the worst |x| s_in / (12 s_out) where the rounded
// constants matter (x + 3 > -s_in / 2).
int formula_bound(const HardswishCase& c) {
  double worst = 0.0;
  for (int q = -128; q <= 127; ++q) {
    const double x = dequantize(q, c.in_q);
    if (x + 3.0 > -c.in_q.scale) worst = std::max(worst, std::abs(x));
  }
  return 1 + static_cast<int>(std::floor(worst * c.in_q.scale / (12.0 * c.out_q.scale) + 1e-9));
}


TEST(HardswishS8, LutTier1) { EXPECT_EQ(run_lut(HardswishArgs{}), from_hex(kTier1Lut)); }

TEST(HardswishS8, SamplesTier1) {
  const std::vector<int8_t> lut = run_lut(HardswishArgs{});
  ASSERT_EQ(lut.size(), 256u);
  const int samples[][2] = {{-128, -113}, {-64, -113}, {-1, -116}, {0, -116}, {1, -115},
                            {3, -113},    {4, -112},   {50, -39},  {64, -6},  {127, 116}};
  for (const auto& s : samples) EXPECT_EQ(lut[s[0] + 128], s[1]) << "input " << s[0];
}

TEST(HardswishS8, RecipeReproducesTier1) {
  EXPECT_EQ(std::nearbyint(3.0 / kInQ.scale), 67);
  EXPECT_EQ(std::nearbyint(6.0 / kInQ.scale), 134);
  const kernels::Requant q = quantize_multiplier(kInQ.scale * kInQ.scale / (6.0 * kOutQ.scale));
  EXPECT_EQ(q.multiplier, 1890869522);
  EXPECT_EQ(q.shift, -6);
}

TEST(HardswishS8, WithinOneLsbVsFloatWithTier1Params) {
  const std::vector<int8_t> lut = run_lut(HardswishArgs{});
  ASSERT_EQ(lut.size(), 256u);
  const LsbError error = lut_error_vs_float(lut, kInQ, kOutQ);
  EXPECT_LE(error.max, kTier1BoundLsb) << error;
}

TEST(HardswishS8, WithinFormulaBoundVsFloatWithRandomRecipeParams) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  int worst = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const HardswishCase c = random_hardswish_case(rng);
    const std::vector<int8_t> lut = run_lut(args_for(c.params));
    ASSERT_EQ(lut.size(), 256u);
    const LsbError error = lut_error_vs_float(lut, c.in_q, c.out_q);
    ASSERT_LE(error.max, formula_bound(c)) << "trial " << trial << " " << c.params << " " << error;
    worst = std::max(worst, error.max);
  }
  EXPECT_LE(worst, kRandomMaxLsb);
  RecordProperty("max_lsb", worst);
}

// Hand-worked: prescale 2 rounds t / 4 half up; factor 1 = (2^30, 1).
TEST(HardswishS8, Prescale) {
  HardswishParams p;
  p.out = {int32_t{1} << 30, 1};
  p.relu_q3 = 4;
  p.relu_q6 = 8;
  p.prescale = 2;
  const std::vector<int8_t> in{-5, -4, -3, -2, 1, 2, 4, 100};
  std::vector<int8_t> out(in.size());
  hardswish_s8_ref(p, in.data(), out.data(), in.size());
  // t = clamp(x + 4, 0, 8) = 0 0 1 2 5 6 8 8 -> (t + 2) >> 2 = 0 0 0 1 1 2 2 2.
  EXPECT_EQ(out, (std::vector<int8_t>{0, 0, 0, -2, 1, 4, 8, 127}));
}

// Hand-worked extremes: shift 30 with a small multiplier, shift -31, zero points at the ends.
TEST(HardswishS8, ExtremeShiftsAndZeroPoints) {
  HardswishParams p;
  p.in_zero_point = -128;
  p.out_zero_point = 127;
  p.relu_q3 = 0;
  p.relu_q6 = 1;
  p.out = {INT32_MAX, -31};
  const std::vector<int8_t> in{-128, 127};
  std::vector<int8_t> out(2);
  hardswish_s8_ref(p, in.data(), out.data(), 2);
  EXPECT_EQ(out, (std::vector<int8_t>{127, 127}));  // x t = 0 and 255: both round to 0
  // Factor 2^29: 255 * 2^30 wraps to -2^30 in int32 before the multiply, as in
  // CMSIS, so the largest product comes out negative.
  p.out_zero_point = 0;
  p.out = {int32_t{1} << 30, 30};
  hardswish_s8_ref(p, in.data(), out.data(), 2);
  EXPECT_EQ(out, (std::vector<int8_t>{0, -128}));
}

TEST(HardswishPrepare, AcceptsTier1) { expect_accepts<HardswishArgs>(kEntry, build); }

TEST(HardswishPrepare, TakesSize1DimsInAnyDimOrder) {
  expect_size1_dims_in_any_order<HardswishArgs>(kEntry, build);
}

// TFLite flushes a factor below 2^-32 to (0, 0), and real models hold shifts
// down to -31: prepare takes them and the kernel gives the reference's bytes,
// here the output zero point for every code (|x t| <= 255 * 134 < 2^30).
TEST(HardswishPrepare, TakesMultiplierZeroAndShiftMinus31) {
  for (const kernels::Requant q : {kernels::Requant{0, 0}, kernels::Requant{0, -31},
                                   kernels::Requant{INT32_MAX, -31}}) {
    HardswishParams p;
    p.in_zero_point = 3;
    p.out_zero_point = -113;
    p.out = q;
    p.relu_q3 = 67;
    p.relu_q6 = 134;
    std::vector<int8_t> want(256);
    hardswish_s8_ref(p, all_codes().data(), want.data(), want.size());
    EXPECT_EQ(want, std::vector<int8_t>(256, -113));
    EXPECT_EQ(run_lut(args_for(p)), want) << p;
  }
}

using Rejection = test::Rejection<HardswishArgs>;

const Rejection kRejections[] = {
    {"float self", [](HardswishArgs& a) { a.self_dtype = ScalarType::Float; },
     Error::InvalidArgument, "self dtype float32, expected int8"},
    {"uint8 out", [](HardswishArgs& a) { a.out_dtype = ScalarType::Byte; }, Error::InvalidArgument,
     "out dtype uint8, expected int8"},
    {"Double shift", [](HardswishArgs& a) { a.as_double = "output_shift"; }, Error::InvalidProgram,
     "(output_shift) is Double, expected Int"},
    {"Double relu_q3", [](HardswishArgs& a) { a.as_double = "relu_q3"; }, Error::InvalidProgram,
     "(relu_q3) is Double, expected Int"},
    {"shift 31", [](HardswishArgs& a) { a.out_shift = 31; }, Error::InvalidArgument,
     "output_shift = 31, expected [-31, 30]"},
    {"shift 40", [](HardswishArgs& a) { a.out_shift = 40; }, Error::InvalidArgument,
     "output_shift = 40, expected [-31, 30]"},
    {"negative multiplier", [](HardswishArgs& a) { a.out_multiplier = -5; },
     Error::InvalidArgument, "output_multiplier = -5, expected [0, 2147483647]"},
    {"zero point 200", [](HardswishArgs& a) { a.in_zero_point = 200; }, Error::InvalidArgument,
     "input_zero_point = 200, expected [-128, 127]"},
    {"relu_q6 0", [](HardswishArgs& a) { a.relu_q6 = 0; }, Error::InvalidArgument,
     "relu_q6 = 0, expected [1, 4194304]"},
    {"relu_q6 2^22 + 1", [](HardswishArgs& a) { a.relu_q6 = (1 << 22) + 1; },
     Error::InvalidArgument, "relu_q6 = 4194305, expected [1, 4194304]"},
    {"relu_q3 > relu_q6", [](HardswishArgs& a) { a.relu_q3 = 135; }, Error::InvalidArgument,
     "relu_q3 = 135, expected [0, 134]"},
    {"negative relu_q3", [](HardswishArgs& a) { a.relu_q3 = -1; }, Error::InvalidArgument,
     "relu_q3 = -1, expected [0, 134]"},
    {"prescale 32", [](HardswishArgs& a) { a.prescale = 32; }, Error::InvalidArgument,
     "prescale = 32, expected [0, 31]"},
    {"mismatched sizes", [](HardswishArgs& a) { a.out_sizes = {1, 16, 32, 16}; },
     Error::InvalidArgument, "self [1, 16, 32, 32] and out [1, 16, 32, 16] differ in shape"},
    {"memory orders", [](HardswishArgs& a) { a.out_order = {0, 1, 2, 3}; },
     Error::InvalidArgument, "self and out have different dim orders"},
};

TEST(HardswishPrepare, RejectsBadArguments) { expect_rejections<HardswishArgs>(kEntry, build, kRejections); }

}  // namespace
}  // namespace etns::cortex_m_ns
