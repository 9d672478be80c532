// Every compiled variant of quantized_linear against the reference, on the
// host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include <cstddef>
#include <cstdint>

#include "kernels/cortex_m/linear/linear.h"
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
using runtime::ScalarType;

constexpr uint64_t kSeed = 0x6c696e76;  // "linv"

enum class Sums { KernelSum, Bias, Neither, Both };

// One case's tensors in test memory, one spare byte after each so that a
// variant reading past the end shows under the sanitizers.
struct Case {
  LinearParams p;
  int8_t* input = nullptr;
  int8_t* weight = nullptr;
  int32_t* bias = nullptr;
  int32_t* kernel_sum = nullptr;
};

void fill_case(Rng& rng, Case& c, Sums sums) {
  const LinearParams& p = c.p;
  const size_t input_bytes = static_cast<size_t>(p.batches) * static_cast<size_t>(p.in_features);
  const size_t weight_bytes =
      static_cast<size_t>(p.out_features) * static_cast<size_t>(p.in_features);
  c.input = ETNS_TEST_ARRAY(int8_t, input_bytes + 1);
  c.weight = ETNS_TEST_ARRAY(int8_t, weight_bytes + 1);
  rng.fill_s8(c.input, input_bytes);
  rng.fill_s8(c.weight, weight_bytes);
  const bool bias = sums == Sums::Bias || sums == Sums::Both;
  const bool kernel_sum = sums == Sums::KernelSum || sums == Sums::Both;
  c.bias = bias ? ETNS_TEST_ARRAY(int32_t, p.out_features + 1) : nullptr;
  c.kernel_sum = kernel_sum ? ETNS_TEST_ARRAY(int32_t, p.out_features + 1) : nullptr;
  for (int32_t r = 0; r < p.out_features; ++r) {
    const int32_t values[] = {0, rng.uniform32(-5000, 5000), rng.uniform32(-400000, 400000),
                              rng.uniform32(INT32_MIN, INT32_MAX)};
    if (bias) c.bias[r] = rng.pick(values);
    if (kernel_sum) c.kernel_sum[r] = rng.pick(values);
  }
}

// Anything prepare accepts: offsets and activation bounds at their ends or
// random, multipliers and shifts from the edges (0, 1, 2^30, INT32_MAX; -31,
// -1, 0, 1, 30 with their wrapping left shifts) or realistic.
void random_params(Rng& rng, LinearParams& p) {
  const int32_t offsets[] = {-127, 128, 0, rng.uniform32(-127, 128)};
  p.input_offset = rng.pick(offsets);
  p.filter_offset = rng.coin() ? 0 : rng.pick(offsets);
  p.output_offset = rng.uniform32(-128, 127);
  if (rng.coin()) {
    p.activation_min = -128;
    p.activation_max = 127;
  } else {
    p.activation_min = rng.uniform32(-128, 127);
    p.activation_max = rng.uniform32(p.activation_min, 127);
  }
  const int32_t multipliers[] = {0, 1, int32_t{1} << 30, INT32_MAX,
                                 rng.uniform32(1 << 30, INT32_MAX),
                                 rng.uniform32(1 << 30, INT32_MAX)};
  const int32_t shifts[] = {-31, -1, 0, 1, 30, rng.uniform32(-12, -4), rng.uniform32(-12, -4),
                            rng.uniform32(-31, 30)};
  p.out = {rng.pick(multipliers), rng.pick(shifts)};
}

void check_case(const Case& c, const char* what) {
  const LinearParams& p = c.p;
  uint8_t* scratch =
      ETNS_TEST_ARRAY(uint8_t, linear_scratch_bytes(p, c.kernel_sum != nullptr) + 1);
  const size_t out_bytes =
      static_cast<size_t>(p.batches) * static_cast<size_t>(p.out_features);
  ETNS_CHECK_VARIANTS(
      kernels::kLinearVariants, out_bytes,
      [&](LinearFn fn, void* out) {
        fn(p, c.input, c.weight, c.bias, c.kernel_sum, static_cast<int8_t*>(out), scratch);
      },
      "%s: %d x %d -> %d, offsets %d/%d/%d, (%d, %d), act [%d, %d], %s%s", what,
      static_cast<int>(p.batches), static_cast<int>(p.in_features),
      static_cast<int>(p.out_features), static_cast<int>(p.input_offset),
      static_cast<int>(p.filter_offset), static_cast<int>(p.output_offset),
      static_cast<int>(p.out.multiplier), static_cast<int>(p.out.shift),
      static_cast<int>(p.activation_min), static_cast<int>(p.activation_max),
      c.kernel_sum != nullptr ? "kernel_sum " : "", c.bias != nullptr ? "bias" : "");
}

