#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/registry.h"
#include "runtime/core/scalar_type.h"
#include "tools/cli/commands.h"

// `etns ops`: the question a user asks before anything else, "will my model
// run?", answered from the registries this build links: every operator, the
// providers that bind it, and each argument's kind, dtypes and layout as its
// contract accepts them (the loader refuses anything else, naming it).
namespace etns::tools {
namespace {

// "int8", "int8 or int32", "any dtype".
std::string dtypes_text(runtime::Dtypes dtypes) {
  if (dtypes.any()) return "any dtype";
  std::string text;
  for (int code = 0; code < 32; ++code) {
    const auto type = static_cast<runtime::ScalarType>(code);
    if (!dtypes.has(type) || !runtime::is_valid(type)) continue;
    text += (text.empty() ? "" : " or ") + std::string(runtime::to_string(type));
  }
  return text;
}

bool is_tensor(runtime::ArgKind kind) {
  return kind == runtime::ArgKind::Tensor || kind == runtime::ArgKind::OptionalTensor;
}

// One argument as accepted: "Tensor int8, 4-D, NHWC in memory".
std::string argument_text(const runtime::ArgSpec& arg) {
  std::string text = runtime::to_string(arg.kind);
  if (is_tensor(arg.kind)) {
    text += " " + dtypes_text(arg.dtypes);
    if (arg.shape != runtime::Shape::Any) text += ", " + std::string(runtime::to_string(arg.shape));
  }
  return text;
}

struct OperatorRow {
  const runtime::OperatorContract* contract = nullptr;
  std::vector<std::string> providers;
};

std::map<std::string, OperatorRow> operators_of(const std::vector<protocol::Provider>& providers) {
  std::map<std::string, OperatorRow> rows;
  for (const protocol::Provider provider : providers) {
    for (const runtime::KernelEntry& entry : kernels::registry_of(provider).entries) {
      OperatorRow& row = rows[entry.name];
      row.contract = entry.contract;
      row.providers.push_back(protocol::to_string(provider));
    }
  }
  return rows;
}

nlohmann::json ops_json(const std::map<std::string, OperatorRow>& rows) {
  nlohmann::json operators = nlohmann::json::array();
  for (const auto& [name, row] : rows) {
    nlohmann::json args = nlohmann::json::array();
    for (uint8_t i = 0; i < row.contract->count; ++i) {
      const runtime::ArgSpec& arg = row.contract->args[i];
      nlohmann::json a = {{"name", arg.name}, {"kind", runtime::to_string(arg.kind)}};
      if (is_tensor(arg.kind)) {
        a["dtypes"] = dtypes_text(arg.dtypes);
        a["layout"] = runtime::to_string(arg.shape);
      }
      args.push_back(a);
    }
    operators.push_back({{"name", name}, {"providers", row.providers}, {"arguments", args},
                         {"in_place", row.contract->in_place}});
  }
  return {{"schema", "etns.ops"}, {"schema_version", 1}, {"operators", operators}};
}

std::string ops_text(const std::map<std::string, OperatorRow>& rows, bool details) {
  std::string text;
  size_t width = 0;
  for (const auto& [name, row] : rows) width = std::max(width, name.size());
  for (const auto& [name, row] : rows) {
    std::string providers;
    for (const std::string& p : row.providers) providers += (providers.empty() ? "" : ", ") + p;
    text += name + std::string(width + 2 - name.size(), ' ') + providers + "\n";
    if (!details) continue;
    for (uint8_t i = 0; i < row.contract->count; ++i) {
      const runtime::ArgSpec& arg = row.contract->args[i];
      std::string label = "  " + std::to_string(i) + " " + arg.name;
      label.resize(std::max<size_t>(label.size() + 1, 30), ' ');
      text += label + argument_text(arg) + "\n";
    }
  }
  return text;
}

}  // namespace

CommandAction add_ops_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("ops", "list the operators this build runs, per provider, with their arguments");
  command->footer(
      "Every operator the arm and ns registries of this build bind, and which provider binds it;\n"
      "with --args, each argument in call order with its kind and, for tensors, the dtypes and\n"
      "memory layout its contract accepts. A program naming an operator not listed fails to\n"
      "load, naming it; `etns inspect PROGRAM` marks such operators.\n"
      "Examples:\n"
      "  etns ops\n"
      "  etns ops --provider arm --args\n"
      "  etns ops --json > ops.json");
  auto provider = std::make_shared<protocol::Provider>(protocol::Provider::Arm);
  auto args = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  CLI::Option* provider_option = add_provider_option(command, *provider, "only this provider's operators");
  command->add_flag("--args", *args, "also list each operator's arguments as its contract accepts them");
  command->add_flag("--json", *json, "print JSON (schema etns.ops) with the arguments");
  return [provider, provider_option, args, json]() {
    const std::vector<protocol::Provider> providers =
        provider_option->count() > 0 ? std::vector<protocol::Provider>{*provider}
                                     : std::vector<protocol::Provider>{protocol::Provider::Arm, protocol::Provider::Ns};
    const std::map<std::string, OperatorRow> rows = operators_of(providers);
    const std::string text = *json ? ops_json(rows).dump(2) + "\n" : ops_text(rows, *args);
    std::fputs(text.c_str(), stdout);
    return 0;
  };
}

}  // namespace etns::tools
