// Hostile programs (issue 11): each made from one of etns's own exported
// programs by one corruption, each refused at load with one clear line, the
// same line on the host and on the Cortex-M55 firmware under QEMU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/registry.h"
#include "runtime/exec/budget.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program_generated.h"
#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/writers/export/exporter.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"
#include "tools/evidence/runner/host_session.h"

namespace etns {
namespace {

namespace fb = executorch_flatbuffer;

const tools::Tier1Export& exported() {
  static const tools::Tier1Export programs = tools::export_tier1();
  return programs;
}

std::vector<uint8_t> exported_file(const std::string& file) {
  for (const tools::ExportedProgram& p : exported().programs) {
    if (p.file == file) return p.bytes;
  }
  for (const tools::ExportedFile& f : exported().inputs) {
    if (f.file == file) return f.bytes;
  }
  throw std::runtime_error("etns export wrote no " + file);
}

fb::ExecutionPlan* plan_of(std::vector<uint8_t>& bytes) {
  return fb::GetMutableProgram(bytes.data())->mutable_execution_plan()->GetMutableObject(0);
}

// Loads `bytes` through HostSession (the arm provider) and returns its Failure
// text, or "" when it loads.
std::string host_failure(const std::vector<uint8_t>& bytes,
                         const runtime::MethodBudget& budget = tools::qemu_runner_budget()) {
  tools::TemporaryDirectory dir;
  const std::string path = dir.path() + "/hostile.pte";
  tools::write_file_atomic(path, bytes.data(), bytes.size());
  try {
    tools::HostSession session(path, &kernels::registry_arm(), "forward", budget);
  } catch (const tools::Failure& failure) {
    const std::string text = failure.what();
    return text.substr(text.find(": ") + 2);  // without the temporary path
  }
  return "";
}

// `etns run` on the host and on the arm firmware under QEMU: both stderr texts.
struct TwoTargets {
  testing::CliResult host;
  testing::CliResult qemu;
};
TwoTargets run_on_both(const std::vector<uint8_t>& bytes, const testing::TempDir& dir) {
  tools::write_file_atomic(dir.path() + "/hostile.pte", bytes.data(), bytes.size());
  const std::vector<uint8_t> input = exported_file("tier1mean.input.bin");
  tools::write_file_atomic(dir.path() + "/input.bin", input.data(), input.size());
  const std::string common = "run " + dir.path() + "/hostile.pte --provider arm --input " + dir.path() +
                             "/input.bin --output " + dir.path() + "/out.bin";
  return {testing::run_cli(common), testing::run_cli(common + " --target qemu-m55")};
}

// Class 1: a planned size from the file is checked against what the target
// holds before anything is allocated (2^33 zeroed 8 GiB on the host; the
// firmware truncated it to 32 bits and ran).
TEST(HostileInput, PlannedSizesBeyondTheTargetAreRefusedAlikeOnHostAndQemu) {
  const std::vector<uint8_t> original = exported_file("tier1mean_arm.pte");
  ASSERT_EQ(host_failure(original), "");
  struct Case {
    int64_t bytes;
    std::string line;
  };
  const Case cases[] = {
      {int64_t{1} << 33, "non_const_buffer_sizes[1] = 8589934592, expected 0..4294967295 [InvalidProgram]"},
      {int64_t{1} << 62, "non_const_buffer_sizes[1] = 4611686018427387904, expected 0..4294967295 [InvalidProgram]"},
      {static_cast<int64_t>(runtime::kPlannedMemoryBytes) + 16,
       "planned buffer 1: needs 4194320 bytes, 4194304 of the target's 4194304 bytes of planned memory free "
       "[OutOfMemory]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bytes);
    std::vector<uint8_t> bytes = original;
    plan_of(bytes)->mutable_non_const_buffer_sizes()->Mutate(1, c.bytes);
    EXPECT_EQ(host_failure(bytes), c.line);
    if (testing::qemu_unavailable_reason()) continue;
    testing::TempDir dir;
    const TwoTargets runs = run_on_both(bytes, dir);
    EXPECT_EQ(runs.host.exit_code, 1);
    EXPECT_EQ(runs.qemu.exit_code, 1);
    EXPECT_EQ(runs.host.stderr_text, "etns: " + dir.path() + "/hostile.pte: " + c.line + "\n");
    EXPECT_EQ(runs.qemu.stderr_text, runs.host.stderr_text) << "the firmware refuses it with the same line";
  }
}

// Class 7: the method arena is bounded on the host by what the target gives,
// counted in the target's layout, so the host refuses what the firmware would.
TEST(HostileInput, TheHostBoundsTheMethodArenaAsTheFirmwareDoes) {
  const std::vector<uint8_t> bytes = exported_file("tier1mean_arm.pte");
  tools::TemporaryDirectory dir;
  tools::write_file_atomic(dir.path() + "/p.pte", bytes.data(), bytes.size());
  const size_t needed = tools::HostSession(dir.path() + "/p.pte", &kernels::registry_arm()).method_arena_arm32_bytes();
  runtime::MethodBudget budget = tools::qemu_runner_budget();
  budget.method_arena_bytes = needed;
  EXPECT_EQ(host_failure(bytes, budget), "") << "exactly the Cortex-M55's need fits";
  budget.method_arena_bytes = needed - 1;
  EXPECT_NE(host_failure(bytes, budget).find("arena 'method': need "), std::string::npos);
  EXPECT_NE(host_failure(bytes, budget).find(" free [OutOfMemory]"), std::string::npos);
  budget.method_arena_bytes = 1;
  EXPECT_NE(host_failure(bytes, budget).find(", 1 free [OutOfMemory]"), std::string::npos) << "1 byte is no arena";
  budget = tools::qemu_runner_budget();
  budget.max_instructions = 2;
  EXPECT_EQ(host_failure(bytes, budget), "the method has 5 instructions, the target runs at most 2 [NotSupported]");
}

// Class 7 on both targets: the same chain repeated until the method's values,
// instruction table and argument lists pass the runner's 64 KiB method arena
// (counted in the Cortex-M55 layout on the host; the host's own 64-bit layout
// would need more): the firmware and the host refuse it with the same line.
// (The instruction limit, 1,022, lies beyond what 64 KiB can hold.)
TEST(HostileInput, MethodArenaBudgetIsTheSameOnHostAndQemu) {
  ETNS_REQUIRE_QEMU();
  const tools::ProgramModel original = tools::read_program(exported_file("tier1mean_arm.pte"));
  tools::ProgramModel model = original;
  for (size_t k = 1; k < 150; ++k) {
    model.instructions.insert(model.instructions.end(), original.instructions.begin(), original.instructions.end());
  }
  testing::TempDir dir;
  const TwoTargets runs = run_on_both(tools::write_program(model), dir);
  EXPECT_EQ(runs.host.exit_code, 1);
  EXPECT_EQ(runs.qemu.exit_code, 1);
  const std::string prefix = "etns: " + dir.path() + "/hostile.pte: arena 'method': need ";
  EXPECT_EQ(runs.host.stderr_text.rfind(prefix, 0), 0u) << runs.host.stderr_text;
  EXPECT_NE(runs.host.stderr_text.find(" free [OutOfMemory]\n"), std::string::npos) << runs.host.stderr_text;
  EXPECT_EQ(std::count(runs.host.stderr_text.begin(), runs.host.stderr_text.end(), '\n'), 1) << runs.host.stderr_text;
  EXPECT_EQ(runs.qemu.stderr_text, runs.host.stderr_text) << "the firmware refuses it with the same line";
}

// Class 2: constants are loaded in place, so a misaligned one is refused.
TEST(HostileInput, MisalignedConstantsAreRefused) {
  std::vector<uint8_t> bytes = exported_file("tier1_arm.pte");
  ASSERT_EQ(host_failure(bytes), "");
  const fb::ExecutionPlan* plan = plan_of(bytes);
  for (uint32_t i = 0; i < plan->values()->size(); ++i) {
    const fb::Tensor* tensor = plan->values()->Get(i)->val_as_Tensor();
    if (tensor == nullptr || tensor->scalar_type() != fb::ScalarType::INT || tensor->data_buffer_idx() == 0 ||
        tensor->allocation_info() != nullptr) {
      continue;
    }
    auto* offsets = fb::GetMutableProgram(bytes.data())->mutable_constant_segment()->mutable_offsets();
    const uint32_t buffer = tensor->data_buffer_idx();
    offsets->Mutate(buffer, offsets->Get(buffer) - 2);
    const std::string line = host_failure(bytes);
    EXPECT_NE(line.find("value " + std::to_string(i) + ": constant buffer " + std::to_string(buffer) +
                        " starts at file offset "),
              std::string::npos)
        << line;
    EXPECT_NE(line.find(", not a multiple of its elements' 4 bytes [InvalidProgram]"), std::string::npos) << line;
    return;
  }
  FAIL() << "tier1_arm has no int32 constant";
}

// Class 2, lists: the flatbuffer verifier aligns a vector's length prefix to
// 4 bytes only; an IntList whose 8-byte items start 4 bytes off is refused at
// load (the program fuzz target found the misaligned read).
TEST(HostileInput, MisalignedListItemsAreRefused) {
  std::vector<uint8_t> bytes = exported_file("tier1_arm.pte");
  const fb::ExecutionPlan* plan = plan_of(bytes);
  for (uint32_t i = 0; i < plan->values()->size(); ++i) {
    const fb::IntList* list = plan->values()->Get(i)->val_as_IntList();
    if (list == nullptr || list->items() == nullptr || list->items()->size() == 0) continue;
    // Moving the items offset 4 bytes on makes item 0's low half the length:
    // a value index small enough keeps the vector inside the program (its
    // first half holds the tables), so only the alignment is wrong.
    const int64_t first = list->items()->Get(0);
    const size_t at = static_cast<size_t>(list->items()->Data() - bytes.data());
    if (first < 1 || at + 8 + 8 * static_cast<size_t>(first) > bytes.size() / 2) continue;
    const auto* table = reinterpret_cast<const flatbuffers::Table*>(list);
    uint8_t* field = const_cast<uint8_t*>(table->GetAddressOf(fb::IntList::VT_ITEMS));
    uint32_t offset = 0;
    std::memcpy(&offset, field, sizeof(offset));
    offset += 4;
    std::memcpy(field, &offset, sizeof(offset));
    const std::string line = host_failure(bytes);
    EXPECT_NE(line.find("execution plan 0 value " + std::to_string(i) + ": IntList items start at file offset "),
              std::string::npos)
        << line;
    EXPECT_NE(line.find(", not a multiple of 8 [InvalidProgram]"), std::string::npos) << line;
    return;
  }
  FAIL() << "tier1_arm has no IntList whose shifted vector stays inside the program";
}

// Class 2, planned tensors: a float tensor planned 2 bytes off its element
// size is refused at load, on the host and by the firmware with the same
// line, rather than read and written misaligned (the program fuzz target
// found dequantize's misaligned store; on the M55 a misaligned VSTR faults).
TEST(HostileInput, MisalignedPlannedTensorsAreRefusedAlikeOnHostAndQemu) {
  std::vector<uint8_t> bytes = exported_file("tier1mean_arm.pte");
  fb::ExecutionPlan* plan = plan_of(bytes);
  for (uint32_t i = 0; i < plan->values()->size(); ++i) {
    if (plan->values()->Get(i)->val_type() != fb::KernelTypes::Tensor) continue;
    auto* tensor = static_cast<fb::Tensor*>(plan->mutable_values()->GetMutableObject(i)->mutable_val());
    fb::AllocationDetails* allocation = tensor->mutable_allocation_info();
    if (tensor->scalar_type() != fb::ScalarType::FLOAT || allocation == nullptr ||
        allocation->memory_offset_low() < 16) {
      continue;
    }
    const uint32_t offset = allocation->memory_offset_low() - 2;
    allocation->mutate_memory_offset_low(offset);
    const std::string line = "value " + std::to_string(i) + ": offset " + std::to_string(offset) +
                             " in planned buffer " + std::to_string(allocation->memory_id()) +
                             " is not a multiple of its elements' 4 bytes [InvalidProgram]";
    EXPECT_EQ(host_failure(bytes), line);
    if (testing::qemu_unavailable_reason()) return;
    testing::TempDir dir;
    const TwoTargets runs = run_on_both(bytes, dir);
    EXPECT_EQ(runs.host.exit_code, 1);
    EXPECT_EQ(runs.qemu.exit_code, 1);
    EXPECT_EQ(runs.host.stderr_text, "etns: " + dir.path() + "/hostile.pte: " + line + "\n");
    EXPECT_EQ(runs.qemu.stderr_text, runs.host.stderr_text) << "the firmware refuses it with the same line";
    return;
  }
  FAIL() << "tier1mean_arm has no float tensor planned at offset 16 or more";
}

// Class 9: names from the file are printed escaped, and one holding a NUL
// never resolves to the operator its prefix names.
TEST(HostileInput, OperatorNamesArePrintedEscapedAndNeverAliased) {
  const std::vector<uint8_t> original = exported_file("tier1mean_arm.pte");
  struct Case {
    size_t position;  // in operator 0's name
    char byte;
    std::string spelled;
  };
  for (const Case& c : {Case{3, '\n', "\\n"}, Case{0, '\x1b', "\\x1b"}, Case{8, '\0', "\\0"}}) {
    std::vector<uint8_t> bytes = original;
    auto* name = plan_of(bytes)->mutable_operators()->GetMutableObject(0)->mutable_name();
    std::string want(name->c_str(), name->size());
    const_cast<char*>(name->c_str())[c.position] = c.byte;
    want.replace(c.position, 1, c.spelled);
    const std::string line = host_failure(bytes);
    EXPECT_EQ(line, "operator 0: name \"" + want + "\" holds a byte outside printable ASCII [InvalidProgram]");
    EXPECT_EQ(line.find_first_of(std::string("\n\x1b\0", 3)), std::string::npos) << "nothing raw reaches the terminal";
  }
  // "cortex_m::quantize_per_tensor\0" with the NUL where the overload's dot
  // would go must not be the real cortex_m::quantize_per_tensor.
  std::vector<uint8_t> bytes = original;
  auto* op = plan_of(bytes)->mutable_operators()->GetMutableObject(0);
  const std::string real(op->name()->c_str(), op->name()->size());
  const_cast<char*>(op->name()->c_str())[real.size() - 1] = '\0';
  EXPECT_NE(host_failure(bytes).find("holds a byte outside printable ASCII [InvalidProgram]"), std::string::npos);
}

// Execution is bounded: the loop runs each instruction once, in order; the
// only instruction that could go back (JumpFalseCall) is refused at load.
TEST(HostileInput, InstructionsThatCouldLoopAreRefused) {
  std::vector<uint8_t> bytes = exported_file("tier1mean_arm.pte");
  auto* instruction = plan_of(bytes)->mutable_chains()->GetMutableObject(0)->mutable_instructions()->GetMutableObject(1);
  reinterpret_cast<flatbuffers::Table*>(instruction)
      ->SetField<uint8_t>(fb::Instruction::VT_INSTR_ARGS_TYPE,
                          static_cast<uint8_t>(fb::InstructionArguments::JumpFalseCall), 0);
  EXPECT_EQ(host_failure(bytes), "c0i1: JumpFalseCall instructions are not supported [NotSupported]");
}

}  // namespace
}  // namespace etns
