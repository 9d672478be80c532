#include "kernels/cortex_m_ns/relu/relu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <vector>

#include "kernels/cortex_m_ns/test_helpers.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

namespace etns::cortex_m_ns {

std::ostream& operator<<(std::ostream& os, const ReluParams& p) {
  return os << "ReluParams{zp " << p.in_zero_point << " -> " << p.out_zero_point << ", ("
            << p.out.multiplier << ", " << p.out.shift << "), act [" << p.act_min << ", "
            << p.act_max << "]" << (p.identity ? ", identity" : "") << "}";
}

namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;
using testing::Rng;
using namespace test;

const runtime::KernelEntry kEntry = runtime::kernel_entry(kReluContract, &relu_prepare, &relu_run);
constexpr runtime::Arg kSelf = kReluContract.arg("self");
constexpr runtime::Arg kOut = kReluContract.out();

// tier1_ns c0i6's float qparams, recovered from the program (operators.md §7).
const Qparams kInQ{0.04111938925, 4};  // sub output
const Qparams kOutQ{0.01990390010178089, -128};

const char kTier1Lut[] = R"(
8080808080808080808080808080808080808080808080808080808080808080
8080808080808080808080808080808080808080808080808080808080808080
8080808080808080808080808080808080808080808080808080808080808080
8080808080808080808080808080808080808080808080808080808080808080
8080808080828486888a8c8e91939597999b9d9fa1a3a5a7a9abadb0b2b4b6b8
babcbec0c2c4c6c8cacccfd1d3d5d7d9dbdddfe1e3e5e7e9ebedf0f2f4f6f8fa
fcfe00020406080a0c0f11131517191b1d1f21232527292b2e30323436383a3c
3e40424446484a4d4f51535557595b5d5f61636567696c6e70727476787a7c7e
)";

// The generic path is one requantisation with two roundings of a factor good
// to 2^-31: never more than one LSB from the float result. The identity path
// only clamps codes, so it is exact (operators.md §7: relu exact with tier1_ns's parameters).
constexpr int kGenericBoundLsb = 1;
constexpr int kIdentityBoundLsb = 0;

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The float bounds of each lowered activation (operators.md §3.4); NaN = absent.
struct Activation {
  const char* name;
  double lo;
  double hi;
};

double activate(double x, const Activation& act) {
  if (!std::isnan(act.lo)) x = std::max(x, act.lo);
  if (!std::isnan(act.hi)) x = std::min(x, act.hi);
  return x;
}

// The exporter's quantize of a bound: the sum formed in double, stored as
// float32, rounded half to even, clamped to int8; qmin / qmax when absent.
int32_t quantize_bound(double v, Qparams out_q, int32_t absent) {
  if (std::isnan(v)) return absent;
  const float sum = static_cast<float>(v / out_q.scale + out_q.zero_point);
  return static_cast<int32_t>(std::clamp(std::nearbyint(static_cast<double>(sum)), -128.0, 127.0));
}

// The 8 arguments; the defaults are tier1_ns c0i6.
struct ReluArgs {
  std::vector<int32_t> self_sizes{1, 16, 32, 32};
  std::vector<int32_t> out_sizes{1, 16, 32, 32};
  std::vector<uint8_t> self_order{0, 2, 3, 1};
  std::vector<uint8_t> out_order{0, 2, 3, 1};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  int64_t in_zero_point = 4;
  int64_t out_zero_point = -128;
  int64_t out_multiplier = 1109119514;
  int64_t out_shift = 2;
  int64_t act_min = -128;
  int64_t act_max = 127;
  const char* as_double = nullptr;  // the argument of this name is passed as a Double
};

ReluArgs args_for(const ReluParams& p) {
  ReluArgs a;
  a.in_zero_point = p.in_zero_point;
  a.out_zero_point = p.out_zero_point;
  a.out_multiplier = p.out.multiplier;
  a.out_shift = p.out.shift;
  a.act_min = p.act_min;
  a.act_max = p.act_max;
  return a;
}

