#include "tools/evidence/runner/host_session.h"

#include "protocol/job.h"
#include "tools/common/failure.h"
#include "tools/common/runtime_errors.h"

namespace etns::tools {

runtime::MethodBudget qemu_runner_budget() {
  runtime::MethodBudget budget;
  budget.method_arena_bytes = protocol::kRunnerMethodArenaBytes;
  budget.temporary_arena_bytes = protocol::kRunnerTemporaryArenaBytes;
  budget.planned_memory_bytes = runtime::kPlannedMemoryBytes;
  budget.max_instructions = protocol::kMaxInstructions;
  return budget;
}

HostSession::HostSession(const std::string& pte_path, const runtime::KernelRegistry* registry,
                         const std::string& method_name, const runtime::MethodBudget& budget)
    : path_(pte_path), file_(read_file_aligned(pte_path)), registry_(registry) {
  method_memory_.resize(budget.method_arena_bytes * kHostBytesPerTargetByte);
  temporary_memory_.resize(budget.temporary_arena_bytes);
  method_arena_ = std::make_unique<runtime::Arena>(
      "method", runtime::Span<uint8_t>(method_memory_.data(), method_memory_.size()), budget.method_arena_bytes);
  temporary_arena_ = std::make_unique<runtime::Arena>(
      "temporary", runtime::Span<uint8_t>(temporary_memory_.data(), temporary_memory_.size()),
      budget.temporary_arena_bytes);
  runtime::TargetMemory memory;
  memory.method = method_arena_.get();
  memory.temporary = temporary_arena_.get();
  // Each planned buffer at the size the program declares, once the plan fits
  // the budget. Runtime code calls this: nothing may throw through it.
  memory.allocate_planned = [](void* user, size_t, size_t bytes) noexcept {
    auto& buffers = *static_cast<std::vector<AlignedBytes>*>(user);
    try {
      buffers.emplace_back(bytes);
    } catch (...) {
      return runtime::Span<uint8_t>();
    }
    return runtime::Span<uint8_t>(buffers.back().data(), buffers.back().size());
  };
  memory.user = &planned_memory_;

  refuse_tflite_model(file_.data(), file_.size(), path_);
  RuntimeLogCapture log;
  runtime::Result<runtime::BudgetedMethod> loaded = runtime::load_within_budget(
      runtime::Span<const uint8_t>(file_.data(), file_.size()), method_name.c_str(), registry, budget, memory);
  log.check(loaded.ok() ? runtime::Error::Ok : loaded.error(), path_);
  program_ = std::make_unique<runtime::Program>(loaded->program);
  method_ = std::make_unique<runtime::Method>(loaded->method);
}

void HostSession::set_input(size_t i, const std::vector<uint8_t>& bytes) {
  RuntimeLogCapture log;
  log.check(method_->set_input(i, runtime::Span<const uint8_t>(bytes.data(), bytes.size())), path_);
}

void HostSession::execute(const runtime::ExecuteHooks* hooks) {
  RuntimeLogCapture log;
  log.check(method_->reset_state(), path_);
  log.check(method_->execute(hooks), path_);
}

std::vector<uint8_t> HostSession::output_bytes(size_t i) const {
  return tensor_bytes(method_->output(i));
}

std::vector<uint8_t> tensor_bytes(const runtime::Tensor& tensor) {
  const auto* data = static_cast<const uint8_t*>(tensor.data);
  return std::vector<uint8_t>(data, data + tensor.nbytes);
}

}  // namespace etns::tools
