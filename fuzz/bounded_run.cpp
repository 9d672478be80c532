#include "fuzz/bounded_run.h"

#include <cstring>
#include <vector>

#include "kernels/registry.h"
#include "protocol/job.h"
#include "runtime/core/log.h"
#include "runtime/exec/budget.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::fuzz {
namespace {

// The QEMU runner's budget (protocol/job.h, runtime/exec/budget.h), loaded
// with the runtime's own sequence, so the fuzzer refuses exactly what the
// firmware refuses.
const runtime::MethodBudget kBudget = tools::qemu_runner_budget();

alignas(16) uint8_t g_method_memory[protocol::kRunnerMethodArenaBytes * tools::kHostBytesPerTargetByte];
alignas(16) uint8_t g_temporary_memory[protocol::kRunnerTemporaryArenaBytes];
alignas(16) uint8_t g_planned_memory[runtime::kPlannedMemoryBytes];

// Executes a loaded method once; a fixed byte pattern rather than zeros, so
// the kernels' arithmetic runs on varied codes.
void execute_once(runtime::Method& method) {
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < method.input_count(); ++i) {
    bytes.resize(method.input(i).nbytes);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 37 + 11);
    if (method.set_input(i, runtime::Span<const uint8_t>(bytes.data(), bytes.size())) != runtime::Error::Ok) return;
  }
  (void)method.execute();
}

}  // namespace

void run_bounded(const uint8_t* data, size_t size) {
  constexpr size_t kAlignment = 16;
  // Refusals are the common outcome; their lines would only slow the fuzzer.
  runtime::set_log_sink([](void*, const char*) {}, nullptr);
  std::vector<uint8_t> storage(size + kAlignment);
  const size_t skew = reinterpret_cast<uintptr_t>(storage.data()) % kAlignment;
  uint8_t* aligned = storage.data() + (skew == 0 ? 0 : kAlignment - skew);
  if (size > 0) std::memcpy(aligned, data, size);
  // ns is arm plus the cortex_m_ns operators (kernels/operators.inc):
  // it binds the very same kernels, so it can only get further than arm when
  // arm lacks an operator. Every other refusal is the same on both.
  static_assert(protocol::kProviders[0] == protocol::Provider::Arm, "arm, the subset, is tried first");
  for (protocol::Provider provider : protocol::kProviders) {
    runtime::Arena method_arena("method", runtime::Span<uint8_t>(g_method_memory, sizeof(g_method_memory)),
                                kBudget.method_arena_bytes);
    runtime::Arena temporary_arena("temporary",
                                   runtime::Span<uint8_t>(g_temporary_memory, sizeof(g_temporary_memory)),
                                   kBudget.temporary_arena_bytes);
    runtime::TargetMemory memory;
    memory.method = &method_arena;
    memory.temporary = &temporary_arena;
    memory.planned_region = runtime::Span<uint8_t>(g_planned_memory, sizeof(g_planned_memory));
    runtime::Result<runtime::BudgetedMethod> loaded = runtime::load_within_budget(
        runtime::Span<const uint8_t>(aligned, size), "forward", &kernels::registry_of(provider), kBudget, memory);
    if (loaded.ok()) execute_once(loaded->method);
    if (loaded.ok() || loaded.error() != runtime::Error::OperatorMissing) return;
  }
}

}  // namespace etns::fuzz