void build(KernelCall& call, const ReluArgs& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  int_arg(call, a.in_zero_point, a.as_double, "input_zero_point");
  int_arg(call, a.out_zero_point, a.as_double, "output_zero_point");
  int_arg(call, a.out_multiplier, a.as_double, "output_multiplier");
  int_arg(call, a.out_shift, a.as_double, "output_shift");
  int_arg(call, a.act_min, a.as_double, "activation_min");
  int_arg(call, a.act_max, a.as_double, "activation_max");
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
}

// All 256 codes through the operator (entry i is the output for q = i - 128).
std::vector<int8_t> run_lut(const ReluArgs& a) { return run_all_codes<ReluArgs>(kEntry, build, a); }

LsbError lut_error_vs_float(const std::vector<int8_t>& lut, Qparams in_q, Qparams out_q,
                            const Activation& act) {
  LsbError error;
  for (int q = -128; q <= 127; ++q) {
    error.add(lut[q + 128], to_grid(activate(dequantize(q, in_q), act), out_q), q);
  }
  return error;
}

struct ReluCase {
  Activation act;
  Qparams in_q;
  Qparams out_q;
  ReluParams params;
};

// The exporter's lowering (operators.md §3.4): the (2^30, 1) sentinel for
// unchanged qparams, else QM(s_in / s_out); bounds quantised on the output grid.
bool make_relu_params(ReluCase& c) {
  ReluParams& p = c.params;
  p.in_zero_point = c.in_q.zero_point;
  p.out_zero_point = c.out_q.zero_point;
  const bool same = c.in_q.scale == c.out_q.scale && c.in_q.zero_point == c.out_q.zero_point;
  p.out = same ? kIdentityRequant : quantize_multiplier(c.in_q.scale / c.out_q.scale);
  p.act_min = quantize_bound(c.act.lo, c.out_q, -128);
  p.act_max = quantize_bound(c.act.hi, c.out_q, 127);
  p.identity = same;  // the path prepare takes for these arguments
  return shift_in_range(p.out) && p.act_min <= p.act_max;
}

// relu, relu6, a random hardtanh or a random clamp with one or both bounds.
Activation random_activation(Rng& rng) {
  const double lo = -log_uniform(rng, 0.05, 5.0);
  const double hi = log_uniform(rng, 0.05, 8.0);
  switch (rng.uniform(0, 5)) {
    case 0: return {"relu", 0.0, kNone};
    case 1: return {"relu6", 0.0, 6.0};
    case 2: return {"hardtanh", lo, hi};
    case 3: return {"clamp(min)", lo, kNone};
    case 4: return {"clamp(max)", kNone, hi};
    default: return {"clamp(min, max)", 0.25 * lo, 0.5 * hi};
  }
}

// A random activation on a random observed input; the output observer sees
// the activation of every input code, or (one case in three) the output
// shares the input's qparams and the identity path runs.
ReluCase random_relu_case(Rng& rng) {
  for (;;) {
    ReluCase c;
    c.act = random_activation(rng);
    c.in_q = random_input_qparams(rng);
    if (rng.uniform(0, 2) == 0) {
      c.out_q = c.in_q;
    } else {
      c.out_q = observe(activate(dequantize(-128, c.in_q), c.act),
                        activate(dequantize(127, c.in_q), c.act));
    }
    if (make_relu_params(c)) return c;
  }
}


TEST(ReluS8, LutTier1) { EXPECT_EQ(run_lut(ReluArgs{}), from_hex(kTier1Lut)); }

TEST(ReluS8, SamplesTier1) {
  const std::vector<int8_t> lut = run_lut(ReluArgs{});
  ASSERT_EQ(lut.size(), 256u);
  for (int q = -128; q <= 4; ++q) EXPECT_EQ(lut[q + 128], -128) << "input " << q;
  EXPECT_EQ(lut[50 + 128], -33);
  EXPECT_EQ(lut[64 + 128], -4);
  EXPECT_EQ(lut[127 + 128], 126);
}

