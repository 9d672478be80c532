#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "kernels/common/requantize.h"
#include "tests/support/kernel_call.h"
#include "tests/support/rng.h"

// Test-only helpers shared by the cortex_m_ns kernel tests: the exporter's
// (M, S) rule, float quantisation grids, observers for random parameters.
namespace etns::cortex_m_ns::test {

// Fixed seed of every random property test; SCOPED_TRACE prints it on failure.
constexpr uint64_t kSeed = 0x6e73u * 1000003u + 20;

// The exporter's QM (operators.md §1.4): frexp, then round half to even on the
// double m * 2^31, carrying into the exponent when the mantissa rounds up to 1.
inline kernels::Requant quantize_multiplier(double x) {
  if (x == 0.0) return {0, 0};
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  int64_t multiplier = static_cast<int64_t>(std::nearbyint(mantissa * 2147483648.0));
  if (multiplier == (int64_t{1} << 31)) {
    multiplier = int64_t{1} << 30;
    exponent += 1;
  }
  return {static_cast<int32_t>(multiplier), exponent};
}

inline double real_factor(kernels::Requant q) {
  return static_cast<double>(q.multiplier) * std::ldexp(1.0, q.shift - 31);
}

// Exporter factors stay in the shift range our prepare accepts.
inline bool shift_in_range(kernels::Requant q, int32_t hi = 30) {
  return q.shift >= -31 && q.shift <= hi;
}

// Per-tensor affine int8 quantisation.
struct Qparams {
  double scale = 1.0;
  int32_t zero_point = 0;
};

inline double dequantize(int32_t q, Qparams p) { return p.scale * (q - p.zero_point); }

// The float result y on p's grid: round(y / s) + zp, clamped to [lo, hi].
inline int32_t to_grid(double y, Qparams p, int32_t lo = -128, int32_t hi = 127) {
  const double q = std::nearbyint(y / p.scale) + p.zero_point;
  return static_cast<int32_t>(std::clamp(q, static_cast<double>(lo), static_cast<double>(hi)));
}

// torch's int8 MinMax observer for values seen in [lo, hi]: the range is
// widened to hold 0, the scale is a float32.
inline Qparams observe(double lo, double hi) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  Qparams p;
  p.scale = static_cast<double>(static_cast<float>(std::max((hi - lo) / 255.0, 1e-8)));
  const double zp = -128.0 - std::nearbyint(lo / p.scale);
  p.zero_point = static_cast<int32_t>(std::clamp(zp, -128.0, 127.0));
  return p;
}

inline double log_uniform(testing::Rng& rng, double lo, double hi) {
  return lo * std::pow(hi / lo, rng.unit());
}

// A random observed input: a range around 0 of random width and skew.
inline Qparams random_input_qparams(testing::Rng& rng) {
  const double width = log_uniform(rng, 0.05, 50.0);
  const double below = width * rng.unit();
  return observe(-below, width - below);
}

// Every int8 code in order, -128 ... 127.
inline std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(i - 128);
  return codes;
}

