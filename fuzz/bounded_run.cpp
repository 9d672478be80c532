#include "fuzz/bounded_run.h"

#include <cstring>
#include <vector>

#include "kernels/registry.h"
#include "protocol/job.h"
#include "runtime/core/log.h"
#include "runtime/exec/budget.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"
#include "tools/runner/host_session.h"

namespace etns::fuzz {
namespace {

// The QEMU runner's budget (protocol/job.h), checked with the runtime's own
// functions, so the fuzzer refuses exactly what the firmware refuses.
const runtime::MethodBudget kBudget = tools::qemu_runner_budget();

alignas(16) uint8_t g_method_memory[firmware::kRunnerMethodArenaBytes * tools::kHostBytesPerTargetByte];
alignas(16) uint8_t g_temporary_memory[firmware::kRunnerTemporaryArenaBytes];
alignas(16) uint8_t g_planned_memory[firmware::kRunnerPlannedMemoryBytes];

// Returns true when the method bound to `registry`'s kernels (whatever the
// execution did after).
bool run_with(const runtime::Program& program, const runtime::MethodMeta& meta,
              const runtime::KernelRegistry& registry) {
  size_t offsets[runtime::kMaxPlannedBuffers];
  if (runtime::place_planned_buffers(meta, kBudget.planned_memory_bytes, offsets) != runtime::Error::Ok) return false;
  runtime::Span<uint8_t> planned[runtime::kMaxPlannedBuffers];
  for (size_t i = 0; i < meta.planned_buffer_count; ++i) {
    planned[i] = runtime::Span<uint8_t>(g_planned_memory + offsets[i], meta.planned_buffer_bytes[i]);
  }
  runtime::Arena method_arena("method", runtime::Span<uint8_t>(g_method_memory, sizeof(g_method_memory)),
                              kBudget.method_arena_bytes);
  runtime::Arena temporary_arena("temporary", runtime::Span<uint8_t>(g_temporary_memory, sizeof(g_temporary_memory)),
                                 kBudget.temporary_arena_bytes);
  runtime::MethodMemory memory;
  memory.method = &method_arena;
  memory.planned = runtime::Span<runtime::Span<uint8_t>>(planned, meta.planned_buffer_count);
  memory.temporary = &temporary_arena;
  runtime::Result<runtime::Method> method = runtime::Method::load(program, "forward", registry, memory);
  if (!method.ok()) return false;
  if (runtime::check_method_budget(*method, kBudget) != runtime::Error::Ok) return true;
  // A fixed byte pattern rather than zeros, so the kernels' arithmetic runs on varied codes.
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < method->input_count(); ++i) {
    bytes.resize(method->input(i).nbytes);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 37 + 11);
    if (method->set_input(i, runtime::Span<const uint8_t>(bytes.data(), bytes.size())) != runtime::Error::Ok) return true;
  }
  (void)method->execute();
  return true;
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
  runtime::Result<runtime::Program> program = runtime::Program::load(runtime::Span<const uint8_t>(aligned, size));
  if (!program.ok()) return;
  runtime::Result<runtime::MethodMeta> meta = runtime::method_meta(*program, "forward");
  if (!meta.ok()) return;
  // ns is arm plus the cortex_m_ns operators (kernels/registry_arm_entries.h):
  // a method that binds to arm binds ns to the very same kernels, so running
  // it again would repeat the same work. The other providers still see every
  // program arm refuses.
  static_assert(protocol::kProviders[0] == protocol::Provider::Arm, "arm, the subset, is tried first");
  for (protocol::Provider provider : protocol::kProviders) {
    if (run_with(*program, *meta, kernels::registry_of(provider))) break;
  }
}

}  // namespace etns::fuzz
