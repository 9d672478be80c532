#include "tools/evidence/runner/model_facts.h"

#include <algorithm>
#include <memory>
#include <set>

#include "tools/common/failure.h"
#include "tools/evidence/runner/host_session.h"

namespace etns::tools {

std::optional<ModelFacts> read_model_facts(const std::string& pte_path) {
  std::unique_ptr<HostSession> session;
  try {
    session = std::make_unique<HostSession>(pte_path, nullptr);
  } catch (const Failure&) {
    return std::nullopt;
  }
  const runtime::Method& method = session->method();
  std::set<std::string> used;
  for (size_t i = 0; i < method.instruction_count(); ++i) {
    if (method.instruction(i).operator_name != nullptr) used.insert(method.instruction(i).operator_name);
  }
  ModelFacts facts;
  for (size_t i = 0; i < method.operator_count(); ++i) {
    const std::string name = method.operator_name(i);
    const bool listed = std::find(facts.portable_ops.begin(), facts.portable_ops.end(), name) != facts.portable_ops.end();
    if (name.rfind("aten::", 0) == 0 && used.count(name) > 0 && !listed) facts.portable_ops.push_back(name);
  }
  for (size_t i = 0; i < method.input_count(); ++i) {
    const runtime::Tensor& input = method.input(i);
    facts.inputs.push_back({input.nbytes, runtime::to_string(input.dtype), input.numel});
  }
  return facts;
}

}  // namespace etns::tools
