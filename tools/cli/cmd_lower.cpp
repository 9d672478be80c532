#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/writers/lower/lower.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::tools {
namespace {

struct LowerCommand {
  std::string input;
  std::string output;
  std::string report;
  std::string input_bytes;  // --input: raw bytes of input 0
};

int run_lower_command(const LowerCommand& command) {
  require_readable(command.input);
  if (!command.input_bytes.empty()) require_readable(command.input_bytes);
  ProgramModel model = read_program(read_file(command.input), command.input);
  const LoweringResult result = lower_to_ns(model);
  const std::vector<uint8_t> bytes = write_program(model);
  write_file_atomic(command.output, bytes.data(), bytes.size());
  for (const LoweringRewrite& rewrite : result.rewrites) {
    std::string from;
    for (const std::string& r : rewrite.replaced) from += (from.empty() ? "" : " + ") + r;
    std::printf("lower: %s -> %s (%s)\n", from.c_str(), rewrite.op.c_str(), rewrite.parameters.c_str());
  }
  for (const LoweringKept& kept : result.kept) {
    std::printf("kept: %s: %s\n", kept.instruction.c_str(), kept.reason.c_str());
  }
  std::printf("%s: %zu -> %zu instructions, arena %llu -> %llu bytes\n", command.output.c_str(),
              result.instructions_before, result.instructions_after,
              static_cast<unsigned long long>(result.arena_before_bytes),
              static_cast<unsigned long long>(result.arena_after_bytes));
  if (command.report.empty()) return 0;
  std::vector<uint8_t> input;
  std::string description = "all zeros";
  if (!command.input_bytes.empty()) {
    input = read_file(command.input_bytes);
    description = "`" + command.input_bytes + "`";
  }
  const OutputDifference difference = compare_lowered(command.input, command.output, input);
  write_file_atomic(command.report, lowering_report(command.input, command.output, result, &difference, description));
  std::printf("output difference (%s): max %.3g LSB, mean %.3g LSB; report %s\n", description.c_str(),
              difference.max_lsb, difference.mean_lsb, command.report.c_str());
  return 0;
}

}  // namespace

CommandAction add_lower_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("lower", "rewrite an arm program into an ns one (cortex_m_ns Tier-1 ops)");
  command->footer(
      "Replaces portable float islands (dequantize -> leaky_relu / sub / clamp / relu / hardtanh / mean ->\n"
      "quantize), int8 clamps and the stock hardswish decomposition (minimum + quantized_mul) by\n"
      "cortex_m_ns ops with parameters computed from the program's scales and zero points, drops dead\n"
      "values and re-plans memory. What cannot be lowered stays, and the report says why. With --report,\n"
      "runs both programs on the host (original on arm, lowered on ns) and reports the output difference.\n"
      "Example: etns lower tier1_arm.pte -o tier1_lowered.pte --report lower.md");
  auto c = std::make_shared<LowerCommand>();
  command->add_option("program", c->input, "the arm program (.pte)")->required();
  command->add_option("-o,--output", c->output, "where to write the lowered program")->required();
  command->add_option("--report", c->report, "write a Markdown report here");
  command->add_option("--input", c->input_bytes, "raw bytes of input 0 for the report's comparison (default zeros)");
  return [c]() { return run_lower_command(*c); };
}

}  // namespace etns::tools