TEST(ReluS8, RecipeReproducesTier1) {
  ReluCase c{{"relu", 0.0, kNone}, kInQ, kOutQ, {}};
  ASSERT_TRUE(make_relu_params(c));
  // The input scale is printed to 10 digits only; the multiplier lands within a few units.
  EXPECT_NEAR(c.params.out.multiplier, 1109119514, 64);
  EXPECT_EQ(c.params.out.shift, 2);
  EXPECT_EQ(c.params.act_min, -128);
  EXPECT_EQ(c.params.act_max, 127);
}

TEST(ReluS8, ExactVsFloatWithTier1Params) {
  const std::vector<int8_t> lut = run_lut(ReluArgs{});
  ASSERT_EQ(lut.size(), 256u);
  const LsbError error = lut_error_vs_float(lut, kInQ, kOutQ, {"relu", 0.0, kNone});
  EXPECT_EQ(error.max, 0) << error;
}

TEST(ReluS8, WithinBoundVsFloatWithRandomRecipeParams) {
  SCOPED_TRACE(::testing::Message() << "seed " << kSeed);
  Rng rng(kSeed);
  int identity_cases = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const ReluCase c = random_relu_case(rng);
    KernelCall call;
    ReluArgs a = args_for(c.params);
    a.self_sizes = a.out_sizes = {256};
    a.self_order = a.out_order = {};
    build(call, a);
    ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
    call.fill<int8_t>(kSelf, all_codes());
    ASSERT_EQ(call.run(), Error::Ok);
    const LsbError error = lut_error_vs_float(call.read<int8_t>(kOut), c.in_q, c.out_q, c.act);
    const int bound = c.params.identity ? kIdentityBoundLsb : kGenericBoundLsb;
    ASSERT_LE(error.max, bound) << "trial " << trial << ", " << c.act.name << " [" << c.act.lo
                                << ", " << c.act.hi << "] " << c.params << " " << error;
    identity_cases += c.params.identity ? 1 : 0;
  }
  EXPECT_GT(identity_cases, 100);
}

// The clamp path and the generic path agree for identity parameters, so the
// choice is only about speed.
TEST(ReluS8, PathsAgreeForIdentityParams) {
  Rng rng(kSeed);
  const std::vector<int8_t> codes = all_codes();
  for (int trial = 0; trial < 64; ++trial) {
    ReluParams p;
    p.in_zero_point = p.out_zero_point = static_cast<int32_t>(rng.uniform(-128, 127));
    p.out = kIdentityRequant;
    p.act_min = static_cast<int32_t>(rng.uniform(-128, 127));
    p.act_max = static_cast<int32_t>(rng.uniform(p.act_min, 127));
    std::vector<int8_t> clamp_path(256);
    std::vector<int8_t> generic_path(256);
    p.identity = true;
    relu_s8_ref(p, codes.data(), clamp_path.data(), 256);
    p.identity = false;
    relu_s8_ref(p, codes.data(), generic_path.data(), 256);
    ASSERT_EQ(clamp_path, generic_path) << p;
  }
}

// relu6 / hardtanh / clamp with unchanged qparams (s = 0.05, zp -10): the
// bounds 0 -> -10, 6 -> 110, -2 -> -50, 3 -> 50; outputs are clamped codes.
TEST(ReluS8, IdentityPathClampsCodes) {
  const struct {
    int64_t act_min;
    int64_t act_max;
  } cases[] = {{-10, 127}, {-10, 110}, {-50, 50}, {-128, 50}, {-3, -3}};
  for (const auto& bounds : cases) {
    ReluArgs a;
    a.in_zero_point = a.out_zero_point = -10;
    a.out_multiplier = kIdentityRequant.multiplier;
    a.out_shift = kIdentityRequant.shift;
    a.act_min = bounds.act_min;
    a.act_max = bounds.act_max;
    const std::vector<int8_t> lut = run_lut(a);
    ASSERT_EQ(lut.size(), 256u);
    for (int q = -128; q <= 127; ++q) {
      const int64_t want = std::clamp<int64_t>(q, bounds.act_min, bounds.act_max);
      ASSERT_EQ(lut[q + 128], want) << "input " << q << ", act [" << bounds.act_min << ", "
                                    << bounds.act_max << "]";
    }
  }
}