// Every pair of sizes of ins and outs, with each batch count, random
// parameters and a random way of giving the sums.
template <size_t kIns, size_t kOuts, size_t kBatches>
void check_sizes(Rng& rng, const int32_t (&ins)[kIns], const int32_t (&outs)[kOuts],
                 const int32_t (&batch_counts)[kBatches], const char* what) {
  for (int32_t in : ins) {
    for (int32_t out : outs) {
      for (int32_t batches : batch_counts) {
        TestMemoryScope scope;
        Case c;
        c.p.batches = batches;
        c.p.in_features = in;
        c.p.out_features = out;
        random_params(rng, c.p);
        const Sums sums[] = {Sums::KernelSum, Sums::Bias, Sums::Neither, Sums::Both};
        fill_case(rng, c, rng.pick(sums));
        check_case(c, what);
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// Every in and out size around the 16-lane and 4-row tiles, batches 1 and 3,
// each way of giving the sums.
ETNS_KERNEL_TEST(LinearVariants, SizesAroundTheTiles) {
  Rng rng(kSeed);
  const int32_t ins[] = {0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 257};
  const int32_t outs[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13};
  const int32_t batches[] = {1, 3};
  check_sizes(rng, ins, outs, batches, "sizes");
}

// Rows around whole 64-byte vectors, up to and past the longest row a
// variant may hold in registers (10 vectors, 640 bytes: MLPerf ad's), and
// more rows than one block of sums (64).
ETNS_KERNEL_TEST(LinearVariants, LongRowsAndManyRows) {
  Rng rng(kSeed + 5);
  const int32_t ins[] = {63, 64, 65, 127, 128, 129, 576, 639, 640, 641, 700};
  const int32_t outs[] = {1, 5, 17, 67};
  const int32_t batches[] = {1};
  check_sizes(rng, ins, outs, batches, "long rows");
}

// Realistic requantisation (factors in the output range) on random shapes,
// so that most outputs land inside the clamp.
ETNS_KERNEL_TEST(LinearVariants, RandomShapesRealisticFactors) {
  Rng rng(kSeed + 1);
  for (int i = 0; i < 120; ++i) {
    TestMemoryScope scope;
    Case c;
    c.p.batches = rng.uniform32(1, 4);
    c.p.in_features = rng.uniform32(1, 300);
    c.p.out_features = rng.uniform32(1, 40);
    random_params(rng, c.p);
    c.p.out = {rng.uniform32(1 << 30, INT32_MAX), rng.uniform32(-14, -6)};
    const Sums sums[] = {Sums::KernelSum, Sums::Bias, Sums::Neither, Sums::Both};
    fill_case(rng, c, rng.pick(sums));
    check_case(c, "random");
  }
}

// Inputs at the int8 extremes so the int32 sums wrap, with kernel sums near
// the int32 ends and every shift.
ETNS_KERNEL_TEST(LinearVariants, ExtremeValuesEveryShift) {
  Rng rng(kSeed + 2);
  for (int32_t shift = -31; shift <= 30; ++shift) {
    TestMemoryScope scope;
    Case c;
    c.p.batches = 2;
    c.p.in_features = 33;
    c.p.out_features = 6;
    random_params(rng, c.p);
    c.p.out.shift = shift;
    fill_case(rng, c, shift % 2 == 0 ? Sums::KernelSum : Sums::Bias);
    const int8_t ends[] = {-128, 127};
    for (int32_t i = 0; i < 2 * 33; ++i) c.input[i] = rng.pick(ends);
    for (int32_t i = 0; i < 6 * 33; ++i) c.weight[i] = rng.pick(ends);
    const int32_t sums[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000, INT32_MIN + 1000};
    for (int32_t r = 0; r < 6; ++r) {
      if (c.kernel_sum != nullptr) c.kernel_sum[r] = rng.pick(sums);
      if (c.bias != nullptr) c.bias[r] = rng.pick(sums);
    }
    check_case(c, "extremes");
  }
}

// Rows of 16 bytes or fewer (a variant may keep the whole input in one
// register) and just above, with several four-row blocks and a partial one,
// every shift (both signs of S) and every way of giving the sums: half the
// cases with realistic multipliers on random data (outputs inside the clamp,
// so rounding shows), half at the int8 extremes with kernel sums near the
// int32 ends (the sums wrap).
ETNS_KERNEL_TEST(LinearVariants, ShortRowsEveryShift) {
  Rng rng(kSeed + 4);
  const int32_t ins[] = {1, 8, 16, 17};
  for (int32_t in : ins) {
    for (int32_t shift = -31; shift <= 30; ++shift) {
      for (bool extremes : {false, true}) {
        TestMemoryScope scope;
        Case c;
        c.p.batches = 1 + (shift & 1);
        c.p.in_features = in;
        c.p.out_features = 4 * (1 + (shift + 31) % 5) + (shift + 31) % 4;
        random_params(rng, c.p);
        c.p.out.shift = shift;
        if (!extremes) c.p.out.multiplier = rng.uniform32(1 << 30, INT32_MAX);
        const Sums sums[] = {Sums::KernelSum, Sums::Bias, Sums::Neither, Sums::Both};
        fill_case(rng, c, sums[(shift + 31) % 4]);
        if (extremes) {
          const int8_t ends[] = {-128, 127};
          for (int32_t i = 0; i < c.p.batches * in; ++i) c.input[i] = rng.pick(ends);
          for (int32_t i = 0; i < c.p.out_features * in; ++i) c.weight[i] = rng.pick(ends);
          const int32_t near_ends[] = {INT32_MAX, INT32_MIN, INT32_MAX - 1000,
                                       INT32_MIN + 1000};
          for (int32_t r = 0; r < c.p.out_features; ++r) {
            if (c.kernel_sum != nullptr) c.kernel_sum[r] = rng.pick(near_ends);
            if (c.bias != nullptr) c.bias[r] = rng.pick(near_ends);
          }
        }
        check_case(c, extremes ? "short rows, extremes" : "short rows");
        ETNS_RETURN_IF_FAILED();
      }
    }
  }
}

// The benches' shapes: DS-CNN's classifier head, a 256 -> 64 layer and the
// MLPerf Tiny autoencoder's (ad) layers; each as the exporter calls it
// (filter_offset 0, realistic factors, so that most outputs land inside the
// clamp) and with random parameters.
ETNS_KERNEL_TEST(LinearVariants, BenchShapes) {
  Rng rng(kSeed + 3);
  const int32_t shapes[][2] = {{512, 12}, {256, 64}, {640, 128}, {128, 128},
                               {128, 8},  {8, 128},  {128, 640}};
  for (const auto& shape : shapes) {
    for (bool exporter : {true, false}) {
      TestMemoryScope scope;
      Case c;
      c.p.batches = 1;
      c.p.in_features = shape[0];
      c.p.out_features = shape[1];
      random_params(rng, c.p);
      if (exporter) {
        c.p.filter_offset = 0;
        c.p.out = {rng.uniform32(1 << 30, INT32_MAX), rng.uniform32(-14, -6)};
      }
      fill_case(rng, c, Sums::KernelSum);
      check_case(c, exporter ? "bench shape, as exported" : "bench shape");
      ETNS_RETURN_IF_FAILED();
    }
  }
}

// A rank-1 or rank-2 tensor argument over test memory.
void set_tensor(EValue& value, ScalarType dtype, uint8_t rank, const int32_t* sizes,
                const uint8_t* dim_order, void* data, size_t element_bytes) {
  value.kind = runtime::ValueKind::Tensor;
  value.tensor = runtime::Tensor{};
  value.tensor.dtype = dtype;
  value.tensor.rank = rank;
  value.tensor.sizes = sizes;
  value.tensor.dim_order = dim_order;
  value.tensor.data = data;
  value.tensor.numel = 1;
  for (uint8_t d = 0; d < rank; ++d) value.tensor.numel *= static_cast<size_t>(sizes[d]);
  value.tensor.nbytes = value.tensor.numel * element_bytes;
}

// The front door: linear_prepare (and the scratch it requests) and linear_run
// with the build's fastest variant, against the reference, for each way of
// passing the sums.
void check_front_door(Rng& rng, int32_t batches, int32_t in, int32_t rows, Sums sums) {
  TestMemoryScope scope;
  Case c;
  c.p.batches = batches;
  c.p.in_features = in;
  c.p.out_features = rows;
  random_params(rng, c.p);
  fill_case(rng, c, sums);
  const size_t out_bytes = static_cast<size_t>(batches) * static_cast<size_t>(rows);
  int8_t* want = ETNS_TEST_ARRAY(int8_t, out_bytes);
  int8_t* got = ETNS_TEST_ARRAY(int8_t, out_bytes);
  linear_s8_ref(c.p, c.input, c.weight, c.bias, c.kernel_sum, want, nullptr);

  const int32_t input_sizes[2] = {batches, in};
  const int32_t weight_sizes[2] = {rows, in};
  const int32_t out_sizes[2] = {batches, rows};
  const int32_t feature_sizes[1] = {rows};
  const uint8_t order[2] = {0, 1};
  EValue items[2];
  set_int(items[0], c.p.out.multiplier);
  set_int(items[1], c.p.out.shift);
  const int64_t item_indices[2] = {0, 1};
  constexpr const runtime::OperatorContract& k = kLinearContract;
  EValue values[k.count];
  set_tensor(values[k.arg("input").index], ScalarType::Char, 2, input_sizes, order, c.input, 1);
  set_tensor(values[k.arg("weights").index], ScalarType::Char, 2, weight_sizes, order, c.weight,
             1);
  values[k.arg("bias").index].kind = runtime::ValueKind::Null;
  values[k.arg("kernel_sum").index].kind = runtime::ValueKind::Null;
  if (c.bias != nullptr) {
    set_tensor(values[k.arg("bias").index], ScalarType::Int, 1, feature_sizes, order, c.bias, 4);
  }
  if (c.kernel_sum != nullptr) {
    set_tensor(values[k.arg("kernel_sum").index], ScalarType::Int, 1, feature_sizes, order,
               c.kernel_sum, 4);
  }
  set_int(values[k.arg("input_offset").index], c.p.input_offset);
  set_int(values[k.arg("filter_offset").index], c.p.filter_offset);
  set_int(values[k.arg("output_offset").index], c.p.output_offset);
  values[k.arg("requantize_multipliers").index].kind = runtime::ValueKind::IntList;
  values[k.arg("requantize_multipliers").index].int_list =
      runtime::IntList{&item_indices[0], 1, items};
  values[k.arg("requantize_shifts").index].kind = runtime::ValueKind::IntList;
  values[k.arg("requantize_shifts").index].int_list = runtime::IntList{&item_indices[1], 1, items};
  set_int(values[k.arg("activation_max").index], c.p.activation_max);
  set_int(values[k.arg("activation_min").index], c.p.activation_min);
  set_tensor(values[k.out().index], ScalarType::Char, 2, out_sizes, order, got, 1);
  EValue* args[k.count + 1];
  for (size_t i = 0; i < k.count; ++i) args[i] = &values[i];
  args[k.count] = &values[k.out().index];  // the program's return slot

  uint8_t* method_memory = ETNS_TEST_ARRAY(uint8_t, 256);
  runtime::Arena method("method", runtime::Span<uint8_t>(method_memory, 256));
  runtime::PrepareContext prepare("c0i0", k.name, k, runtime::Span<EValue* const>(args, k.count + 1),
                                  method);
  ETNS_CHECK(prepare.check_arguments() == runtime::Error::Ok, "contract check failed");
  ETNS_CHECK(linear_prepare(prepare) == runtime::Error::Ok, "prepare failed, %d x %d -> %d",
             static_cast<int>(batches), static_cast<int>(in), static_cast<int>(rows));
  // The runtime hands run exactly the bytes prepare requested, 16-byte aligned.
  const size_t scratch_bytes = prepare.scratch_bytes();
  uint8_t* scratch = ETNS_TEST_ARRAY(uint8_t, scratch_bytes + 1);
  const runtime::RunContext run{runtime::Span<EValue* const>(args, k.count + 1), prepare.state(),
                                runtime::Span<uint8_t>(scratch, scratch_bytes)};
  ETNS_CHECK(linear_run(run) == runtime::Error::Ok, "run failed");
  for (size_t i = 0; i < out_bytes; ++i) {
    ETNS_CHECK(got[i] == want[i], "%d x %d -> %d, sums %d, byte %zu: got %d, want %d",
               static_cast<int>(batches), static_cast<int>(in), static_cast<int>(rows),
               static_cast<int>(sums), i, got[i], want[i]);
  }
}

ETNS_KERNEL_TEST(LinearVariants, FrontDoorEveryWayOfPassingTheSums) {
  Rng rng(kSeed + 4);
  for (Sums sums : {Sums::KernelSum, Sums::Bias, Sums::Neither, Sums::Both}) {
    for (int32_t rows : {1, 5, 12}) {
      check_front_door(rng, 3, 17, rows, sums);
      ETNS_RETURN_IF_FAILED();
      check_front_door(rng, 1, 100, rows, sums);
      ETNS_RETURN_IF_FAILED();
    }
  }
}

}  // namespace
}  // namespace etns::cortex_m
