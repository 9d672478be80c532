#include "tools/runner/host_session.h"

#include "tools/common/failure.h"
#include "tools/common/runtime_errors.h"

namespace etns::tools {
namespace {

// Host arenas are generous: the device sizes its own from `etns inspect`.
constexpr size_t kMethodArenaBytes = size_t{1} << 20;
constexpr size_t kTemporaryArenaBytes = size_t{1} << 20;

}  // namespace

HostSession::HostSession(const std::string& pte_path, const runtime::KernelRegistry* registry,
                         const std::string& method_name)
    : path_(pte_path), file_(read_file_aligned(pte_path)), registry_(registry) {
  RuntimeLogCapture log;
  runtime::Result<runtime::Program> program =
      runtime::Program::load(runtime::Span<const uint8_t>(file_.data(), file_.size()));
  log.check(program.ok() ? runtime::Error::Ok : program.error(), path_);
  program_ = std::make_unique<runtime::Program>(*program);

  runtime::Result<runtime::MethodMeta> meta = runtime::method_meta(*program_, method_name.c_str());
  log.check(meta.ok() ? runtime::Error::Ok : meta.error(), path_);
  for (size_t k = 0; k < meta->planned_buffer_count; ++k) {
    planned_memory_.emplace_back(meta->planned_buffer_bytes[k]);
    planned_spans_.emplace_back(planned_memory_.back().data(), planned_memory_.back().size());
  }
  method_memory_.resize(kMethodArenaBytes);
  temporary_memory_.resize(kTemporaryArenaBytes);
  method_arena_ = std::make_unique<runtime::Arena>(
      "method", runtime::Span<uint8_t>(method_memory_.data(), method_memory_.size()));
  temporary_arena_ = std::make_unique<runtime::Arena>(
      "temporary", runtime::Span<uint8_t>(temporary_memory_.data(), temporary_memory_.size()));

  runtime::MethodMemory memory;
  memory.method = method_arena_.get();
  memory.temporary = temporary_arena_.get();
  memory.planned = runtime::Span<runtime::Span<uint8_t>>(planned_spans_.data(), planned_spans_.size());
  runtime::Result<runtime::Method> method =
      registry != nullptr ? runtime::Method::load(*program_, method_name.c_str(), *registry, memory)
                          : runtime::Method::load_unbound(*program_, method_name.c_str(), memory);
  log.check(method.ok() ? runtime::Error::Ok : method.error(), path_);
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
