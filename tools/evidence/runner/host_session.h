#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/arena.h"
#include "runtime/exec/budget.h"
#include "runtime/exec/method.h"
#include "runtime/pte/program.h"
#include "tools/common/files.h"

namespace etns::tools {

// The host lays out the method arena's values with 8-byte words, the device
// with 4-byte ones: this much host memory per target byte always suffices.
constexpr size_t kHostBytesPerTargetByte = 4;

// What the QEMU firmware runner gives a method (its arenas from protocol/job.h,
// its planned memory runtime::kPlannedMemoryBytes): the host's default, so that
// host and QEMU runs refuse the same programs.
runtime::MethodBudget qemu_runner_budget();

// A .pte loaded on the host: file bytes, verified Program and one Method with
// host-owned arenas. Every runtime error becomes a Failure naming the file.
class HostSession {
 public:
  // `registry` null loads the method unbound (inspection only). The program
  // must fit `budget` as it would on the device: the load is the runtime's
  // load_within_budget (runtime/exec/budget.h), with host-allocated memory.
  HostSession(const std::string& pte_path, const runtime::KernelRegistry* registry,
              const std::string& method_name = "forward",
              const runtime::MethodBudget& budget = qemu_runner_budget());
  HostSession(const HostSession&) = delete;
  HostSession& operator=(const HostSession&) = delete;

  const std::string& path() const { return path_; }
  const AlignedBytes& file() const { return file_; }
  const runtime::Program& program() const { return *program_; }
  runtime::Method& method() { return *method_; }
  const runtime::Method& method() const { return *method_; }

  // Checks the byte count against input `i` and copies it in.
  void set_input(size_t i, const std::vector<uint8_t>& bytes);
  // Runs the method once from the operators' initial state (as the firmware
  // runner does each pass: every run is a fresh load's first execute());
  // throws Failure on a kernel error.
  void execute(const runtime::ExecuteHooks* hooks = nullptr);
  std::vector<uint8_t> output_bytes(size_t i) const;
  // Bytes of the method arena the load used on this host (64-bit pointers).
  size_t method_arena_used_bytes() const { return method_arena_->used_bytes(); }
  // The same allocations laid out for the 32-bit Arm target: what a
  // Cortex-M55 must reserve for the method arena.
  size_t method_arena_arm32_bytes() const { return method_arena_->arm32_used_bytes(); }
  // The provider the method was bound with, or null when unbound.
  const runtime::KernelRegistry* registry() const { return registry_; }

 private:
  std::string path_;
  AlignedBytes file_;
  std::unique_ptr<runtime::Program> program_;
  std::vector<uint8_t> method_memory_;
  std::vector<uint8_t> temporary_memory_;
  std::vector<AlignedBytes> planned_memory_;
  std::unique_ptr<runtime::Arena> method_arena_;
  std::unique_ptr<runtime::Arena> temporary_arena_;
  std::unique_ptr<runtime::Method> method_;
  const runtime::KernelRegistry* registry_ = nullptr;
};

// Bytes of a tensor, in its memory layout.
std::vector<uint8_t> tensor_bytes(const runtime::Tensor& tensor);

}  // namespace etns::tools
