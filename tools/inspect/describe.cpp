#include "tools/inspect/describe.h"

#include <algorithm>
#include <sstream>

#include "kernels/registry.h"
#include "tools/common/operator_origin.h"
#include "tools/common/sha256.h"
#include "tools/common/text.h"

namespace etns::tools {
namespace {

nlohmann::json describe_tensor(const runtime::Method& method, size_t value_index) {
  const runtime::Tensor& t = method.value(value_index).tensor;
  nlohmann::json sizes = nlohmann::json::array();
  nlohmann::json dim_order = nlohmann::json::array();
  for (size_t d = 0; d < t.rank; ++d) {
    sizes.push_back(t.sizes[d]);
    dim_order.push_back(t.dim_order[d]);
  }
  std::string layout = t.is_contiguous() ? "contiguous" : (t.is_channels_last() ? "channels_last" : "other");
  return {{"value_index", value_index}, {"dtype", runtime::to_string(t.dtype)},
          {"sizes", sizes},             {"dim_order", dim_order},
          {"layout", layout},           {"size_bytes", t.nbytes}};
}

bool is_portable(const std::string& name) { return name.rfind("aten::", 0) == 0; }

std::string join_numbers(const nlohmann::json& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i].dump();
  return out + "]";
}

}  // namespace

nlohmann::json describe_program(const HostSession& session) {
  const runtime::Program& program = session.program();
  const runtime::Method& method = session.method();
  const runtime::ExtendedHeader& header = program.header();

  nlohmann::json inputs = nlohmann::json::array();
  for (size_t i = 0; i < method.input_count(); ++i) inputs.push_back(describe_tensor(method, method.input_value_index(i)));
  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < method.output_count(); ++i) outputs.push_back(describe_tensor(method, method.output_value_index(i)));
  nlohmann::json planned = nlohmann::json::array();
  for (size_t k = 0; k < method.meta().planned_buffer_count; ++k) planned.push_back(method.meta().planned_buffer_bytes[k]);
  nlohmann::json instructions = nlohmann::json::array();
  for (size_t i = 0; i < method.instruction_count(); ++i) {
    const runtime::Instruction& instruction = method.instruction(i);
    instructions.push_back({{"id", instruction.id}, {"op_index", instruction.op_index},
                            {"operator", instruction.operator_name}});
  }
  nlohmann::json operators = nlohmann::json::array();
  std::vector<std::string> portable;
  std::vector<std::string> etns_own;  // operators a stock ExecuTorch runtime lacks
  // Which providers of this build have a kernel for each operator: a program
  // naming one neither has is listed, but `run` refuses it at load.
  nlohmann::json kernels = nlohmann::json::object();
  for (size_t k = 0; k < method.operator_count(); ++k) {
    const std::string name = method.operator_name(k);
    operators.push_back(name);
    if (is_portable(name)) portable.push_back(name);
    if (!stock_executorch_has(name)) etns_own.push_back(name);
    nlohmann::json providers = nlohmann::json::array();
    for (const protocol::Provider provider : {protocol::Provider::Arm, protocol::Provider::Ns}) {
      if (kernels::registry_of(provider).find(name.c_str()) != nullptr) providers.push_back(protocol::to_string(provider));
    }
    kernels[name] = providers;
  }
  std::sort(portable.begin(), portable.end());

  nlohmann::json binding = nullptr;
  if (session.registry() != nullptr) {
    binding = {{"provider", session.registry()->provider},
               {"method_arena_bytes_cortex_m55", session.method_arena_arm32_bytes()},
               {"method_arena_bytes_host", session.method_arena_used_bytes()},
               // Every target asks for what the Cortex-M55's Helium variants
               // need (the host's reference kernels use none of it), so the
               // host refuses what the device's budget refuses.
               {"scratch_bytes_cortex_m55", method.max_scratch_bytes()},
               {"max_scratch_bytes", method.max_scratch_bytes()},
               // What load checks the temporary arena against: size one from this.
               {"temporary_arena_bytes", method.temporary_arena_bytes()}};
  }
  nlohmann::json methods = nlohmann::json::array();
  methods.push_back({{"name", "forward"},
                     {"binding", binding},
                     {"values", method.value_count()},
                     {"inputs", inputs},
                     {"outputs", outputs},
                     {"planned_buffers_bytes", planned},
                     {"instructions", instructions},
                     {"operators", operators},
                     {"kernels_in_this_build", kernels},
                     {"portable_operators", portable},
                     {"not_in_stock_executorch", etns_own}});
  nlohmann::json names = nlohmann::json::array();
  for (size_t m = 0; m < program.method_count(); ++m) names.push_back(program.method_name(m));

  return {{"schema", "etns.inspect"},
          {"schema_version", 2},
          {"path", session.path()},
          {"sha256", sha256_hex(session.file().data(), session.file().size())},
          {"size_bytes", session.file().size()},
          {"extended_header",
           header.present ? nlohmann::json{{"program_size", header.program_size},
                                           {"segment_base_offset", header.segment_base_offset},
                                           {"segment_data_size", header.segment_data_size}}
                          : nlohmann::json(nullptr)},
          {"constant_bytes", program.constant_bytes()},
          {"constant_buffers", program.constant_buffer_count() > 0 ? program.constant_buffer_count() - 1 : 0},
          {"method_names", names},
          {"methods", methods}};
}

