#include "tools/evidence/profile/reproduce_cycles.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "kernels/common/conv_checks.h"
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "tools/board_anchors.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/text.h"
#include "tools/evidence/bench/bench.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/tflm_anchors.h"

namespace etns::tools {
namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kAbsent = "—";

// The tensor argument `index` of instruction `i`, or a Failure naming both.
const runtime::Tensor& tensor_arg(const runtime::Instruction& instruction, uint8_t index, const std::string& program) {
  if (index >= instruction.args.size() || instruction.args[index] == nullptr ||
      instruction.args[index]->kind != runtime::ValueKind::Tensor) {
    throw Failure(program + ": " + instruction.id + " " + instruction.operator_name + ": argument " +
                  std::to_string(index) + " is not a tensor");
  }
  return instruction.args[index]->tensor;
}

// Each convolution's MACs, by instruction id: every output times its filter's
// taps over the input channels of its group (weight OHWI: elements ÷ O).
std::map<std::string, uint64_t> conv_macs(const std::string& pte_path) {
  constexpr kernels::ConvArgIds kArgs = kernels::conv_arg_ids(cortex_m::kConv2dContract);
  const HostSession session(pte_path, nullptr);
  const runtime::Method& method = session.method();
  std::map<std::string, uint64_t> macs;
  for (size_t i = 0; i < method.instruction_count(); ++i) {
    const runtime::Instruction& instruction = method.instruction(i);
    if (std::string(instruction.operator_name) != kConvOperator) continue;
    const runtime::Tensor& weight = tensor_arg(instruction, kArgs.weight.index, pte_path);
    const runtime::Tensor& out = tensor_arg(instruction, kArgs.out.index, pte_path);
    if (weight.rank != 4 || weight.size(0) <= 0) {
      throw Failure(pte_path + ": " + instruction.id + ": weight is not OHWI");
    }
    macs[instruction.id] = out.numel * (weight.numel / static_cast<size_t>(weight.size(0)));
  }
  return macs;
}

std::string percent(double share) { return fmt::format("{:.0f} %", share * 100.0); }
std::string ratio(double ours, double theirs) { return theirs > 0 ? fmt::format("{:.2f}×", ours / theirs) : kAbsent; }
std::string count(uint64_t value) { return grouped(value); }

const CycleFigures* find(const std::vector<CycleFigures>& programs, const std::string& name) {
  for (const CycleFigures& p : programs) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// The rows of the first table: tier1's programs, then the anchors' models in their order.
std::vector<const CycleFigures*> table_rows(const std::vector<CycleFigures>& programs, const ojson& tflm) {
  std::vector<const CycleFigures*> rows;
  for (const CycleFigures& p : programs) {
    if (p.name.rfind("tier1_", 0) == 0) rows.push_back(&p);
  }
  for (const auto& [model, facts] : tflm.at("models").items()) {
    if (const CycleFigures* p = find(programs, model)) rows.push_back(p);
  }
  return rows;
}

double millis(uint64_t cycles, double hz) { return static_cast<double>(cycles) / hz * 1000.0; }

// "47 % (TFLM 25 %)": the conv cell, TFLM's estimate beside where the anchors give it.
std::string conv_cell(const CycleFigures& p, const ojson* anchors) {
  const double use = conv_pipe_use(p);
  if (use < 0) return "— (no conv)";
  std::string cell = percent(use);
  if (anchors != nullptr && anchors->contains("tflm_cmsis_nn_conv_mac_pipe_use_estimate")) {
    cell += " (TFLM " + percent(anchors->at("tflm_cmsis_nn_conv_mac_pipe_use_estimate").get<double>()) + ")";
  }
  return cell;
}

void write_table(std::ostringstream& md, const std::vector<const CycleFigures*>& rows, const ojson& tflm, double hz,
                 const std::string& mhz) {
  md << "| program, input A | executed instructions | estimated cycles | CPI (est.) | ms at " << mhz
     << " (est.) | conv MAC-pipe use (est.) | TFLM + CMSIS-NN: executed instructions | TFLM + CMSIS-NN: estimated "
        "cycles | etns ÷ TFLM: instructions | etns ÷ TFLM: est. cycles |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const CycleFigures* p : rows) {
    md << "| **" << p->name << "**" << (p->origin.empty() ? "" : " (" + p->origin + ")") << " | ";
    if (!p->refused.empty()) {
      md << "not run: " << p->refused << " | | | | | | | | | |\n";
      continue;
    }
    const ojson* a = tflm.at("models").contains(p->name) ? &tflm.at("models").at(p->name) : nullptr;
    const double cpi = p->instructions > 0 ? static_cast<double>(p->cycles) / static_cast<double>(p->instructions) : 0;
    md << count(p->instructions) << " | " << count(p->cycles) << " | " << fmt::format("{:.2f}", cpi) << " | "
       << fmt::format("{:.2f}", millis(p->cycles, hz)) << " | " << conv_cell(*p, a) << " | ";
    if (a == nullptr) {
      md << "— | — | — | — |\n";
      continue;
    }
    const auto instructions = a->at("tflm_cmsis_nn_instructions").get<uint64_t>();
    const auto cycles = a->value("tflm_cmsis_nn_cycles_estimate", uint64_t{0});
    md << count(instructions) << " | " << (cycles > 0 ? "≈ " + count(cycles) : std::string(kAbsent)) << " | "
       << ratio(static_cast<double>(p->instructions), static_cast<double>(instructions)) << " | "
       << ratio(static_cast<double>(p->cycles), static_cast<double>(cycles)) << " |\n";
  }
}

// The answer: the models against TFLM as ranges, then the Tier-1 pair.
void write_answer(std::ostringstream& md, const std::vector<const CycleFigures*>& rows, const ojson& tflm, double hz,
                  const std::string& mhz) {
  double low_i = 1e9, high_i = 0, low_c = 1e9, high_c = 0;
  size_t models = 0;
  for (const CycleFigures* p : rows) {
    if (!p->refused.empty() || !tflm.at("models").contains(p->name)) continue;
    const ojson& a = tflm.at("models").at(p->name);
    const double i = static_cast<double>(p->instructions) / a.at("tflm_cmsis_nn_instructions").get<double>();
    const double c = static_cast<double>(p->cycles) / a.value("tflm_cmsis_nn_cycles_estimate", 0.0);
    low_i = std::min(low_i, i), high_i = std::max(high_i, i), low_c = std::min(low_c, c), high_c = std::max(high_c, c);
    ++models;
  }
  md << "**The answer.** One inference on the Cortex-M55 (the firmware under QEMU `mps3-an547`, input A):";
  if (models > 0) {
    static const char* const kWords[] = {"", "", "two", "three", "four", "five", "six"};
    md << " on " << (models == 1 ? std::string("the MLPerf Tiny model")
                                 : std::string("the ") + (models < 7 ? kWords[models] : std::to_string(models).c_str()) +
                                       " MLPerf Tiny models")
       << " etns takes " << fmt::format("{:.2f}–{:.2f}×", low_c, high_c)
       << " the cycles TensorFlow Lite Micro + CMSIS-NN takes (both estimated) and executes "
       << fmt::format("{:.2f}–{:.2f}×", low_i, high_i) << " its instructions (both counted).";
  }
  const CycleFigures* arm = nullptr;
  const CycleFigures* ns = nullptr;
  for (const CycleFigures* p : rows) {
    if (p->name == "tier1_arm" && p->refused.empty()) arm = p;
    if (p->name == "tier1_ns" && p->refused.empty()) ns = p;
  }
  if (arm != nullptr && ns != nullptr) {
    md << " tier1_ns takes an estimated " << count(ns->cycles) << " cycles (" << fmt::format("{:.2f}", millis(ns->cycles, hz))
       << " ms at " << mhz << "), " << ratio(static_cast<double>(ns->cycles), static_cast<double>(arm->cycles))
       << " tier1_arm's, in " << ratio(static_cast<double>(ns->instructions), static_cast<double>(arm->instructions))
       << " its instructions.";
  }
  if (models == 0 && (arm == nullptr || ns == nullptr)) md << " no program ran on qemu-m55.";
  md << " Cycles are estimates, instructions exact counts.\n\n";
}

// What each column is and where the other stack's figures come from.
void write_notes(std::ostringstream& md, const std::vector<const CycleFigures*>& rows, const ojson& tflm,
                 const ojson& board, const std::string& mhz) {
  std::string model;
  for (const CycleFigures* p : rows) {
    if (model.empty() && !p->cycle_model.empty()) model = p->cycle_model;
  }
  const ojson& clock = board.at("clock");
  md << "- *Executed instructions*: exact counts (etns QEMU plugin, one clean `execute()` after a warm-up). "
        "*Estimated cycles*: Cortex-M55 core cycles estimated from them by "
     << (model.empty() ? std::string("the plugin's model") : model)
     << " (each executed block after the one before it, loops at their steady state, 3 cycles per taken "
        "branch): an estimate, not a measurement. *ms*: estimated cycles at "
     << mhz << ", " << clock.at("name").get<std::string>() << " (" << clock.at("source").get<std::string>()
     << "): a conversion, not a timing.\n";
  md << "- *conv MAC-pipe use*: the `quantized_conv2d` calls' MACs (from the program's shapes) ÷ (8 × their "
        "estimated cycles); the M55 does at most 8 int8 MACs per cycle (VMLADAV.S8: 16 in 2 beats).\n";
  const bool any_model = std::any_of(rows.begin(), rows.end(), [&](const CycleFigures* r) {
    return tflm.at("models").contains(r->name);
  });
  const ojson& p = tflm.at("provenance");
  if (!any_model) {
    md << "- *TFLM + CMSIS-NN*: its figures (`bench/anchors/mlperf_tiny_tflm.json`, made outside this "
          "repository) stand beside the MLPerf Tiny models, which `--tflite` imports. tier1 has no TFLite model: "
          "its peers are the board's table below.\n";
  } else {
    md << "- *TFLM + CMSIS-NN*: `bench/anchors/mlperf_tiny_tflm.json`, made outside this repository. Instructions: "
          "counted on "
       << p.at("emulator").get<std::string>() << " by a plugin of the same kind (TFLM "
       << p.at("tflite_micro").get<std::string>() << ", CMSIS-NN " << p.at("cmsis_nn").get<std::string>()
       << ", one `Invoke()` after a warm-up). Cycles (≈): estimated outside this repository with the same LLVM 19 "
          "model, "
       << tflm.at("cycle_estimate").at("uncertainty").get<std::string>()
       << ", TFLM's own code at 1.2 cycles per instruction. tier1 has no TFLite model: its peers are the board's "
          "table below.\n";
  }
  // Each model's input as the section names it, with the model's name as <model>.
  std::string tier1;
  std::vector<std::string> models;
  for (const CycleFigures* r : rows) {
    if (r->name.rfind("tier1_", 0) == 0) {
      if (tier1.empty()) tier1 = r->input;
      continue;
    }
    std::string input = r->input;
    if (const size_t at = input.find(r->name + "."); at != std::string::npos) input.replace(at, r->name.size(), "<model>");
    if (std::find(models.begin(), models.end(), input) == models.end()) models.push_back(input);
  }
  std::string model_inputs;
  for (const std::string& input : models) model_inputs += (model_inputs.empty() ? "" : ", ") + input;
  md << "- Inputs: tier1, " << (tier1.empty() ? std::string("not run") : tier1) << "; the models, "
     << (models.empty() ? std::string("not run (`--tflite` names their folder)") : model_inputs) << ".\n\n";
}

// The etns figure for a board row: a program's whole execute() or one call of an operator.
std::string etns_for(const ojson& row, const std::vector<CycleFigures>& programs, double* cycles) {
  const ojson& e = row.at("etns");
  const CycleFigures* p = find(programs, e.at("program").get<std::string>());
  if (p == nullptr || !p->refused.empty()) return kAbsent;
  if (!e.contains("operator")) {
    *cycles = static_cast<double>(p->cycles);
    return count(p->cycles) + " (" + p->name + ")";
  }
  const auto found = p->operators.find(e.at("operator").get<std::string>());
  if (found == p->operators.end() || found->second.calls == 0) return kAbsent;
  *cycles = static_cast<double>(found->second.cycles) / found->second.calls;
  const std::string op = found->first.substr(found->first.find("::") + 2);
  return format_count(*cycles) + " (" + op.substr(0, op.find('.')) + " in " + p->name + ")";
}

void write_board(std::ostringstream& md, const std::vector<CycleFigures>& programs, const ojson& board,
                 const std::string& mhz) {
  md << "**The board's own table: cycles measured by others on an "
     << board.at("provenance").at("board").get<std::string>() << ", " << mhz
     << ", with other stacks** (`bench/anchors/apollo510_board.json`, from performance-anchors.md, median of 25), "
        "beside etns's estimate for the same work:\n\n"
        "| work | stack on the board | board cycles (measured) | its instructions on QEMU | board cycles ÷ "
        "instructions | etns: estimated cycles | etns (est.) ÷ board |\n|---|---|---:|---:|---:|---:|---:|\n";
  for (const ojson& row : board.at("rows")) {
    const auto measured = row.at("board_cycles").get<uint64_t>();
    const auto qemu = row.value("qemu_instructions", uint64_t{0});
    double ours = 0;
    const std::string etns = etns_for(row, programs, &ours);
    md << "| " << row.at("work").get<std::string>() << " | " << row.at("stack").get<std::string>() << " | "
       << count(measured) << " | " << (qemu > 0 ? count(qemu) : kAbsent) << " | "
       << (qemu > 0 ? fmt::format("{:.2f}", static_cast<double>(measured) / static_cast<double>(qemu)) : kAbsent)
       << " | " << etns << " | " << (ours > 0 ? ratio(ours, static_cast<double>(measured)) : kAbsent) << " |\n";
  }
}

}  // namespace