// Bytes from hex text; whitespace is ignored.
inline std::vector<int8_t> from_hex(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (std::isxdigit(static_cast<unsigned char>(c))) digits += c;
  }
  std::vector<int8_t> bytes;
  for (size_t i = 0; i + 1 < digits.size(); i += 2) {
    bytes.push_back(static_cast<int8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

// An Int argument, or the same value as a Double to provoke a wrong-kind error.
inline void int_arg(testing::KernelCall& call, int64_t value, bool as_double) {
  if (as_double) {
    call.double_value(static_cast<double>(value));
  } else {
    call.int_value(value);
  }
}

// The Int argument `name`, passed as a Double when `as_double` names it (a
// test spoils one argument by its contract name, never by its position).
inline void int_arg(testing::KernelCall& call, int64_t value, const char* as_double,
                    const char* name) {
  int_arg(call, value, as_double != nullptr && std::string(as_double) == name);
}

// prepare fails with `code` and logs a line containing `text`.
inline ::testing::AssertionResult rejects(testing::KernelCall& call,
                                          const runtime::KernelEntry& entry, runtime::Error code,
                                          const std::string& text) {
  const runtime::Error got = call.prepare(entry);
  if (got != code) {
    return ::testing::AssertionFailure()
           << "prepare returned " << runtime::to_string(got) << ", expected "
           << runtime::to_string(code) << "; log: " << call.log();
  }
  if (call.log().find(text) == std::string::npos) {
    return ::testing::AssertionFailure() << "log lacks \"" << text << "\": " << call.log();
  }
  return ::testing::AssertionSuccess();
}

// One bad-argument case: `edit` spoils the real program's arguments; prepare
// must fail with `code` and log a line containing `message`.
template <typename Args>
struct Rejection {
  const char* what;
  void (*edit)(Args&);
  runtime::Error code;
  const char* message;
};

template <typename Args>
using BuildFn = void (*)(testing::KernelCall&, const Args&);

// Builds every case with `build` and checks that prepare rejects it.
template <typename Args, size_t N>
void expect_rejections(const runtime::KernelEntry& entry, BuildFn<Args> build,
                       const Rejection<Args> (&cases)[N]) {
  for (const Rejection<Args>& r : cases) {
    SCOPED_TRACE(r.what);
    Args a;
    r.edit(a);
    testing::KernelCall call;
    build(call, a);
    EXPECT_TRUE(rejects(call, entry, r.code, r.message));
  }
}

// prepare accepts the default Args (the real program's) and logs nothing.
template <typename Args>
void expect_accepts(const runtime::KernelEntry& entry, BuildFn<Args> build) {
  testing::KernelCall call;
  build(call, Args{});
  EXPECT_EQ(call.prepare(entry), runtime::Error::Ok) << call.log();
  EXPECT_EQ(call.log(), "");
}

// All 256 codes through a unary operator, into its contract's "self" and out of
// its out (entry i is the output for q = i - 128). Empty when prepare fails.
template <typename Args>
std::vector<int8_t> run_all_codes(const runtime::KernelEntry& entry, BuildFn<Args> build, Args a) {
  a.self_sizes = a.out_sizes = {1, 16, 4, 4};
  testing::KernelCall call;
  build(call, a);
  if (call.prepare(entry) != runtime::Error::Ok) {
    ADD_FAILURE() << call.log();
    return {};
  }
  call.fill<int8_t>(entry.contract->arg("self"), all_codes());
  EXPECT_EQ(call.run(), runtime::Error::Ok);
  return call.read<int8_t>(entry.contract->out());
}

// A unary operator run on `in` (into its contract's "self", out of its out);
// empty when prepare fails.
template <typename Args>
std::vector<int8_t> run_unary(const runtime::KernelEntry& entry, BuildFn<Args> build,
                              const Args& a, const std::vector<int8_t>& in) {
  testing::KernelCall call;
  build(call, a);
  if (call.prepare(entry) != runtime::Error::Ok) {
    ADD_FAILURE() << call.log();
    return {};
  }
  call.fill<int8_t>(entry.contract->arg("self"), in);
  EXPECT_EQ(call.run(), runtime::Error::Ok);
  return call.read<int8_t>(entry.contract->out());
}

// ns-cmsis-nn checks only a unary operator's sizes and walks the flat
// buffers, so self and out whose dim orders differ only where a dim has size
// 1 ([2, 16, 1, 1] contiguous or channels_last: the same bytes) are accepted
// and give the contiguous call's bytes.
template <typename Args>
void expect_size1_dims_in_any_order(const runtime::KernelEntry& entry, BuildFn<Args> build) {
  std::vector<int8_t> in(32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int8_t>(static_cast<int>(i) * 8 - 128);
  Args plain;
  plain.self_sizes = plain.out_sizes = {2, 16, 1, 1};
  plain.self_order = plain.out_order = {0, 1, 2, 3};
  const std::vector<int8_t> want = run_unary(entry, build, plain, in);
  ASSERT_EQ(want.size(), in.size());
  const std::vector<uint8_t> orders[][2] = {{{0, 1, 2, 3}, {0, 2, 3, 1}},
                                            {{0, 2, 3, 1}, {0, 1, 2, 3}},
                                            {{0, 3, 2, 1}, {0, 2, 1, 3}}};
  for (const auto& pair : orders) {
    Args a = plain;
    a.self_order = pair[0];
    a.out_order = pair[1];
    EXPECT_EQ(run_unary(entry, build, a, in), want)
        << "self order " << int{pair[0][1]} << int{pair[0][2]} << int{pair[0][3]};
  }
}

// Largest distance between kernel output codes and the float result on the grid,
// with the input codes that gave it.
struct LsbError {
  int max = 0;
  int got = 0;
  int want = 0;
  int a = 0;
  int b = 0;
  void add(int got_code, int want_code, int a_code, int b_code = 0) {
    const int d = std::abs(got_code - want_code);
    if (d <= max) return;
    max = d;
    got = got_code;
    want = want_code;
    a = a_code;
    b = b_code;
  }
};

inline std::ostream& operator<<(std::ostream& os, const LsbError& e) {
  return os << "max " << e.max << " LSB at input (" << e.a << ", " << e.b << "): kernel " << e.got
            << ", float " << e.want;
}


}  // namespace etns::cortex_m_ns::test
