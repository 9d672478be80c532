// A corpus of malformed programs, each made from a real one by one corruption,
// each rejected with its specific Error and a line naming what and where.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/registry.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"
#include "runtime/pte/program_generated.h"
#include "tests/support/log_capture.h"
#include "tests/support/shared_data.h"

namespace etns {
namespace {

namespace fb = executorch_flatbuffer;
using runtime::Error;

struct Outcome {
  Error error = Error::Ok;
  std::string log;
};

// Loads `bytes` as a program and binds method "forward" on the ns provider.
Outcome load(const std::vector<uint8_t>& bytes) {
  Outcome outcome;
  testing::LogCapture log;
  std::vector<uint8_t> method_memory(1 << 16), temporary_memory(1 << 12), planned_memory(1 << 18);
  runtime::Arena method_arena("method", runtime::Span<uint8_t>(method_memory.data(), method_memory.size()));
  runtime::Arena temporary_arena("temporary", runtime::Span<uint8_t>(temporary_memory.data(), temporary_memory.size()));
  runtime::Span<uint8_t> planned[1] = {runtime::Span<uint8_t>(planned_memory.data(), planned_memory.size())};
  runtime::MethodMemory memory;
  memory.method = &method_arena;
  memory.temporary = &temporary_arena;
  memory.planned = runtime::Span<runtime::Span<uint8_t>>(planned, 1);

  runtime::Result<runtime::Program> program =
      runtime::Program::load(runtime::Span<const uint8_t>(bytes.data(), bytes.size()));
  if (!program.ok()) {
    outcome.error = program.error();
  } else {
    runtime::Result<runtime::Method> method =
        runtime::Method::load(*program, "forward", kernels::registry_ns(), memory);
    outcome.error = method.ok() ? Error::Ok : method.error();
  }
  outcome.log = log.text();
  return outcome;
}

fb::ExecutionPlan* plan_of(std::vector<uint8_t>& bytes) {
  return fb::GetMutableProgram(bytes.data())->mutable_execution_plan()->GetMutableObject(0);
}

// The generated mutable API hands union members out as void*.
template <typename T>
T* as(void* member) {
  return static_cast<T*>(member);
}

// The union's type byte has no generated mutator; set the field in place.
void set_kind_tag(fb::EValue* value, uint8_t tag) {
  reinterpret_cast<flatbuffers::Table*>(value)->SetField<uint8_t>(fb::EValue::VT_VAL_TYPE, tag, 0);
}

struct Case {
  const char* name;
  const char* program;
  std::function<void(std::vector<uint8_t>&)> corrupt;
  Error error;
  std::string message;
};

// tier1mean_ns.pte's c0i1 is quantized_mean; its `self` argument's position.
constexpr uint8_t kMeanSelf = cortex_m_ns::kMeanContract.arg("self").index;

const Case kCases[] = {
    {"truncated inside the segments", "tier1_arm.pte", [](auto& b) { b.resize(8000); },
     Error::InvalidProgram, "segments end at 15809 (segment_base_offset 5888 + segment_data_size 9921), past the file's 8000 bytes"},
    {"truncated flatbuffer", "tier1mean_ns.pte", [](auto& b) { b.resize(1000); },
     Error::InvalidProgram, "flatbuffer verification failed"},
    {"truncated to the identifier", "tier1mean_ns.pte", [](auto& b) { b.resize(6); },
     Error::InvalidProgram, "file is 6 bytes"},
    {"bad identifier", "tier1_ns.pte", [](auto& b) { std::memcpy(&b[4], "XT12", 4); },
     Error::InvalidProgram, "identifier 'XT12' at offset 4: not an ExecuTorch program, expected 'ET12'"},
    {"root offset past the end", "tier1mean_ns.pte", [](auto& b) { b[2] = 0x40; },
     Error::InvalidProgram, "root table offset 4194332 at offset 0 is outside [8, 1932)"},
    {"table offset past the end", "tier1mean_ns.pte",
     [](auto& b) {
       // Program.execution_plan's uoffset: root table + its vtable slot for field 1.
       uint32_t root;
       int32_t vtable_back;
       uint16_t field;
       std::memcpy(&root, &b[0], 4);
       std::memcpy(&vtable_back, &b[root], 4);
       std::memcpy(&field, &b[root - vtable_back + 4 + 2 * 1], 2);
       const uint32_t far = 0x7ffffff0u;
       std::memcpy(&b[root + field], &far, 4);
     },
     Error::InvalidProgram, "flatbuffer verification failed"},
    {"segment size past the end", "tier1_ns.pte", [](auto& b) { b[33] = 0x7f; },
     Error::InvalidProgram, "past the file's 15424 bytes"},
    {"value index out of range", "tier1mean_ns.pte",
     [](auto& b) { as<fb::KernelCall>(plan_of(b)->mutable_chains()->GetMutableObject(0)->mutable_instructions()->GetMutableObject(1)
                       ->mutable_instr_args())->mutable_args()->Mutate(kMeanSelf, 9999); },
     Error::InvalidProgram, "c0i1 cortex_m_ns::quantized_mean.out: argument " + std::to_string(kMeanSelf) +
                                " = value index 9999, expected < 24"},
    {"wrong value kind for an argument", "tier1mean_ns.pte",
     [](auto& b) { as<fb::KernelCall>(plan_of(b)->mutable_chains()->GetMutableObject(0)->mutable_instructions()->GetMutableObject(1)
                       ->mutable_instr_args())->mutable_args()->Mutate(kMeanSelf, 3); },
     Error::InvalidProgram, "c0i1 cortex_m_ns::quantized_mean.out: argument " + std::to_string(kMeanSelf) +
                                " (self) is Int, expected Tensor"},
    {"op_index out of range", "tier1mean_ns.pte",
     [](auto& b) { as<fb::KernelCall>(plan_of(b)->mutable_chains()->GetMutableObject(0)->mutable_instructions()->GetMutableObject(1)
                       ->mutable_instr_args())->mutate_op_index(50); },
     Error::InvalidProgram, "c0i1: op_index 50, expected < 3"},
    {"argument count of another operator", "tier1mean_ns.pte",
     [](auto& b) { as<fb::KernelCall>(plan_of(b)->mutable_chains()->GetMutableObject(0)->mutable_instructions()->GetMutableObject(2)
                       ->mutable_instr_args())->mutate_op_index(1); },
     Error::InvalidProgram, "c0i2 cortex_m_ns::quantized_mean.out: 8 arguments, expected 9"},
    {"tensor past its arena", "tier1mean_ns.pte",
     [](auto& b) { as<fb::Tensor>(plan_of(b)->mutable_values()->GetMutableObject(1)->mutable_val())
                       ->mutable_allocation_info()->mutate_memory_offset_low(80000); },
     Error::InvalidProgram, "value 1: tensor bytes [80000, 96384) exceed planned buffer 1 of 81920 bytes"},
    {"negative size", "tier1mean_ns.pte",
     [](auto& b) { as<fb::Tensor>(plan_of(b)->mutable_values()->GetMutableObject(1)->mutable_val())
                       ->mutable_sizes()->Mutate(1, -16); },
     Error::InvalidProgram, "value 1: sizes[1] = -16, expected >= 0"},
    {"dim_order not a permutation", "tier1mean_ns.pte",
     [](auto& b) { as<fb::Tensor>(plan_of(b)->mutable_values()->GetMutableObject(1)->mutable_val())
                       ->mutable_dim_order()->Mutate(0, 2); },
     Error::InvalidProgram, "value 1: dim_order is not a permutation of 0..3"},
    {"unknown value kind", "tier1mean_ns.pte",
     [](auto& b) { set_kind_tag(plan_of(b)->mutable_values()->GetMutableObject(2), 42); },
     Error::InvalidProgram, "value 2: kind tag 42, expected 1..11"},
    {"IntList item naming a tensor", "tier1mean_ns.pte",
     [](auto& b) { as<fb::IntList>(plan_of(b)->mutable_values()->GetMutableObject(13)->mutable_val())
                       ->mutable_items()->Mutate(0, 1); },
     Error::InvalidProgram, "value 13: list item 0 names value 1 of kind Tensor, expected Int"},
    {"constant past the segment", "tier1_ns.pte",
     [](auto& b) { fb::GetMutableProgram(b.data())->mutable_constant_segment()->mutable_offsets()->Mutate(13, 9999); },
     Error::InvalidProgram, "constant buffer 13 [9999, +2304) lies past the constant segment's 9920 bytes"},
    {"memory id beyond the plan", "tier1mean_ns.pte",
     [](auto& b) { as<fb::Tensor>(plan_of(b)->mutable_values()->GetMutableObject(1)->mutable_val())
                       ->mutable_allocation_info()->mutate_memory_id(3); },
     Error::InvalidProgram, "value 1: memory_id 3, expected 1..1"},
    {"bad quantisation parameter", "tier1mean_ns.pte",
     [](auto& b) { as<fb::Int>(plan_of(b)->mutable_values()->GetMutableObject(17)->mutable_val())->mutate_int_val(40); },
     Error::InvalidArgument, "c0i1 cortex_m_ns::quantized_mean.out: output_shift = 40, expected [-31, 30]"},
};

TEST(MalformedProgram, EachCorruptionIsRejectedWithItsError) {
  ETNS_REQUIRE_SHARED(shared);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> bytes = testing::read_file(shared + "/models/tier1/" + c.program);
    ASSERT_EQ(load(bytes).error, Error::Ok) << "the uncorrupted program must load";
    c.corrupt(bytes);
    const Outcome outcome = load(bytes);
    EXPECT_EQ(outcome.error, c.error) << runtime::to_string(outcome.error) << ": " << outcome.log;
    EXPECT_NE(outcome.log.find(c.message), std::string::npos) << outcome.log;
    EXPECT_EQ(std::count(outcome.log.begin(), outcome.log.end(), '\n'), 1) << "one line: " << outcome.log;
  }
}

// Every single-byte truncation point of a small program fails cleanly (no crash, an Error).
TEST(MalformedProgram, EveryTruncationFailsCleanly) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> whole = testing::read_file(shared + "/models/tier1/tier1mean_ns.pte");
  for (size_t size = 0; size < whole.size(); size += 7) {
    std::vector<uint8_t> bytes(whole.begin(), whole.begin() + static_cast<long>(size));
    bytes.reserve(whole.size());
    EXPECT_NE(load(bytes).error, Error::Ok) << "truncated to " << size << " bytes";
  }
}

// Flipping bytes anywhere never crashes the loader (ASan/UBSan watch this in CI).
TEST(MalformedProgram, ByteFlipsNeverCrash) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> whole = testing::read_file(shared + "/models/tier1/tier1_ns.pte");
  for (size_t offset = 0; offset < whole.size(); offset += 13) {
    std::vector<uint8_t> bytes = whole;
    bytes[offset] ^= 0xA5;
    (void)load(bytes);  // any Error or Ok is fine; a crash is not
  }
}

}  // namespace
}  // namespace etns