// The same program with zero points that differ takes the generic path:
// x = q - 0 requantised by 1 then shifted to zp -10.
TEST(ReluS8, GenericPathWhenZeroPointsDiffer) {
  ReluArgs a;
  a.in_zero_point = 0;
  a.out_zero_point = -10;
  a.out_multiplier = kIdentityRequant.multiplier;
  a.out_shift = kIdentityRequant.shift;
  a.act_min = -10;
  a.act_max = 110;
  const std::vector<int8_t> lut = run_lut(a);
  ASSERT_EQ(lut.size(), 256u);
  for (int q = -128; q <= 127; ++q) {
    ASSERT_EQ(lut[q + 128], std::clamp(q - 10, -10, 110)) << "input " << q;
  }
}

TEST(ReluPrepare, AcceptsTier1) { expect_accepts<ReluArgs>(kEntry, build); }

TEST(ReluPrepare, TakesSize1DimsInAnyDimOrder) {
  expect_size1_dims_in_any_order<ReluArgs>(kEntry, build);
}

// TFLite flushes a factor below 2^-32 to (0, 0), and real models hold shifts
// down to -31: prepare takes them and the kernel (generic path) gives the
// reference's bytes, here the output zero point for every code.
TEST(ReluPrepare, TakesMultiplierZeroAndShiftMinus31) {
  for (const kernels::Requant q : {kernels::Requant{0, 0}, kernels::Requant{0, -31},
                                   kernels::Requant{INT32_MAX, -31}}) {
    ReluParams p;
    p.in_zero_point = 4;
    p.out_zero_point = 5;
    p.out = q;
    std::vector<int8_t> want(256);
    relu_s8_ref(p, all_codes().data(), want.data(), want.size());
    EXPECT_EQ(want, std::vector<int8_t>(256, 5));
    EXPECT_EQ(run_lut(args_for(p)), want) << p;
  }
}

using Rejection = test::Rejection<ReluArgs>;

const Rejection kRejections[] = {
    {"float self", [](ReluArgs& a) { a.self_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "self dtype float32, expected int8"},
    {"float out", [](ReluArgs& a) { a.out_dtype = ScalarType::Float; }, Error::InvalidArgument,
     "out dtype float32, expected int8"},
    {"Double bound", [](ReluArgs& a) { a.as_double = "activation_min"; }, Error::InvalidProgram,
     "(activation_min) is Double, expected Int"},
    {"shift 31", [](ReluArgs& a) { a.out_shift = 31; }, Error::InvalidArgument,
     "output_shift = 31, expected [-31, 30]"},
    {"shift 40", [](ReluArgs& a) { a.out_shift = 40; }, Error::InvalidArgument,
     "output_shift = 40, expected [-31, 30]"},
    {"negative multiplier", [](ReluArgs& a) { a.out_multiplier = -1073741824; },
     Error::InvalidArgument, "output_multiplier = -1073741824, expected [0, 2147483647]"},
    {"zero point 200", [](ReluArgs& a) { a.in_zero_point = 200; }, Error::InvalidArgument,
     "input_zero_point = 200, expected [-128, 127]"},
    {"act_max 128", [](ReluArgs& a) { a.act_max = 128; }, Error::InvalidArgument,
     "activation_max = 128, expected [-128, 127]"},
    {"act_min -200", [](ReluArgs& a) { a.act_min = -200; }, Error::InvalidArgument,
     "activation_min = -200, expected [-128, 127]"},
    {"act_min > act_max",
     [](ReluArgs& a) {
       a.act_min = 5;
       a.act_max = 4;
     },
     Error::InvalidArgument, "activation_min = 5 > activation_max = 4, expected min <= max"},
    {"mismatched sizes", [](ReluArgs& a) { a.out_sizes = {1, 16, 32}; }, Error::InvalidArgument,
     "self [1, 16, 32, 32] and out [1, 16, 32] differ in shape"},
    {"dim orders", [](ReluArgs& a) { a.out_order = {0, 1, 2, 3}; }, Error::InvalidArgument,
     "self and out have different dim orders"},
};

TEST(ReluPrepare, RejectsBadArguments) { expect_rejections<ReluArgs>(kEntry, build, kRejections); }

}  // namespace
}  // namespace etns::cortex_m_ns