std::string render_description(const nlohmann::json& d) {
  std::ostringstream out;
  out << "program     " << printable(d["path"].get<std::string>()) << "\n";
  out << "sha256      " << d["sha256"].get<std::string>() << "\n";
  out << "size        " << d["size_bytes"] << " bytes\n";
  const nlohmann::json& header = d["extended_header"];
  if (header.is_null()) {
    out << "header      none (flatbuffer only)\n";
  } else {
    out << "header      eh00: program " << header["program_size"] << " bytes, segments at "
        << header["segment_base_offset"] << " (" << header["segment_data_size"] << " bytes)\n";
  }
  out << "constants   " << d["constant_bytes"] << " bytes in " << d["constant_buffers"] << " buffers\n";
  out << "methods    ";
  for (const nlohmann::json& name : d["method_names"]) out << " " << printable(name.get<std::string>());
  out << "\n";
  for (const nlohmann::json& m : d["methods"]) {
    out << "method      " << printable(m["name"].get<std::string>()) << " (" << m["values"] << " values)\n";
    for (const char* role : {"inputs", "outputs"}) {
      size_t i = 0;
      for (const nlohmann::json& t : m[role]) {
        out << "  " << (role[0] == 'i' ? "input " : "output") << " " << i++ << "    value "
            << t["value_index"] << "  " << t["dtype"].get<std::string>() << " "
            << join_numbers(t["sizes"]) << " dim_order " << join_numbers(t["dim_order"]) << " ("
            << t["layout"].get<std::string>() << ")  " << t["size_bytes"] << " bytes\n";
      }
    }
    size_t k = 1;
    for (const nlohmann::json& bytes : m["planned_buffers_bytes"]) {
      out << "  arena " << k++ << "     " << bytes << " bytes (planned)\n";
    }
    if (!m["binding"].is_null()) {
      const nlohmann::json& b = m["binding"];
      out << "  bound       provider " << b["provider"].get<std::string>() << "\n";
      out << "  kernel scratch: " << grouped(b["scratch_bytes_cortex_m55"].get<uint64_t>())
          << " B on Cortex-M55; this host reserves the same (its reference kernels use none)\n";
      out << "  temporary arena: " << grouped(b["temporary_arena_bytes"].get<uint64_t>())
          << " B to give it (the scratch and up to 15 B to align it to 16)\n";
      out << "  method arena: " << grouped(b["method_arena_bytes_cortex_m55"].get<uint64_t>())
          << " B on Cortex-M55 (32-bit), " << grouped(b["method_arena_bytes_host"].get<uint64_t>())
          << " B on this host\n";
    }
    out << "  instructions (" << m["instructions"].size() << ")\n";
    for (const nlohmann::json& instruction : m["instructions"]) {
      std::string id = printable(instruction["id"].get<std::string>());
      id.resize(std::max<size_t>(id.size(), 6), ' ');
      out << "    " << id << " " << printable(instruction["operator"].get<std::string>()) << "\n";
    }
    out << "  operators (" << m["operators"].size() << ")\n";
    size_t index = 0;
    const nlohmann::json& kernels = m["kernels_in_this_build"];
    // "" when both providers run it, else what this build lacks.
    auto availability = [&](const std::string& name) -> std::string {
      const nlohmann::json& providers = kernels.at(name);
      if (providers.empty()) return "no kernel in this build: run refuses the program";
      if (providers.size() == 1) return providers[0].get<std::string>() + " only";
      return "";
    };
    size_t missing = 0;
    for (const nlohmann::json& name : m["operators"]) {
      const std::string note = availability(name.get<std::string>());
      missing += kernels.at(name.get<std::string>()).empty() ? 1 : 0;
      out << "    [" << index++ << "] " << printable(name.get<std::string>()) << (note.empty() ? "" : "  (" + note + ")")
          << "\n";
    }
    out << "  portable fallbacks (" << m["portable_operators"].size() << ")";
    for (const nlohmann::json& name : m["portable_operators"]) {
      out << " " << printable(name.get<std::string>()) << (kernels.at(name.get<std::string>()).empty() ? " (not in this build)" : "");
    }
    out << "\n";
    out << "  not in stock ExecuTorch (" << m["not_in_stock_executorch"].size() << ")";
    for (const nlohmann::json& name : m["not_in_stock_executorch"]) out << " " << printable(name.get<std::string>());
    out << "\n";
    if (missing > 0) {
      out << "  not runnable here: " << missing << (missing == 1 ? " operator has" : " operators have")
          << " no kernel in this build (see above)\n";
    }
  }
  return out.str();
}

}  // namespace etns::tools
