#include "fuzz/bounded_run.h"

#include <cstring>
#include <vector>

#include "kernels/registry.h"
#include "runtime/core/log.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"

namespace etns::fuzz {
namespace {

// The firmware's method and temporary arenas (firmware/runner.cpp); planned
// memory as a small board has it. Programs asking for more are refused.
constexpr size_t kMethodArenaBytes = 64 * 1024;
constexpr size_t kTemporaryBytes = 32 * 1024;
constexpr size_t kPlannedBytes = 2 * 1024 * 1024;
constexpr size_t kAlignment = 16;

alignas(16) uint8_t g_method_memory[kMethodArenaBytes];
alignas(16) uint8_t g_temporary_memory[kTemporaryBytes];
alignas(16) uint8_t g_planned_memory[kPlannedBytes];

bool run_with(const runtime::Program& program, const runtime::MethodMeta& meta,
              const runtime::KernelRegistry& registry) {
  runtime::Span<uint8_t> planned[runtime::kMaxPlannedBuffers];
  size_t used = 0;
  for (size_t i = 0; i < meta.planned_buffer_count; ++i) {
    const size_t bytes = meta.planned_buffer_bytes[i];
    if (bytes > kPlannedBytes - used) return false;  // refused, as the firmware refuses it
    planned[i] = runtime::Span<uint8_t>(g_planned_memory + used, bytes);
    const size_t padded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    used = padded > kPlannedBytes - used ? kPlannedBytes : used + padded;
  }
  runtime::Arena method_arena("method", runtime::Span<uint8_t>(g_method_memory, sizeof(g_method_memory)));
  runtime::Arena temporary_arena("temporary", runtime::Span<uint8_t>(g_temporary_memory, sizeof(g_temporary_memory)));
  runtime::MethodMemory memory;
  memory.method = &method_arena;
  memory.planned = runtime::Span<runtime::Span<uint8_t>>(planned, meta.planned_buffer_count);
  memory.temporary = &temporary_arena;
  runtime::Result<runtime::Method> method = runtime::Method::load(program, "forward", registry, memory);
  if (!method.ok()) return false;
  // A fixed byte pattern rather than zeros, so the kernels' arithmetic runs on varied codes.
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < method->input_count(); ++i) {
    bytes.resize(method->input(i).nbytes);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<uint8_t>(k * 37 + 11);
    if (method->set_input(i, runtime::Span<const uint8_t>(bytes.data(), bytes.size())) != runtime::Error::Ok) {
      return false;
    }
  }
  return method->execute() == runtime::Error::Ok;
}

}  // namespace

bool run_bounded(const uint8_t* data, size_t size) {
  // Refusals are the common outcome; their lines would only slow the fuzzer.
  runtime::set_log_sink([](void*, const char*) {}, nullptr);
  std::vector<uint8_t> storage(size + kAlignment);
  const size_t skew = reinterpret_cast<uintptr_t>(storage.data()) % kAlignment;
  uint8_t* aligned = storage.data() + (skew == 0 ? 0 : kAlignment - skew);
  if (size > 0) std::memcpy(aligned, data, size);
  runtime::Result<runtime::Program> program = runtime::Program::load(runtime::Span<const uint8_t>(aligned, size));
  if (!program.ok()) return false;
  runtime::Result<runtime::MethodMeta> meta = runtime::method_meta(*program, "forward");
  if (!meta.ok()) return false;
  bool executed = false;
  for (protocol::Provider provider : protocol::kProviders) {
    executed = run_with(*program, *meta, kernels::registry_of(provider)) || executed;
  }
  return executed;
}

}  // namespace etns::fuzz