void fill_cycle_figures(const std::string& pte_path, const QemuRun& run, CycleFigures& figures) {
  if (run.clean_visits.empty()) throw Failure(pte_path + ": the run has no clean execute()");
  figures.cycle_model = run.cycle_model;
  figures.instructions = run.clean_visits.front().get(run.classes, "total");
  figures.cycles = run.clean_visits.front().get(run.classes, "cycles");
  const std::map<std::string, uint64_t> macs = conv_macs(pte_path);
  size_t convs = 0;
  for (const QemuInstruction& instruction : run.instructions) {
    if (instruction.visits.empty()) continue;
    OperatorCycles& op = figures.operators[instruction.operator_name];
    ++op.calls;
    op.instructions += instruction.visits.front().get(run.classes, "total");
    op.cycles += instruction.visits.front().get(run.classes, "cycles");
    if (instruction.operator_name != kConvOperator) continue;
    const auto found = macs.find(instruction.id);
    if (found == macs.end()) throw Failure(pte_path + ": " + instruction.id + " ran " + kConvOperator + ", the program has none there");
    op.macs += found->second;
    ++convs;
  }
  if (convs != macs.size()) {
    throw Failure(pte_path + ": " + std::to_string(macs.size()) + " convolutions in the program, " +
                  std::to_string(convs) + " in the run");
  }
}

