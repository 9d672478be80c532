// Every compiled variant of softmax against the reference, on the host and on
// the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/testing/kernel_args.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/variant_check.h"
#include "runtime/core/arena.h"

namespace etns::cortex_m {
namespace {

using kernels::testing::Rng;
using kernels::testing::set_int;
using kernels::testing::TestMemoryScope;
using runtime::EValue;

constexpr uint64_t kSeed = 0x736f6676;  // "sofv"

// The exporter's parameters for an input scale (beta 1): scale * 2^26 as
// multiplier and left shift, diff_min = -floor(31 * 2^(26 - shift)).
void exporter_quant(double scale, int32_t* multiplier, int32_t* shift, int32_t* diff_min) {
  int exponent = 0;
  const double mantissa = std::frexp(scale * std::ldexp(1.0, 26), &exponent);
  int64_t m = std::llround(std::ldexp(mantissa, 31));
  if (m == (int64_t{1} << 31)) {
    m /= 2;
    ++exponent;
  }
  *multiplier = static_cast<int32_t>(m);
  *shift = exponent;
  *diff_min = -static_cast<int32_t>(std::floor(31.0 * std::ldexp(1.0, 26 - exponent)));
}

// Anything prepare accepts: half exporter-like (scales 2^-8 to 2), half from
// the edges (multipliers 0, 1, 2^30, INT32_MAX; shifts 0 to 31, whose
// diff * 2^shift wraps; diff_min 0, -1, -255, INT32_MIN or random).
void random_params(Rng& rng, SoftmaxParams& p, int32_t rows, int32_t row_size) {
  int32_t multiplier = 0, shift = 0, diff_min = 0;
  if (rng.coin()) {
    exporter_quant(std::ldexp(1.0 + rng.unit(), static_cast<int>(rng.uniform(-8, 0))),
                   &multiplier, &shift, &diff_min);
  } else {
    const int32_t multipliers[] = {0, 1, int32_t{1} << 30, INT32_MAX,
                                   rng.uniform32(1 << 30, INT32_MAX)};
    const int32_t diff_mins[] = {0, -1, -255, INT32_MIN, rng.uniform32(-300, 0)};
    multiplier = rng.pick(multipliers);
    shift = rng.uniform32(0, 31);
    diff_min = rng.pick(diff_mins);
  }
  softmax_init_params(p, rows, row_size, multiplier, shift, diff_min);
}

void check_case(const SoftmaxParams& p, const int8_t* input, const char* what) {
  const size_t bytes = static_cast<size_t>(p.rows) * static_cast<size_t>(p.row_size);
  ETNS_CHECK_VARIANTS(
      kernels::kSoftmaxVariants, bytes,
      [&](SoftmaxFn fn, void* out) { fn(p, input, static_cast<int8_t*>(out)); },
      "%s: %d rows of %d, multiplier %d, shift %d, diff_min %d", what,
      static_cast<int>(p.rows), static_cast<int>(p.row_size), static_cast<int>(p.multiplier),
      static_cast<int>(p.shift), static_cast<int>(p.diff_min));
}

// Row lengths around the 4- and 16-lane tiles, one to three rows.
ETNS_KERNEL_TEST(SoftmaxVariants, RowLengthsAroundTheTiles) {
  Rng rng(kSeed);
  const int32_t lengths[] = {1,  2,  3,  4,  5,  7,   8,   9,   10,  12,
                             15, 16, 17, 31, 32, 33, 100, 255, 256, 257};
  for (int32_t n : lengths) {
    for (int32_t rows : {1, 3}) {
      TestMemoryScope scope;
      SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
      random_params(rng, *p, rows, n);
      int8_t* input = ETNS_TEST_ARRAY(int8_t, static_cast<size_t>(rows * n) + 1);
      rng.fill_s8(input, static_cast<size_t>(rows * n));
      check_case(*p, input, "random");
    }
  }
}

// Saturating rows: the int8 extremes only, or one code repeated (every
// difference 0), or one maximum among -128s.
ETNS_KERNEL_TEST(SoftmaxVariants, SaturatingRows) {
  Rng rng(kSeed + 1);
  for (int i = 0; i < 60; ++i) {
    TestMemoryScope scope;
    const int32_t n = rng.uniform32(1, 40);
    SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
    random_params(rng, *p, 2, n);
    int8_t* input = ETNS_TEST_ARRAY(int8_t, static_cast<size_t>(2 * n) + 1);
    const int8_t ends[] = {-128, 127};
    const int kind = i % 3;
    for (int32_t j = 0; j < 2 * n; ++j) {
      input[j] = kind == 0 ? rng.pick(ends) : kind == 1 ? static_cast<int8_t>(i) : int8_t{-128};
    }
    if (kind == 2) input[rng.uniform32(0, n - 1)] = 127;
    check_case(*p, input, "saturating");
  }
}

// Long uniform rows push the sum of 2^19 per element past 2^28 (the final
// shift reaches 32 and more: all -128), to 2^31 (the sum wraps negative) and
// to 2^32 (it wraps to 0), as upstream's int32 sum does.
ETNS_KERNEL_TEST(SoftmaxVariants, LongRowsWrapTheSum) {
  Rng rng(kSeed + 2);
  for (int32_t n : {511, 512, 600, 1000, 4095, 4096, 4097, 8192}) {
    TestMemoryScope scope;
    SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
    int32_t multiplier = 0, shift = 0, diff_min = 0;
    exporter_quant(0.1, &multiplier, &shift, &diff_min);
    softmax_init_params(*p, 1, n, multiplier, shift, diff_min);
    int8_t* input = ETNS_TEST_ARRAY(int8_t, static_cast<size_t>(n) + 1);
    for (int32_t j = 0; j < n; ++j) input[j] = 42;
    check_case(*p, input, "uniform long row");
    input[rng.uniform32(0, n - 1)] = 43;
    rng.fill_s8(input, static_cast<size_t>(n / 2));
    check_case(*p, input, "long row");
  }
}

// The benches' shapes: a 12-class head and four rows of 256.
ETNS_KERNEL_TEST(SoftmaxVariants, BenchShapes) {
  Rng rng(kSeed + 3);
  const int32_t shapes[][2] = {{1, 12}, {4, 256}};
  for (const auto& shape : shapes) {
    TestMemoryScope scope;
    SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
    random_params(rng, *p, shape[0], shape[1]);
    int8_t* input = ETNS_TEST_ARRAY(int8_t, static_cast<size_t>(shape[0] * shape[1]) + 1);
    rng.fill_s8(input, static_cast<size_t>(shape[0] * shape[1]));
    check_case(*p, input, "bench shape");
  }
}

// The front door: softmax_prepare (which fills the exp table in the method
// arena) and softmax_run with the build's fastest variant, against the
// reference, on a rank-3 input with dim -1.
ETNS_KERNEL_TEST(SoftmaxVariants, FrontDoorRank3) {
  Rng rng(kSeed + 4);
  const int32_t sizes[3] = {2, 3, 19};
  const uint8_t order[3] = {0, 1, 2};
  const size_t bytes = 2 * 3 * 19;
  int8_t* input = ETNS_TEST_ARRAY(int8_t, bytes);
  int8_t* got = ETNS_TEST_ARRAY(int8_t, bytes);
  int8_t* want = ETNS_TEST_ARRAY(int8_t, bytes);
  rng.fill_s8(input, bytes);
  int32_t multiplier = 0, shift = 0, diff_min = 0;
  exporter_quant(0.0625, &multiplier, &shift, &diff_min);
  SoftmaxParams* p = ETNS_TEST_ARRAY(SoftmaxParams, 1);
  softmax_init_params(*p, 6, 19, multiplier, shift, diff_min);
  softmax_s8_ref(*p, input, want);

  constexpr const runtime::OperatorContract& k = kSoftmaxContract;
  EValue values[k.count];
  for (const runtime::Arg a : {k.arg("input"), k.out()}) {
    EValue& v = values[a.index];
    v.kind = runtime::ValueKind::Tensor;
    v.tensor = runtime::Tensor{};
    v.tensor.dtype = runtime::ScalarType::Char;
    v.tensor.rank = 3;
    v.tensor.sizes = sizes;
    v.tensor.dim_order = order;
    v.tensor.numel = bytes;
    v.tensor.nbytes = bytes;
  }
  values[k.arg("input").index].tensor.data = input;
  values[k.out().index].tensor.data = got;
  set_int(values[k.arg("dim").index], -1);
  set_int(values[k.arg("input_zero_point").index], 3);
  set_int(values[k.arg("output_zero_point").index], -128);
  set_int(values[k.arg("input_multiplier").index], multiplier);
  set_int(values[k.arg("input_shift").index], shift);
  set_int(values[k.arg("diff_min").index], diff_min);
  EValue* args[k.count + 1];
  for (size_t i = 0; i < k.count; ++i) args[i] = &values[i];
  args[k.count] = &values[k.out().index];  // the program's return slot

  constexpr size_t kMethodBytes = 2048;
  uint8_t* method_memory = ETNS_TEST_ARRAY(uint8_t, kMethodBytes);
  runtime::Arena method("method", runtime::Span<uint8_t>(method_memory, kMethodBytes));
  runtime::PrepareContext prepare("c0i0", k.name, k,
                                  runtime::Span<EValue* const>(args, k.count + 1), method);
  ETNS_CHECK(prepare.check_arguments() == runtime::Error::Ok, "contract check failed");
  ETNS_CHECK(softmax_prepare(prepare) == runtime::Error::Ok, "prepare failed");
  const runtime::RunContext run{runtime::Span<EValue* const>(args, k.count + 1), prepare.state(),
                                {}};
  ETNS_CHECK(softmax_run(run) == runtime::Error::Ok, "run failed");
  for (size_t i = 0; i < bytes; ++i) {
    ETNS_CHECK(got[i] == want[i], "byte %zu: got %d, want %d", i, got[i], want[i]);
  }
}

}  // namespace
}  // namespace etns::cortex_m
