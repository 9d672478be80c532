#include "tools/evidence/profile/reproduce.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "protocol/bundle.h"
#include "tools/evidence/bench/bench.h"
#include "tools/evidence/bundle/bundle.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/program_names.h"
#include "tools/evidence/compare/compare.h"
#include "tools/evidence/config/config.h"
#include "tools/evidence/elf/verify_kernels.h"
#include "tools/writers/export/exporter.h"
#include "tools/writers/lower/lower.h"
#include "tools/evidence/profile/golden_check.h"
#include "tools/evidence/profile/reproduce_imported.h"
#include "tools/evidence/profile/reproduce_page.h"
#include "tools/evidence/profile/reproduce_size.h"
#include "tools/evidence/runner/host_session.h"
#include "tools/evidence/runner/model_facts.h"
#include "tools/evidence/runner/qemu_session.h"

namespace etns::tools {

namespace fs = std::filesystem;

namespace reproduce_detail {
namespace {

using json = nlohmann::json;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

FolderManifest find_manifest(const std::string& dir) {
  std::vector<fs::path> candidates;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && (name == "manifest.json" || ends_with(name, "_manifest.json"))) {
      candidates.push_back(entry.path());
    }
  }
  std::sort(candidates.begin(), candidates.end());
  FolderManifest found;
  ExportManifest merged;
  for (const fs::path& file : candidates) {
    const json document = read_json_file(file.string());
    if (!document.is_object() || !document.contains("models") || !document["models"].is_object()) continue;
    std::vector<std::string> known;
    for (const ManifestProgram& program : merged.programs) known.push_back(program.model);
    for (const ManifestProgram& program : read_export_manifest(document, file.string()).programs) {
      if (std::find(known.begin(), known.end(), program.model) == known.end()) merged.programs.push_back(program);
    }
    found.files.push_back(file.filename().string());
  }
  if (!found.files.empty()) found.manifest = merged;
  return found;
}

// The portable kernels a program needs: exactly its aten:: operators.
std::vector<std::string> portable_ops_of(const std::string& program) {
  HostSession session(program, nullptr);
  std::vector<std::string> ops;
  for (size_t i = 0; i < session.method().operator_count(); ++i) {
    const std::string op = session.method().operator_name(i);
    if (op.rfind("aten::", 0) == 0) ops.push_back(op);
  }
  std::sort(ops.begin(), ops.end());
  return ops;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (size_t i = 0; i < items.size(); ++i) text += (i ? ", \"" : "\"") + items[i] + "\"";
  return text + "]";
}

// A folder as the page names it: its last component, never this machine's path.
std::string folder_name(const std::string& dir) {
  const fs::path p = fs::path(dir).lexically_normal();
  return (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
}

std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

struct RunRecord {
  std::string source;
  std::string program;
  std::string target;
  std::string bundle;
  std::string validity;
};

}  // namespace

std::optional<double> clean_median(const Bundle& bundle) {
  if (!bundle.summary.clean_end_to_end) return std::nullopt;
  return bundle.summary.clean_end_to_end->median;
}

std::string fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string micros_text(double nanos) {
  const long long tenths = std::llround(nanos / 100.0);
  return format_count(static_cast<double>(tenths / 10)) + "." + std::to_string(tenths % 10);
}

std::string iterations_text(int64_t count) {
  return std::to_string(count) + (count == 1 ? " iteration" : " iterations");
}

std::string change_text(double arm, double ns) {
  if (arm <= 0) return kAbsent;
  char text[64];
  std::snprintf(text, sizeof(text), "%+.1f %%, %.2f×", (ns - arm) / arm * 100.0, ns / arm);
  std::string out = text;
  if (out[0] == '-') out = "−" + out.substr(1);
  return out;
}

std::string arm_to_ns(double arm, double ns, const std::string& unit) {
  return format_count(arm) + " → " + format_count(ns) + unit + " (" + change_text(arm, ns) + ")";
}

namespace {

// The headings of an embedded document two levels down, below the page's "###".
std::string demote_headings(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string out;
  for (std::string line; std::getline(in, line);) out += (line.rfind('#', 0) == 0 ? "##" + line : line) + "\n";
  return out;
}

}  // namespace
}  // namespace reproduce_detail