CycleFigures measure_cycles(CycleFigures figures, const std::string& pte_path, protocol::Provider provider,
                            const std::vector<uint8_t>& input) {
  try {
    const std::vector<uint8_t> program = read_file(pte_path);
    const HostSession session(pte_path, nullptr);
    QemuJob job;
    job.program = program;
    for (size_t i = 0; i < session.method().input_count(); ++i) {
      job.inputs.push_back(i == 0 && !input.empty() ? input
                                                    : std::vector<uint8_t>(session.method().input(i).nbytes, 0));
    }
    job.warmup = 1;
    job.iterations = 1;
    const QemuRun run = run_on_qemu(resolve_qemu_tools(provider, {}), job, figures.name);
    fill_cycle_figures(pte_path, run, figures);
  } catch (const Failure& failure) {
    figures.refused = failure.what();
  }
  return figures;
}

double conv_pipe_use(const CycleFigures& figures) {
  const auto found = figures.operators.find(kConvOperator);
  if (found == figures.operators.end() || found->second.cycles == 0 || found->second.macs == 0) return -1;
  return static_cast<double>(found->second.macs) /
         (static_cast<double>(kM55Int8MacsPerCycle) * static_cast<double>(found->second.cycles));
}

std::string cycles_first_screen(const std::vector<CycleFigures>& programs, const ojson& tflm, const ojson& board) {
  const double hz = board.at("clock").at("hz").get<double>();
  const std::string mhz = fmt::format("{:g} MHz", hz / 1e6);
  const std::vector<const CycleFigures*> rows = table_rows(programs, tflm);
  std::ostringstream md;
  write_answer(md, rows, tflm, hz, mhz);
  write_table(md, rows, tflm, hz, mhz);
  md << "\n";
  write_notes(md, rows, tflm, board, mhz);
  write_board(md, programs, board, mhz);
  return md.str();
}

std::string cycles_first_screen(const std::vector<CycleFigures>& programs) {
  return cycles_first_screen(programs, ojson::parse(kTflmAnchorsJson), ojson::parse(kBoardAnchorsJson));
}

}  // namespace etns::tools
