#include "tools/runner/host_session.h"

#include "protocol/job.h"
#include "tools/common/failure.h"
#include "tools/common/runtime_errors.h"

namespace etns::tools {

runtime::MethodBudget qemu_runner_budget() {
  runtime::MethodBudget budget;
  budget.method_arena_bytes = firmware::kRunnerMethodArenaBytes;
  budget.temporary_arena_bytes = firmware::kRunnerTemporaryArenaBytes;
  budget.planned_memory_bytes = firmware::kRunnerPlannedMemoryBytes;
  budget.max_instructions = firmware::kMaxInstructions;
  return budget;
}

HostSession::HostSession(const std::string& pte_path, const runtime::KernelRegistry* registry,
                         const std::string& method_name, const runtime::MethodBudget& budget)
    : path_(pte_path), file_(read_file_aligned(pte_path)), registry_(registry) {
  RuntimeLogCapture log;
  runtime::Result<runtime::Program> program =
      runtime::Program::load(runtime::Span<const uint8_t>(file_.data(), file_.size()));
  log.check(program.ok() ? runtime::Error::Ok : program.error(), path_);
  program_ = std::make_unique<runtime::Program>(*program);

  runtime::Result<runtime::MethodMeta> meta = runtime::method_meta(*program_, method_name.c_str());
  log.check(meta.ok() ? runtime::Error::Ok : meta.error(), path_);
  // The device's rules before any allocation: sizes come from the file.
  size_t planned_offsets[runtime::kMaxPlannedBuffers];
  log.check(runtime::place_planned_buffers(*meta, budget.planned_memory_bytes, planned_offsets), path_);
  for (size_t k = 0; k < meta->planned_buffer_count; ++k) {
    planned_memory_.emplace_back(meta->planned_buffer_bytes[k]);
    planned_spans_.emplace_back(planned_memory_.back().data(), planned_memory_.back().size());
  }
  method_memory_.resize(budget.method_arena_bytes * kHostBytesPerTargetByte);
  temporary_memory_.resize(budget.temporary_arena_bytes);
  method_arena_ = std::make_unique<runtime::Arena>(
      "method", runtime::Span<uint8_t>(method_memory_.data(), method_memory_.size()), budget.method_arena_bytes);
  temporary_arena_ = std::make_unique<runtime::Arena>(
      "temporary", runtime::Span<uint8_t>(temporary_memory_.data(), temporary_memory_.size()),
      budget.temporary_arena_bytes);

  runtime::MethodMemory memory;
  memory.method = method_arena_.get();
  memory.temporary = temporary_arena_.get();
  memory.planned = runtime::Span<runtime::Span<uint8_t>>(planned_spans_.data(), planned_spans_.size());
  runtime::Result<runtime::Method> method =
      registry != nullptr ? runtime::Method::load(*program_, method_name.c_str(), *registry, memory)
                          : runtime::Method::load_unbound(*program_, method_name.c_str(), memory);
  log.check(method.ok() ? runtime::Error::Ok : method.error(), path_);
  log.check(runtime::check_method_budget(*method, budget), path_);
  method_ = std::make_unique<runtime::Method>(*method);
}

void HostSession::set_input(size_t i, const std::vector<uint8_t>& bytes) {
  RuntimeLogCapture log;
  log.check(method_->set_input(i, runtime::Span<const uint8_t>(bytes.data(), bytes.size())), path_);
}

void HostSession::execute(const runtime::ExecuteHooks* hooks) {
  RuntimeLogCapture log;
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
