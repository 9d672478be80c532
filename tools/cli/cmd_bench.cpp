#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "tools/evidence/bench/bench.h"
#include "tools/cli/commands.h"
#include "tools/cli/progress_line.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/writers/import/import_program.h"

namespace etns::tools {
namespace {

struct BenchCommand {
  BenchOptions options;
  std::string target = "qemu-m55";
  std::string models_dir;
  std::vector<std::string> tflite_dirs;  // empty: the shared mlperf-tiny and real-tflite folders
  std::string out_dir = "out/bench";
  std::string baseline;
  std::string write_baseline;
};

// $ETNS_SHARED_DIR/models/<name>, else the shared folder this build was configured with.
std::string default_shared_models(const std::string& name) {
  const char* shared = std::getenv("ETNS_SHARED_DIR");
  const std::string root = shared != nullptr && *shared != '\0' ? shared : ETNS_DEFAULT_SHARED_DIR;
  return root + "/models/" + name;
}

// Every regular file of `dir` ending in `extension`, sorted by name.
std::vector<std::string> files_with_extension(const std::string& dir, const std::string& extension) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every <model>_arm.pte and <model>_ns.pte in `dir`, sorted by name.
std::vector<std::string> programs_in(const std::string& dir) {
  std::vector<std::string> programs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string stem = entry.path().stem().string();
    const bool named = stem.size() > 3 && (stem.compare(stem.size() - 4, 4, "_arm") == 0 ||
                                           stem.compare(stem.size() - 3, 3, "_ns") == 0);
    if (entry.is_regular_file() && entry.path().extension() == ".pte" && named) {
      programs.push_back(entry.path().string());
    }
  }
  std::sort(programs.begin(), programs.end());
  return programs;
}

int run_bench_command(BenchCommand command) {
  // Every named file before anything is read or written (exit 2, one line).
  for (const std::string& program : command.options.programs) require_readable(program);
  if (!command.options.kernel_image.empty()) require_readable(command.options.kernel_image);
  if (!command.baseline.empty()) require_readable(command.baseline);
  // Read the baseline before minutes of QEMU runs, so a bad file fails at once.
  nlohmann::json baseline;
  if (!command.baseline.empty()) {
    baseline = read_json_file(command.baseline);
    validate_baseline(baseline, command.baseline);
  }
  BenchResults results;
  std::vector<std::string> notes;
  if (command.options.programs.empty()) {
    const bool given = !command.models_dir.empty();
    if (!given) command.models_dir = default_shared_models("tier1");
    if (std::filesystem::is_directory(command.models_dir)) {
      command.options.programs = programs_in(command.models_dir);
    } else if (given) {
      throw Failure(command.models_dir + ": no such folder (--models)", 2);
    } else {
      notes.push_back("Programs not measured: no models at " + command.models_dir + " (pass --models DIR).");
    }
  }
  // Imported TFLite models: DIR/<m>.tflite -> <out>/imported/<m>_arm.pte, the
  // program `etns import` writes, labelled <folder>/<m>_arm.pte; and
  // <m>_ns.pte where `--provider ns` changes the program.
  const bool tflite_given = !command.tflite_dirs.empty();
  if (!tflite_given) command.tflite_dirs = {default_shared_models("mlperf-tiny"), default_shared_models("real-tflite")};
  if (command.tflite_dirs != std::vector<std::string>{"none"}) {
    const std::string imported_dir = command.out_dir + "/imported";
    if (command.options.program_labels.empty()) {
      for (const std::string& path : command.options.programs) {
        command.options.program_labels.push_back(std::filesystem::path(path).filename().string());
      }
    }
    for (const std::string& dir : command.tflite_dirs) {
      if (!std::filesystem::is_directory(dir)) {
        if (tflite_given) throw Failure(dir + ": no such folder (--tflite)", 2);
        notes.push_back("Imported models not measured: no .tflite models at " + dir + " (pass --tflite DIR).");
        continue;
      }
      const std::vector<std::string> models = files_with_extension(dir, ".tflite");
      if (models.empty() && tflite_given) throw Failure(dir + ": no .tflite file in it (--tflite)", 2);
      const std::string label = std::filesystem::path(dir).filename().string();
      std::filesystem::create_directories(imported_dir + "/" + label);
      for (const std::string& model : models) {
        const std::filesystem::path tflite(model);
        const std::vector<uint8_t> bytes = read_file(model);
        const ImportedProgram arm = import_program(bytes, tflite.filename().string());
        const ImportedProgram ns = import_program(bytes, tflite.filename().string(), protocol::Provider::Ns);
        for (const ImportedProgram* p : {&arm, &ns}) {
          if (p == &ns && ns.pte == arm.pte) continue;
          const std::string name = tflite.stem().string() + (p == &arm ? "_arm.pte" : "_ns.pte");
          const std::string pte = imported_dir + "/" + label + "/" + name;
          write_file_atomic(pte, p->pte.data(), p->pte.size());
          command.options.programs.push_back(pte);
          command.options.program_labels.push_back(label + "/" + name);
        }
      }
    }
  }
  {
    ProgressLine progress;
    results = run_bench(command.options, [&](const std::string& line) { progress.show(line); });
    progress.clear();
  }
  results.notes = notes;

  // The full tables go to bench.md; the terminal gets a summary and the verdict.
  std::filesystem::create_directories(command.out_dir);
  const std::string json_path = command.out_dir + "/bench.json";
  const std::string markdown_path = command.out_dir + "/bench.md";
  write_file_atomic(json_path, bench_to_json(results).dump(2) + "\n");
  write_file_atomic(markdown_path, bench_to_markdown(results));
  std::fputs(bench_summary_text(results, markdown_path, json_path).c_str(), stdout);
  if (!command.write_baseline.empty()) {
    const std::filesystem::path parent = std::filesystem::path(command.write_baseline).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    write_file_atomic(command.write_baseline, baseline_from(results).dump(2) + "\n");
    std::printf("\nbaseline written to %s\n", command.write_baseline.c_str());
  }
  if (command.baseline.empty()) return 0;

  std::vector<std::string> improvements;
  const std::vector<std::string> regressions =
      check_baseline(results, baseline, command.baseline, &improvements);
  for (const std::string& line : improvements) std::fprintf(stderr, "etns: note: %s\n", line.c_str());
  for (const std::string& line : regressions) std::fprintf(stderr, "etns: regression: %s\n", line.c_str());
  const std::string verdict =
      regressions.empty() ? std::string("pass, no instruction or estimated-cycle count above the baseline")
                          : fmt::format("FAIL, {} regressions (each on stderr)", regressions.size());
  std::printf("\ngate %s: %s\n", command.baseline.c_str(), verdict.c_str());
  return regressions.empty() ? 0 : 1;
}

}  // namespace

