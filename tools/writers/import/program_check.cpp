#include "tools/writers/import/program_check.h"

#include <cctype>
#include <cstring>

#include "runtime/core/scalar_type.h"

#include "kernels/registry.h"
#include "runtime/exec/budget.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/runtime_errors.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools {

int32_t operator_of_instruction(const ImportedModel& imported, int64_t instruction) {
  for (size_t k = 0; k < imported.operators.size(); ++k) {
    const ImportedOperator& op = imported.operators[k];
    if (op.instruction < 0 || op.instructions <= 0) continue;
    if (instruction >= op.instruction - op.instructions + 1 && instruction <= op.instruction) {
      return static_cast<int32_t>(k);
    }
  }
  return -1;
}

int64_t instruction_named(const std::string& line) {
  // Instruction ids are "c<chain>i<index>" at the start of a word.
  for (size_t at = 0; (at = line.find('c', at)) != std::string::npos; ++at) {
    if (at > 0 && std::isalnum(static_cast<unsigned char>(line[at - 1])) != 0) continue;
    size_t k = at + 1;
    while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k])) != 0) ++k;
    if (k == at + 1 || k >= line.size() || line[k] != 'i') continue;
    size_t end = k + 1;
    int64_t index = 0;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0 && index < (int64_t{1} << 40)) {
      index = index * 10 + (line[end] - '0');
      ++end;
    }
    if (end == k + 1) continue;
    if (end < line.size() && std::isalnum(static_cast<unsigned char>(line[end])) != 0) continue;
    return index;
  }
  return -1;
}

namespace {

// numel * element size, or UINT64_MAX when it does not fit 64 bits.
uint64_t checked_bytes(const GraphTensor& t) {
  uint64_t bytes = runtime::element_size(t.dtype);
  for (const int32_t d : t.sizes) {
    if (d < 0) return UINT64_MAX;
    const auto n = static_cast<uint64_t>(d);
    if (n != 0 && bytes > UINT64_MAX / n) return UINT64_MAX;
    bytes *= n;
  }
  return bytes;
}

std::string sizes_text(const std::vector<int32_t>& sizes) {
  std::string s = "[";
  for (size_t k = 0; k < sizes.size(); ++k) s += (k == 0 ? "" : ",") + std::to_string(sizes[k]);
  return s + "]";
}

}  // namespace

void check_planned_sizes(const ImportedModel& imported, const std::string& context) {
  const QuantizedGraph& g = imported.graph;
  for (size_t j = 0; j < g.ops.size(); ++j) {
    for (const GraphArg& arg : g.ops[j].args) {
      if (arg.kind != runtime::ValueKind::Tensor || arg.tensor < 0 ||
          static_cast<size_t>(arg.tensor) >= g.tensors.size()) {
        continue;
      }
      const GraphTensor& t = g.tensors[static_cast<size_t>(arg.tensor)];
      if (t.role == GraphTensor::Role::Constant) continue;
      const uint64_t bytes = checked_bytes(t);
      if (bytes <= runtime::kPlannedMemoryBytes) continue;
      const std::string why = "tensor \"" + t.name + "\" " + sizes_text(t.sizes) + " needs " +
                              (bytes == UINT64_MAX ? std::string("more than 2^64") : std::to_string(bytes)) +
                              " bytes, more than the target's " + std::to_string(runtime::kPlannedMemoryBytes) +
                              " bytes of planned memory";
      const int32_t k = operator_of_instruction(imported, static_cast<int64_t>(j));
      if (k < 0) throw Failure(context + ": " + why);
      const ImportedOperator& op = imported.operators[static_cast<size_t>(k)];
      throw Failure(context + ": operator " + std::to_string(op.index) + " (" + op.builtin + "): " + why);
    }
  }
}

void check_program_loads(const std::vector<uint8_t>& pte, const ImportedModel& imported, const std::string& context,
                         protocol::Provider provider) {
  const runtime::MethodBudget budget = qemu_runner_budget();
  AlignedBytes file(pte.size());
  if (!pte.empty()) std::memcpy(file.data(), pte.data(), pte.size());
  std::vector<uint8_t> method_memory(budget.method_arena_bytes * kHostBytesPerTargetByte);
  std::vector<uint8_t> temporary_memory(budget.temporary_arena_bytes);
  std::vector<AlignedBytes> planned;
  runtime::Arena method_arena("method", runtime::Span<uint8_t>(method_memory.data(), method_memory.size()),
                              budget.method_arena_bytes);
  runtime::Arena temporary_arena("temporary",
                                 runtime::Span<uint8_t>(temporary_memory.data(), temporary_memory.size()),
                                 budget.temporary_arena_bytes);
  runtime::TargetMemory memory;
  memory.method = &method_arena;
  memory.temporary = &temporary_arena;
  memory.allocate_planned = [](void* user, size_t, size_t bytes) noexcept {
    auto& buffers = *static_cast<std::vector<AlignedBytes>*>(user);
    try {
      buffers.emplace_back(bytes);
    } catch (...) {
      return runtime::Span<uint8_t>();
    }
    return runtime::Span<uint8_t>(buffers.back().data(), buffers.back().size());
  };
  memory.user = &planned;
  RuntimeLogCapture log;
  const runtime::Result<runtime::BudgetedMethod> loaded = runtime::load_within_budget(
      runtime::Span<const uint8_t>(file.data(), file.size()), "forward", &kernels::registry_of(provider), budget,
      memory);
  if (loaded.ok()) return;
  // The first line the runtime logged says why (later ones repeat it).
  const std::string line = log.lines().empty() ? std::string(runtime::to_string(loaded.error())) : log.lines().front();
  const int32_t k = operator_of_instruction(imported, instruction_named(line));
  if (k < 0) throw Failure(context + ": the runtime refuses the program: " + line);
  const ImportedOperator& op = imported.operators[static_cast<size_t>(k)];
  throw Failure(context + ": operator " + std::to_string(op.index) + " (" + op.builtin +
                "): the runtime refuses its program: " + line);
}

}  // namespace etns::tools