std::vector<ProgramPair> find_program_pairs(const std::string& dir, const std::string& option) {
  if (!fs::is_directory(dir)) throw Failure(option + " " + dir + ": not a folder", 2);
  std::vector<ProgramPair> pairs;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::optional<ProgramName> program = parse_program_file_name(name);
    if (!program || program->provider != protocol::Provider::Arm || !reproduce_detail::ends_with(name, ".pte")) continue;
    const std::string model = program->model;
    const fs::path ns = entry.path().parent_path() / program_file_name(model, protocol::Provider::Ns);
    if (fs::exists(ns)) pairs.push_back({model, fs::absolute(entry.path()).string(), fs::absolute(ns).string()});
  }
  std::sort(pairs.begin(), pairs.end(), [](const ProgramPair& a, const ProgramPair& b) { return a.model < b.model; });
  if (pairs.empty()) throw Failure(option + " " + dir + ": no <model>_arm.pte / <model>_ns.pte pair", 2);
  return pairs;
}

namespace reproduce_detail {
namespace {

// ---- The steps of reproduce, in order ------------------------------------------

// The folders of both sources are checked before anything is written,
// exported or profiled; then the output folder is made.
fs::path prepare_output(const ReproduceOptions& options) {
  if (!options.models_dir.empty()) find_program_pairs(options.models_dir, "--models");
  if (!options.upstream_dir.empty()) find_program_pairs(options.upstream_dir, "--upstream");
  const fs::path out = fs::absolute(options.out_dir).lexically_normal();
  std::error_code error;
  fs::create_directories(out, error);
  if (error) throw Failure("cannot create --out " + out.string() + ": " + error.message(), 2);
  return out;
}

// etns's programs (exported into <out>/programs unless --models gives them)
// and, with --upstream, upstream's: each with its pairs and its manifest.
std::vector<Source> gather_sources(const ReproduceOptions& options, const fs::path& out, const ProgressFn& progress) {
  std::vector<Source> sources;
  if (options.models_dir.empty()) {
    // etns's own programs, exported deterministically: nothing outside this repository is needed.
    const std::string dir = (out / "programs").string();
    if (progress) progress("exporting etns's own programs into " + dir);
    write_tier1_export(export_tier1(), dir, [](const std::string&) {});
    sources.push_back({"etns", "etns export", "etns's own programs, exported by `etns export` into `programs/`", dir,
                       {}, {}});
  } else {
    sources.push_back({"etns", "etns export",
                       "the programs given with `--models` (folder `" + folder_name(options.models_dir) + "`)",
                       options.models_dir, {}, {}});
  }
  if (!options.upstream_dir.empty()) {
    sources.push_back({"upstream", "upstream program",
                       "the programs upstream's exporter wrote, given with `--upstream` (folder `" +
                           folder_name(options.upstream_dir) +
                           "`), run here on the same etns runtime and kernels as etns's own",
                       options.upstream_dir, {}, {}});
  }
  for (Source& source : sources) {
    source.pairs = find_program_pairs(source.dir, source.label == "upstream" ? "--upstream" : "--models");
    source.manifest = find_manifest(source.dir);
  }
  return sources;
}

}  // namespace

bool runs_on(const ReproduceOptions& options, const std::string& target) {
  return std::find(options.targets.begin(), options.targets.end(), target) != options.targets.end();
}

namespace {

// Progress names each step as "[k/N] ...": N counts the profile runs, the two
// firmware kernel checks and, on qemu-m55, the bench (the export before is not counted).
class Steps {
 public:
  Steps(const ReproduceOptions& options, const std::vector<Source>& sources, const ProgressFn& progress)
      : progress_(progress) {
    size_t programs = 0;
    for (const Source& source : sources) programs += 2 * source.pairs.size();
    total_ = options.targets.size() * programs + 2 + (runs_on(options, "qemu-m55") ? 1 : 0);
  }
  // The next step begins.
  void begin(const std::string& text) {
    ++done_;
    report(text);
  }
  // Progress within the current step.
  void report(const std::string& text) const {
    if (progress_) progress_("[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + text);
  }

 private:
  const ProgressFn& progress_;
  size_t total_ = 0;
  size_t done_ = 0;
};

// The evidence settings for one program on one target, as overrides of an
// empty configuration: per instruction and clean, every counter group the
// target has, the program's own portable operators, detailed CSVs.
ProfileConfig evidence_config(const ReproduceOptions& options, const std::string& program,
                              protocol::Provider provider, const std::string& target, const std::string& dir) {
  const std::vector<std::string> overrides = {
      "model.path=" + program,
      std::string("engine.backend=") + protocol::to_string(provider),
      "engine.config.portable_ops=" + quoted_list(portable_ops_of(program)),
      "target.board=" + target,
      target == "host" ? "profiling.pmu_counters={cpu: default}"
                       : "profiling.pmu_counters={cpu: default, mve: default, memory: default}",
      "profiling.iterations=" + std::to_string(options.iterations),
      "profiling.warmup=" + std::to_string(options.warmup),
      "output.format=json",
      "output.detailed=true",
      "output.model_explorer=false",
      "output.dir=" + dir};
  return load_profile_config("", overrides, read_model_facts);
}

}  // namespace

std::string Bundles::dir_of(const std::string& target, const Source& source, const std::string& program) const {
  return (out_ / target / source.label / stem(program)).string();
}

const Bundle& Bundles::get(const std::string& target, const Source& source, const std::string& program) {
  const std::string dir = dir_of(target, source, program);
  auto found = read_.find(dir);
  if (found == read_.end()) found = read_.emplace(dir, read_bundle(dir)).first;
  return found->second;
}

namespace {

// Profiles every program of every pair of every source on every target into
// its bundle. False when a run is not valid.
bool profile_every_program(const ReproduceOptions& options, const std::vector<Source>& sources, Bundles& bundles,
                           Steps& steps, std::vector<RunRecord>& runs) {
  bool ok = true;
  for (const std::string& target : options.targets) {
    for (const Source& source : sources) {
      for (const ProgramPair& pair : source.pairs) {
        for (const auto& [program, provider] :
             {std::pair{pair.arm, protocol::Provider::Arm}, std::pair{pair.ns, protocol::Provider::Ns}}) {
          const std::string name = stem(program);
          const std::string dir = bundles.dir_of(target, source, program);
          const ProfileConfig config = evidence_config(options, program, provider, target, dir);
          const std::string what = source.label + " " + name + " on " + target;
          steps.begin(what);
          const ProfileResult result =
              run_profile(config, [&](const std::string& status) { steps.report(what + ": " + status); });
          write_bundle(config, result);
          const std::string validity = validity_of(result.issues);
          ok = ok && validity == protocol::bundle::kValid;
          runs.push_back({source.label, name, target, dir, validity});
        }
      }
    }
  }
  return ok;
}

// The linked kernels of both firmware images, as `etns verify-kernels`
// prints them (`report`), and one page line per image (`summary`). Sets *ok
// to false when a check fails.
struct KernelReport {
  std::string report;
  std::string summary;
};
KernelReport verify_firmware_kernels(Steps& steps, bool* ok) {
  KernelReport out;
  KernelFlavor arm, ns;
  arm.provider = KernelProvider::Arm;
  arm.expect_portable = true;
  ns.provider = KernelProvider::Ns;
  ns.ns_ops = true;
  for (const KernelFlavor& flavor : {arm, ns}) {
    steps.begin(std::string("verify-kernels ") + protocol::to_string(flavor.provider));
    const QemuTools tools = resolve_qemu_tools(flavor.provider, QemuTools{});
    const KernelVerification verification = verify_kernels(ElfImage::load(tools.firmware), flavor);
    *ok = *ok && verification.passed();
    // The page names the image by its place in the build, not by this machine's path.
    const std::string image = "build/firmware/" + fs::path(tools.firmware).filename().string();
    std::string rendered = render_kernel_verification(verification, registered_operator_names());
    for (size_t at; (at = rendered.find(tools.firmware)) != std::string::npos;) {
      rendered.replace(at, tools.firmware.size(), image);
    }
    const std::string command = std::string("etns verify-kernels --provider ") + protocol::to_string(flavor.provider) +
                                (flavor.ns_ops ? " --ns-ops " : " --expect-portable ") + image;
    out.report += "$ " + command + "\n" + rendered + "\n";
    size_t passed = 0;
    std::string failed;
    for (const KernelCheck& check : verification.checks) {
      if (check.status == KernelCheck::Status::Pass) ++passed;
      if (check.status == KernelCheck::Status::Fail) failed += "; FAIL: " + check.rule + ": " + check.detail;
    }
    out.summary += "- `" + command + "`: " + std::to_string(verification.linked_operators.size()) +
                   " operators linked; " + std::to_string(passed) + " of " + std::to_string(verification.checks.size()) +
                   " checks pass" + (verification.passed() ? ": PASS" : failed) + ".\n";
  }
  return out;
}

// What the fast kernels change: every variant of every kernel, and every
// program of both sources with reference and with fast kernels (QEMU only:
// counts). Both sources may hold a tier1_arm.pte: rows are named <source>/<file>.
BenchResults bench_every_program(const std::vector<Source>& sources, Steps& steps) {
  BenchOptions bench_options;
  for (const Source& source : sources) {
    for (const ProgramPair& pair : source.pairs) {
      for (const std::string& program : {pair.arm, pair.ns}) {
        bench_options.programs.push_back(program);
        bench_options.program_labels.push_back(source.label + "/" + fs::path(program).filename().string());
      }
    }
  }
  steps.begin("bench");
  return run_bench(bench_options, [&](const std::string& status) { steps.report("bench " + status); });
}

// ---- The page, section by section ----------------------------------------------

// The models a section is written for: the Tier-1 pair, its mean variant and dscnn.
bool is_evidence_model(const std::string& model) {
  return model == "tier1" || model == "tier1mean" || model == "dscnn";
}

// The page keeps the kernels on the Tier-1 shapes and the evidence models'
// programs; every row is in bench.md and bench.json beside it.
void write_bench_section(std::ostringstream& md, const BenchResults& bench, const fs::path& out) {
  write_file_atomic((out / "bench.md").string(), bench_to_markdown(bench));
  write_file_atomic((out / "bench.json").string(), bench_to_json(bench).dump(2) + "\n");
  BenchResults shown = bench;
  shown.kernels.clear();
  shown.programs.clear();
  for (const KernelBenchRow& row : bench.kernels) {
    if (row.shape.rfind("tier1", 0) == 0) shown.kernels.push_back(row);
  }
  for (const ProgramBenchRow& row : bench.programs) {
    const std::string file = fs::path(row.program).filename().string();
    const std::optional<ProgramName> name = parse_program_file_name(file);
    if (name && is_evidence_model(name->model)) shown.programs.push_back(row);
  }
  md << "\n## What the fast kernels change (Cortex-M55 under QEMU)\n\n"
     << "Each kernel on the Tier-1 shapes, and each evidence program, run once with each kernel's scalar "
        "reference and once with the fast variants the firmware ships (`etns bench`); programs are named "
        "`<source>/<file>`. "
     << bench_counts_explained(bench) << " All " << bench.kernels.size() << " kernel variants (the models' layer "
     << "shapes too) and all " << bench.programs.size() / 2 << " programs: [bench.md](bench.md)."
     << "\n\n<details><summary>The kernels on the Tier-1 shapes and the evidence programs</summary>\n\n"
     << bench_compact_tables_markdown(shown, "###") << "\n</details>\n";
}

// <out>/<chart>: arm and ns per instruction, the values of one target.
void write_chart(const fs::path& file, const std::string& title, const Bundle& arm, const Bundle& ns) {
  std::vector<std::string> labels_a, labels_b;
  std::vector<double> values_a, values_b;
  for (const LayerDoc& layer : arm.results.layers) {
    labels_a.push_back("arm " + layer.id + " " + layer.operator_name);
    values_a.push_back(layer.value);
  }
  for (const LayerDoc& layer : ns.results.layers) {
    labels_b.push_back("ns " + layer.id + " " + layer.operator_name);
    values_b.push_back(layer.value);
  }
  const std::string& unit = arm.summary.metric.unit;
  const ChartTotals totals{clean_median(arm).value_or(arm.summary.per_layer_sum),
                           clean_median(ns).value_or(ns.summary.per_layer_sum)};
  write_file_atomic(file.string(), instruction_chart_svg(title, unit == "instructions" ? "executed instructions (QEMU)" : unit,
                                                         totals, labels_a, values_a, labels_b, values_b));
}

// Whether `source` is the one whose pair of `model` gets a section:
// upstream's when it has the model (the programs the comparison is about),
// else etns's; the other source's pair is a row of the summary table.
bool shows_section(const std::vector<Source>& sources, const Source& source, const std::string& model) {
  for (const char* label : {"upstream", "etns"}) {
    for (const Source& s : sources) {
      if (s.label != label) continue;
      for (const ProgramPair& pair : s.pairs) {
        if (pair.model == model) return &s == &source;
      }
    }
  }
  return false;
}

// One folded section per evidence model (shows_section): the chart, then
// compare-programs on the M55 (on the host when qemu-m55 did not run; the
// host bundles' comparisons are `etns compare-programs` away). False when a
// pair is not comparable.
bool write_model_sections(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                          Bundles& bundles, const fs::path& out) {
  bool ok = true;
  const std::string shown_target = runs_on(options, "qemu-m55") ? "qemu-m55" : "host";
  for (const Source& source : sources) {
    for (const ProgramPair& pair : source.pairs) {
      const std::string chart = source.label + "_" + pair.model + ".svg";
      // The evidence models get a section; a coverage model is one row of
      // the table above, its chart and bundles beside the page, and so is a
      // pair whose arm and ns are the same program, said in one line.
      const bool same_program = read_file(pair.arm) == read_file(pair.ns);
      const bool section = is_evidence_model(pair.model) && shows_section(sources, source, pair.model);
      if (section && same_program) {
        md << "\n**" << pair.model << "** (" << source.title << "): arm and ns are the same program (byte-identical: "
           << "no Tier-1 operator for ns to replace); its row above says all, its chart is [" << chart << "](" << chart
           << ").\n";
      }
      if (!section || same_program) {
        for (const std::string& target : options.targets) {
          try {
            static_cast<void>(compare_programs(bundles.get(target, source, pair.arm),
                                               bundles.get(target, source, pair.ns), source.manifest.manifest));
          } catch (const Failure& failure) {
            ok = false;
            md << "\n" << pair.model << " (" << source.title << ", " << target << ") is not comparable: "
               << failure.what() << "\n";
          }
        }
        write_chart(out / chart, pair.model + " (" + source.title + ") on " + options.targets.front(),
                    bundles.get(options.targets.front(), source, pair.arm),
                    bundles.get(options.targets.front(), source, pair.ns));
        continue;
      }
      std::string headline;
      if (runs_on(options, "qemu-m55")) {
        const std::optional<double> a = clean_median(bundles.get("qemu-m55", source, pair.arm));
        const std::optional<double> n = clean_median(bundles.get("qemu-m55", source, pair.ns));
        if (a && n) headline = ": " + arm_to_ns(*a, *n) + " instructions on the M55";
      }
      md << "\n<details><summary><b>" << pair.model << "</b> — " << source.title << headline
         << "</summary>\n\n";
      md << "![" << pair.model << " (" << source.title << "): "
         << (options.targets.front() == "host" ? "wall time" : "executed instructions")
         << " per program instruction, arm vs ns](" << chart << ")\n\n";
      for (const std::string& target : options.targets) {
        const Bundle& arm = bundles.get(target, source, pair.arm);
        const Bundle& ns = bundles.get(target, source, pair.ns);
        if (target == shown_target) {
          md << "#### " << (target == "host" ? "Host (wall time)" : "Cortex-M55 under QEMU (executed instructions, "
                                                                    "estimated cycles)")
             << "\n\n";
        }
        try {
          const ComparisonReport report = compare_programs(arm, ns, source.manifest.manifest);
          if (target == shown_target) md << demote_headings(report.markdown) << "\n";
        } catch (const Failure& failure) {
          ok = false;
          md << "Not comparable (" << target << "): " << failure.what() << "\n\n";
        }
        if (target == options.targets.front()) {
          write_chart(out / chart, pair.model + " (" + source.title + ") on " + target, arm, ns);
        }
      }
      md << "</details>\n";
    }
  }
  return ok;
}

// The shipped images beside the example a user would build (the consumer
// test's selective kws image, left in the build folder by CTest).
void write_size_section(std::ostringstream& md) {
  const fs::path arm = resolve_qemu_tools(protocol::Provider::Arm, QemuTools{}).firmware;
  const fs::path ns = resolve_qemu_tools(protocol::Provider::Ns, QemuTools{}).firmware;
  const fs::path example = arm.parent_path().parent_path() / "kws-app-consumer" / "kws" / "kws_app.elf";
  md << size_section({{arm.filename().string(), arm.string(), ""},
                      {ns.filename().string(), ns.string(), ""},
                      {"kws-app (kws, selective)", example.string(),
                       "run `ctest --test-dir build -R kws_app_consumer` (it builds the example), then reproduce"}});
}

// The firmware kernel checks, one line per image (the whole report beside
// the page), then the bundles: how many, and every one that is not valid.
void write_kernels_and_bundles(std::ostringstream& md, const KernelReport& kernels, const std::vector<RunRecord>& runs,
                               const fs::path& out) {
  write_file_atomic((out / "verify_kernels.txt").string(), kernels.report);
  md << "\n## Linked kernels and bundles\n\nWhat each firmware image links, checked against its declared build "
        "(`etns verify-kernels`; the whole report: [verify_kernels.txt](verify_kernels.txt)):\n\n"
     << kernels.summary;
  std::vector<const RunRecord*> not_valid;
  for (const RunRecord& run : runs) {
    if (run.validity != protocol::bundle::kValid) not_valid.push_back(&run);
  }
  md << "\n" << runs.size() << " profile runs, each a bundle in `<target>/<source>/<program>`: "
     << (not_valid.empty() ? std::string("every one valid.") : std::to_string(not_valid.size()) + " not valid:") << "\n";
  if (not_valid.empty()) return;
  md << "\n| source | program | target | validity | bundle |\n|---|---|---|---|---|\n";
  for (const RunRecord* run : not_valid) {
    md << "| " << run->source << " | " << run->program << " | " << run->target << " | " << run->validity << " | "
       << fs::relative(run->bundle, out).string() << " |\n";
  }
}

}  // namespace
}  // namespace reproduce_detail

int reproduce(const ReproduceOptions& options, const ProgressFn& progress) {
  using namespace reproduce_detail;
  for (const std::string& dir : options.tflite_dirs) {
    if (!fs::is_directory(dir)) throw Failure("--tflite " + dir + ": no such folder", 2);
  }
  const fs::path out = prepare_output(options);
  const std::vector<Source> sources = gather_sources(options, out, progress);
  Steps steps(options, sources, progress);
  Bundles bundles(out);
  std::vector<RunRecord> runs;
  bool ok = profile_every_program(options, sources, bundles, steps, runs);
  const KernelReport kernel_report = verify_firmware_kernels(steps, &ok);
  std::optional<BenchResults> bench;
  if (runs_on(options, "qemu-m55")) bench = bench_every_program(sources, steps);

  std::optional<GoldenCheck> goldens;
  if (!options.golden_dir.empty() && runs_on(options, "qemu-m55")) {
    if (progress) progress("goldens: every upstream tensor on qemu-m55");
    goldens = check_goldens(options.golden_dir, fs::path(options.golden_dir).parent_path().string(),
                            resolve_qemu_tools(protocol::Provider::Arm, {}));
    ok = ok && goldens->equal == goldens->tensors;
  }

  // The first screen's runs: tier1's pair and the imported models, input A.
  std::vector<CycleFigures> cycles;
  ImportedSection imported;
  if (runs_on(options, "qemu-m55")) {
    cycles = measure_tier1_cycles(options, sources, progress);
    for (const CycleFigures& f : cycles) ok = ok && f.refused.empty();
    if (!options.tflite_dirs.empty()) {
      imported = imported_models_section(options.tflite_dirs, out.string(), progress);
      ok = imported.ok && ok;
      cycles.insert(cycles.end(), imported.figures.begin(), imported.figures.end());
    }
  }

  std::ostringstream md;
  write_first_screen(md, options, sources, bundles, goldens, cycles);
  md << imported.markdown;
  write_summary_table(md, options, sources, bundles);
  ok = write_model_sections(md, options, sources, bundles, out) && ok;
  if (bench) write_bench_section(md, *bench, out);
  write_size_section(md);
  write_kernels_and_bundles(md, kernel_report, runs, out);
  write_introduction(md, options, sources, bundles);
  write_file_atomic((out / "report.md").string(), md.str());
  return ok ? 0 : 1;
}

}  // namespace etns::tools
