#include "kernels/etns_ops/lookup_table/lookup_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/kernel_call.h"

namespace etns::etns_ops {
namespace {

using runtime::Error;
using runtime::ScalarType;
using testing::KernelCall;

const runtime::KernelEntry kEntry =
    runtime::kernel_entry(kLookupTableContract, &lookup_table_prepare, &lookup_table_run);

constexpr runtime::Arg kSelf = kLookupTableContract.arg("self");
constexpr runtime::Arg kTable = kLookupTableContract.arg("table");
constexpr runtime::Arg kOut = kLookupTableContract.out();

// The three arguments; the defaults are an 8x8x64 NHWC activation and its table.
struct Args {
  std::vector<int32_t> self_sizes{1, 64, 8, 8};
  std::vector<int32_t> out_sizes{1, 64, 8, 8};
  std::vector<uint8_t> self_order{0, 2, 3, 1};
  std::vector<uint8_t> out_order{0, 2, 3, 1};
  ScalarType self_dtype = ScalarType::Char;
  ScalarType table_dtype = ScalarType::Char;
  ScalarType out_dtype = ScalarType::Char;
  std::vector<int32_t> table_sizes{256};
  bool table_constant = true;
  std::vector<int8_t> table;  // empty: all zeros
};

void build(KernelCall& call, const Args& a) {
  call.tensor(a.self_dtype, a.self_sizes, a.self_order);
  call.tensor(a.table_dtype, a.table_sizes);
  call.tensor(a.out_dtype, a.out_sizes, a.out_order);
  call.tensor_at(kTable).is_constant = a.table_constant;
  if (!a.table.empty()) call.fill<int8_t>(kTable, a.table);
}

// Table entry (uint8_t)q for q = -128 ... 127 in that order from f.
template <typename F>
std::vector<int8_t> table_of(F f) {
  std::vector<int8_t> table(256);
  for (int q = -128; q <= 127; ++q) table[static_cast<uint8_t>(q)] = static_cast<int8_t>(f(q));
  return table;
}

// `in` through the operator with `a`'s arguments.
std::vector<int8_t> run(Args a, const std::vector<int8_t>& in) {
  a.self_sizes = a.out_sizes = {static_cast<int32_t>(in.size())};
  a.self_order = a.out_order = {0};
  KernelCall call;
  build(call, a);
  const Error prepared = call.prepare(kEntry);
  EXPECT_EQ(prepared, Error::Ok) << call.log();
  if (prepared != Error::Ok) return {};
  call.fill<int8_t>(kSelf, in);
  EXPECT_EQ(call.run(), Error::Ok);
  return call.read<int8_t>(kOut);
}

std::vector<int8_t> all_codes() {
  std::vector<int8_t> codes(256);
  for (int i = 0; i < 256; ++i) codes[i] = static_cast<int8_t>(i - 128);
  return codes;
}

TEST(LookupTable, IndexesByTheRawByte) {
  Args a;
  a.table = table_of([](int q) { return q; });  // identity
  EXPECT_EQ(run(a, all_codes()), all_codes());

  // Entry i holds i - 128 as a byte: code q reads entry (uint8_t)q, so -1
  // reads entry 255 (127) and 0 reads entry 0 (-128).
  for (int i = 0; i < 256; ++i) a.table[i] = static_cast<int8_t>(i - 128);
  EXPECT_EQ(run(a, {-128, -1, 0, 1, 127}), (std::vector<int8_t>{0, 127, -128, -127, -1}));
}

TEST(LookupTable, HandMadeTables) {
  Args a;
  a.table = table_of([](int q) { return q < 0 ? 0 : q; });  // relu on a zero point of 0
  EXPECT_EQ(run(a, {-128, -5, 0, 5, 127}), (std::vector<int8_t>{0, 0, 0, 5, 127}));
  a.table = table_of([](int q) { return -1 - q; });  // bitwise not: the ends swap
  EXPECT_EQ(run(a, {-128, -1, 0, 127}), (std::vector<int8_t>{127, 0, -1, -128}));
  a.table = table_of([](int) { return -7; });  // constant
  EXPECT_EQ(run(a, all_codes()), std::vector<int8_t>(256, -7));
}

// The table is copied at prepare: changing the constant afterwards changes nothing.
TEST(LookupTable, RunReadsTheTableCopiedAtPrepare) {
  Args a;
  a.self_sizes = a.out_sizes = {4};
  a.self_order = a.out_order = {0};
  a.table = table_of([](int q) { return q / 2; });
  KernelCall call;
  build(call, a);
  ASSERT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  call.fill<int8_t>(kTable, std::vector<int8_t>(256, 99));
  call.fill<int8_t>(kSelf, std::vector<int8_t>{-128, -3, 3, 127});
  ASSERT_EQ(call.run(), Error::Ok);
  EXPECT_EQ(call.read<int8_t>(kOut), (std::vector<int8_t>{-64, -1, 1, 63}));
}

TEST(LookupTablePrepare, AcceptsNhwcAndSize1DimsInAnyOrder) {
  const std::vector<std::vector<uint8_t>> orders[] = {
      {{0, 2, 3, 1}, {0, 2, 3, 1}}, {{0, 1, 2, 3}, {0, 1, 2, 3}}};
  for (const auto& pair : orders) {
    Args a;
    a.self_order = pair[0];
    a.out_order = pair[1];
    KernelCall call;
    build(call, a);
    EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
  }
  Args a;  // [2, 16, 1, 1]: the same bytes contiguous or channels_last
  a.self_sizes = a.out_sizes = {2, 16, 1, 1};
  a.self_order = {0, 1, 2, 3};
  a.out_order = {0, 2, 3, 1};
  KernelCall call;
  build(call, a);
  EXPECT_EQ(call.prepare(kEntry), Error::Ok) << call.log();
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
    {"int32 out", [](Args& a) { a.out_dtype = ScalarType::Int; }, Error::InvalidArgument,
     "out dtype int32, expected int8"},
    {"uint8 table", [](Args& a) { a.table_dtype = ScalarType::Byte; }, Error::InvalidArgument,
     "table dtype uint8, expected int8"},
    {"255 entries", [](Args& a) { a.table_sizes = {255}; }, Error::InvalidArgument,
     "table has 255 elements, expected 256 (one per int8 code)"},
    {"512 entries", [](Args& a) { a.table_sizes = {2, 256}; }, Error::InvalidArgument,
     "table has 512 elements, expected 256 (one per int8 code)"},
    {"table not constant", [](Args& a) { a.table_constant = false; }, Error::NotSupported,
     "table is not a constant tensor (it is copied once, at load)"},
    {"sizes differ", [](Args& a) { a.self_sizes = {1, 64, 8, 9}; }, Error::InvalidArgument,
     "self [1, 64, 8, 9] and out [1, 64, 8, 8] differ in shape"},
    {"dim orders differ", [](Args& a) { a.self_order = {0, 1, 2, 3}; }, Error::InvalidArgument,
     "self and out have different dim orders"},
};

TEST(LookupTablePrepare, RejectsBadArguments) {
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