CommandAction add_bench_command(CLI::App& app) {
  CLI::App* command =
      app.add_subcommand("bench", "count each kernel variant and each program on the Cortex-M55 (QEMU)");
  command->footer(
      "Runs the kernel benchmark image (every variant of every operator, one call each) and every\n"
      "program twice, with the reference kernels and with the fast ones, under QEMU mps3-an547 with the\n"
      "counting plugin; the programs are the --models folder's and each --tflite model as etns import\n"
      "writes it. Each row has the executed instructions (exact; weighted: gathers and scatters once\n"
      "per lane) and the Cortex-M55 cycles estimated from them by LLVM 19's Cortex-M55 scheduling\n"
      "model (an estimate, not a measurement); kernel rows add cycles per MAC or per element and, for\n"
      "MAC kernels, the use of the M55's 8 int8 MACs per cycle. Writes every table to bench.md and the\n"
      "data to bench.json in --out and prints a summary: the program table and, with --baseline, the\n"
      "gate's verdict; exits 1 when any instruction or estimated-cycle count is above the baseline's.\n"
      "Examples: etns bench --baseline bench/baseline_m55.json\n"
      "          etns bench --models out/export --write-baseline bench/baseline_m55.json");
  auto c = std::make_shared<BenchCommand>();
  command->add_option("--target", c->target, "where to count (only qemu-m55: instructions and estimated cycles)")
      ->check(one_of({"qemu-m55"}));
  command->add_option("programs", c->options.programs, "programs (<model>_arm.pte / <model>_ns.pte)");
  command->add_option("--models", c->models_dir, "folder of programs to measure (default ../shared/models/tier1)");
  command->add_option("--tflite", c->tflite_dirs,
                      "folder of int8 .tflite models to import and measure, repeatable (default "
                      "../shared/models/mlperf-tiny and real-tflite; none: skip them)");
  command->add_option("--out", c->out_dir, "output folder for bench.md and bench.json (default out/bench)");
  command->add_option("--baseline", c->baseline, "fail when a count is above this baseline");
  command->add_option("--write-baseline", c->write_baseline,
                      "write this run's instruction and estimated-cycle counts as a baseline");
  command->add_option("--qemu", c->options.qemu, "qemu-system-arm to run (default $ETNS_QEMU or PATH)");
  command->add_option("--image", c->options.kernel_image,
                      "kernel benchmark image (default <build>/firmware/etns_m55_kernel_bench.elf)");
  command->add_option("--timeout", c->options.timeout_seconds, "seconds per QEMU run (default 600)")
      ->check(CLI::PositiveNumber);
  return [c]() { return run_bench_command(*c); };
}

}  // namespace etns::tools
