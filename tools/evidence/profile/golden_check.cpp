#include "tools/evidence/profile/golden_check.h"

#include <filesystem>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "tools/common/failure.h"
#include "tools/common/files.h"

namespace etns::tools {
namespace fs = std::filesystem;

GoldenCheck check_goldens(const std::string& golden_dir, const std::string& shared_dir, const QemuTools& qemu) {
  const fs::path dir = golden_dir;
  const nlohmann::json index = read_json_file((dir / "golden.json").string());
  const std::string where = (dir / "golden.json").string();
  if (!index.contains("files") || !index["files"].is_array() || !index.contains("ptes")) {
    throw Failure(where + ": no \"files\" list or \"ptes\" object");
  }
  // The files of each (program, input) run.
  std::map<std::pair<std::string, std::string>, std::vector<nlohmann::json>> runs;
  for (const nlohmann::json& file : index["files"]) {
    runs[{file.at("pte").get<std::string>(), file.at("input_id").get<std::string>()}].push_back(file);
  }
  GoldenCheck check;
  std::map<std::string, bool> programs;
  for (const auto& [key, files] : runs) {
    const auto& [pte, input_id] = key;
    programs[pte] = true;
    std::string relative = index["ptes"].at(pte).at("pte_file").get<std::string>();
    const std::string prefix = "shared/";
    if (relative.rfind(prefix, 0) == 0) relative = relative.substr(prefix.size());
    QemuJob job;
    job.program = read_file((fs::path(shared_dir) / relative).string());
    job.inputs.push_back(read_file((dir / (pte + "." + input_id + ".input.bin")).string()));
    job.dump_instructions = true;
    job.per_instruction_pass = false;
    const QemuRun run = run_on_qemu(qemu, job, pte + " input " + input_id);
    ++check.runs;
    for (const nlohmann::json& file : files) {
      const std::string kind = file.at("kind").get<std::string>();
      if (kind == "input") continue;
      const std::vector<uint8_t> want = read_file((dir / file.at("file").get<std::string>()).string());
      const std::vector<uint8_t>* got = nullptr;
      std::string what;
      if (kind == "output") {
        if (!run.outputs.empty()) got = &run.outputs.front();
        what = "output";
      } else {
        what = file.at("instruction_id").get<std::string>();
        for (size_t i = 0; i < run.instructions.size() && i < run.dumps.size(); ++i) {
          if (run.instructions[i].id == what) got = &run.dumps[i];
        }
      }
      ++check.tensors;
      if (got != nullptr && *got == want) {
        ++check.equal;
      } else {
        check.differences.push_back(pte + " input " + input_id + " " + what + " (" +
                                    file.value("operator", std::string("?")) + ")");
      }
    }
  }
  check.programs = programs.size();
  return check;
}

}  // namespace etns::tools
