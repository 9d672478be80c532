// Every compiled variant of etns_ops::lookup_table against the reference, on
// the host and on the Cortex-M55 (kernels/testing/kernel_test.h).
#include "kernels/etns_ops/lookup_table/lookup_table.h"
#include "kernels/testing/kernel_test.h"
#include "kernels/testing/rng.h"
#include "kernels/testing/unary_checks.h"

namespace etns::etns_ops {
namespace {

using kernels::kLookupTableVariants;
using kernels::testing::Rng;

constexpr uint64_t kSeed = 0x6c757462;  // "lutb"

// Any table: random bytes, so every entry differs from its neighbours and a
// lane that reads the wrong entry shows.
LookupTableParams random_params(Rng& rng) {
  LookupTableParams p;
  rng.fill_s8(p.table.values, kLookupTableEntries);
  return p;
}

// Entry (uint8_t)q holds q: the output is the input, so an off-by-one or a
// signed index shows as a shifted code.
LookupTableParams identity_params() {
  LookupTableParams p;
  kernels::byte_table_inputs(p.table.values);
  return p;
}

ETNS_KERNEL_TEST(LookupTableVariants, AllCodesIdentity) {
  kernels::testing::check_unary_all_codes(kLookupTableVariants, identity_params(), "identity table");
}

ETNS_KERNEL_TEST(LookupTableVariants, RandomTablesAndLengths) {
  kernels::testing::check_unary_random(kLookupTableVariants, random_params, kSeed, 64);
}

ETNS_KERNEL_TEST(LookupTableVariants, OutputOffsetsAndInPlace) {
  Rng rng(kSeed + 1);
  kernels::testing::check_unary_layouts(kLookupTableVariants, random_params(rng), kSeed + 2);
}

}  // namespace
}  // namespace etns::etns_ops
