// etns_ops::quantized_reduce on fingerprint_signature's MEAN ([1, 42, 42, 16]
// over H and W: 1,764 rows of 16 channels, a column sum, float-rescaled), every
// variant (kernels/testing/kernel_bench.h: counted on the M55 by `etns bench`,
// timed on the host).
#include "kernels/etns_ops/quantized_reduce/quantized_reduce.h"
#include "kernels/testing/kernel_bench.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"

namespace etns::etns_ops {
namespace {

ETNS_KERNEL_BENCH(quantized_reduce, fingerprint_mean) {
  constexpr size_t kRows = 42 * 42;
  constexpr size_t kChannels = 16;
  ReduceGeometry g;
  g.reduce = kRows;
  g.inner = kChannels;
  QuantizedReduceParams p;
  p.reduction = Reduction::MeanRescaled;
  p.count = static_cast<int32_t>(kRows);
  p.count_f = static_cast<float>(kRows);
  p.scale = 1.7755F;
  p.bias = 128.0F * p.scale;
  p.out_zero_point = -128;
  int8_t* in = ETNS_TEST_ARRAY(int8_t, kRows * kChannels);
  int8_t* out = ETNS_TEST_ARRAY(int8_t, kChannels);
  kernels::testing::Rng rng(kRows);
  rng.fill_s8(in, kRows * kChannels);
  bench.elements(kernels::testing::work_of(g.count(), g.outputs()));  // the elements it reads
  for (const auto& v : kernels::kQuantizedReduceVariants) bench.measure(v.isa, [&] { v.fn(p, g, in, out); });
}

}  // namespace
}  // namespace etns::etns_ops
