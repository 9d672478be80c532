#include "tools/profile/reproduce.h"

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
#include "tools/bench/bench.h"
#include "tools/bundle/bundle.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/program_names.h"
#include "tools/compare/compare.h"
#include "tools/config/config.h"
#include "tools/elf/verify_kernels.h"
#include "tools/export/exporter.h"
#include "tools/lower/lower.h"
#include "tools/profile/golden_check.h"
#include "tools/profile/reproduce_imported.h"
#include "tools/profile/reproduce_size.h"
#include "tools/runner/host_session.h"
#include "tools/runner/model_facts.h"
#include "tools/runner/qemu_session.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The export manifest that belongs to one folder of programs: `etns export`
// writes manifest.json, upstream's exporter <name>_manifest.json. A file
// without a "models" object is not an export manifest and is passed over;
// several are merged, the first by name keeping a model both list.
struct FolderManifest {
  std::optional<ExportManifest> manifest;  // as compare_programs reads it
  std::vector<std::string> files;          // the file names it came from
};

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

// One folder of pairs on the page, and where it came from.
struct Source {
  std::string label;   // "etns" or "upstream": bundle folders, chart files, bench rows
  std::string title;   // "etns export" or "upstream program": the section headings
  std::string origin;  // how the folder came to be, for the page
  std::string dir;
  std::vector<ProgramPair> pairs;
  FolderManifest manifest;
};

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

// The clean pass's median (one whole execute() without per-instruction
// instrumentation) from a bundle's summary, when the run has one.
std::optional<double> clean_median(const Bundle& bundle) {
  if (!bundle.summary.clean_end_to_end) return std::nullopt;
  return bundle.summary.clean_end_to_end->median;
}

constexpr const char* kAbsent = "—";

std::string count_or_absent(const std::optional<double>& value) { return value ? format_count(*value) : kAbsent; }

std::string fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

// Nanoseconds as microseconds to a tenth, grouped as format_count groups: "9,701.8".
std::string micros_text(double nanos) {
  const long long tenths = std::llround(nanos / 100.0);
  return format_count(static_cast<double>(tenths / 10)) + "." + std::to_string(tenths % 10);
}

std::string iterations_text(int64_t count) {
  return std::to_string(count) + (count == 1 ? " iteration" : " iterations");
}

// "12 / 9", with "—" for a side that is absent.
std::string both(const std::optional<double>& arm, const std::optional<double>& ns) {
  return count_or_absent(arm) + " / " + count_or_absent(ns);
}

// The headings of an embedded document two levels down, below the page's "###".
std::string demote_headings(const std::string& markdown) {
  std::istringstream in(markdown);
  std::string out;
  for (std::string line; std::getline(in, line);) out += (line.rfind('#', 0) == 0 ? "##" + line : line) + "\n";
  return out;
}

}  // namespace

std::vector<ProgramPair> find_program_pairs(const std::string& dir, const std::string& option) {
  if (!fs::is_directory(dir)) throw Failure(option + " " + dir + ": not a folder", 2);
  std::vector<ProgramPair> pairs;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::optional<ProgramName> program = parse_program_file_name(name);
    if (!program || program->provider != protocol::Provider::Arm || !ends_with(name, ".pte")) continue;
    const std::string model = program->model;
    const fs::path ns = entry.path().parent_path() / program_file_name(model, protocol::Provider::Ns);
    if (fs::exists(ns)) pairs.push_back({model, fs::absolute(entry.path()).string(), fs::absolute(ns).string()});
  }
  std::sort(pairs.begin(), pairs.end(), [](const ProgramPair& a, const ProgramPair& b) { return a.model < b.model; });
  if (pairs.empty()) throw Failure(option + " " + dir + ": no <model>_arm.pte / <model>_ns.pte pair", 2);
  return pairs;
}

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

bool runs_on(const ReproduceOptions& options, const std::string& target) {
  return std::find(options.targets.begin(), options.targets.end(), target) != options.targets.end();
}

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

// Every bundle of the page: written by the profile runs, read back (and
// verified) once each when the page needs it.
class Bundles {
 public:
  explicit Bundles(fs::path out) : out_(std::move(out)) {}

  std::string dir_of(const std::string& target, const Source& source, const std::string& program) const {
    return (out_ / target / source.label / stem(program)).string();
  }
  const Bundle& get(const std::string& target, const Source& source, const std::string& program) {
    const std::string dir = dir_of(target, source, program);
    auto found = read_.find(dir);
    if (found == read_.end()) found = read_.emplace(dir, read_bundle(dir)).first;
    return found->second;
  }

 private:
  fs::path out_;
  std::map<std::string, Bundle> read_;  // by folder
};

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
// prints them. Sets *ok to false when a check fails.
std::string verify_firmware_kernels(Steps& steps, bool* ok) {
  std::string report;
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
    report += std::string("$ etns verify-kernels --provider ") + protocol::to_string(flavor.provider) +
              (flavor.ns_ops ? " --ns-ops " : " --expect-portable ") + image + "\n" + rendered + "\n";
  }
  return report;
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

// ---- The first screen ----------------------------------------------------------

// "−30.4 %, 0.70×": the change from arm to ns and ns ÷ arm.
std::string change_text(double arm, double ns) {
  if (arm <= 0) return kAbsent;
  char text[64];
  std::snprintf(text, sizeof(text), "%+.1f %%, %.2f×", (ns - arm) / arm * 100.0, ns / arm);
  std::string out = text;
  if (out[0] == '-') out = "−" + out.substr(1);
  return out;
}

std::string arm_to_ns(double arm, double ns, const std::string& unit = "") {
  return format_count(arm) + " → " + format_count(ns) + unit + " (" + change_text(arm, ns) + ")";
}

// A host figure with its spread: "3,884.1 µs (min 3,241.3, MAD 239.8)".
std::string host_spread(const StatsDoc& stats) {
  return micros_text(stats.median) + " µs (min " + micros_text(stats.min) + ", MAD " + micros_text(stats.mad) + ")";
}

// The pairs the first screen leads with: the Tier-1 model and dscnn, of every source.
std::vector<std::pair<const Source*, const ProgramPair*>> headline_pairs(const std::vector<Source>& sources) {
  std::vector<std::pair<const Source*, const ProgramPair*>> pairs;
  for (const char* model : {"tier1", "dscnn"}) {
    for (const Source& source : sources) {
      for (const ProgramPair& pair : source.pairs) {
        if (pair.model == model) pairs.emplace_back(&source, &pair);
      }
    }
  }
  return pairs;
}

// The Tier-1 region(s) of a pair, as compare-programs matched them: "arm
// c0i2–c0i9 → ns c0i2–c0i5" and the two sums; empty when there is none.
struct RegionFigures {
  std::string label;
  double arm = 0, ns = 0;
  bool found = false;
};
RegionFigures tier1_region(const Bundle& arm, const Bundle& ns, const Source& source) {
  RegionFigures r;
  try {
    const ComparisonReport report = compare_programs(arm, ns, source.manifest.manifest);
    for (const nlohmann::json& metric : report.document.value("metrics", nlohmann::json::array())) {
      const std::string name = metric.value("name", "");
      if (name.rfind("Tier-1 region", 0) != 0) continue;
      r.arm += metric.value("baseline", 0.0);
      r.ns += metric.value("candidate", 0.0);
      const size_t open = name.find('('), close = name.rfind(')');
      const std::string ids = open != std::string::npos && close > open ? name.substr(open + 1, close - open - 1) : "";
      r.label += (r.found ? "; " : "") + ids;
      r.found = true;
    }
  } catch (const Failure&) {
    // Not comparable: the model section says why.
  }
  return r;
}

// The input the arm/ns difference is measured on: the export manifest's
// example input for etns's programs, the golden input A for upstream's.
std::vector<uint8_t> comparison_input(const Source& source, const ProgramPair& pair, const std::string& golden_dir,
                                      std::string* described) {
  const fs::path manifest = fs::path(source.dir) / "manifest.json";
  if (fs::is_regular_file(manifest)) {
    const nlohmann::json doc = read_json_file(manifest.string());
    const nlohmann::json* arm = nullptr;
    if (doc.contains("models") && doc["models"].contains(pair.model)) arm = &doc["models"][pair.model]["providers"]["arm"];
    if (arm != nullptr && arm->contains("example_input")) {
      const std::string file = (*arm)["example_input"].get<std::string>();
      *described = "its example input `" + file + "`";
      return read_file((fs::path(source.dir) / file).string());
    }
  }
  const fs::path golden = fs::path(golden_dir) / (pair.model + "_arm.A.input.bin");
  if (!golden_dir.empty() && fs::is_regular_file(golden)) {
    *described = "golden input A";
    return read_file(golden.string());
  }
  *described = "an all-zero input";
  return {};
}

// The first screen: the answer in one paragraph and one table, for the
// Tier-1 pair and dscnn; the goldens; the host, said plainly.
void write_first_screen(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                        Bundles& bundles, const std::optional<GoldenCheck>& goldens) {
  md << "# etns evidence: int8 Tier-1 operators on Cortex-M55\n\n";
  const auto pairs = headline_pairs(sources);
  const bool on_qemu = runs_on(options, "qemu-m55");
  const bool on_host = runs_on(options, "host");
  struct Column {
    std::string title;
    std::optional<double> qemu_arm, qemu_ns;
    RegionFigures region;
    const Bundle* arm = nullptr;  // the first target's, for memory and image sizes
    const Bundle* ns = nullptr;
    const Bundle* qemu_arm_bundle = nullptr;
    const Bundle* qemu_ns_bundle = nullptr;
    const Bundle* host_arm = nullptr;
    const Bundle* host_ns = nullptr;
    std::optional<OutputDifference> lsb;
    std::string lsb_input;
  };
  std::vector<Column> columns;
  for (const auto& [source, pair] : pairs) {
    Column c;
    c.title = pair->model + (sources.size() > 1 ? " (" + source->label + ")" : "");
    const std::string& first = options.targets.front();
    c.arm = &bundles.get(first, *source, pair->arm);
    c.ns = &bundles.get(first, *source, pair->ns);
    if (on_qemu) {
      c.qemu_arm_bundle = &bundles.get("qemu-m55", *source, pair->arm);
      c.qemu_ns_bundle = &bundles.get("qemu-m55", *source, pair->ns);
      c.qemu_arm = clean_median(*c.qemu_arm_bundle);
      c.qemu_ns = clean_median(*c.qemu_ns_bundle);
      c.region = tier1_region(*c.qemu_arm_bundle, *c.qemu_ns_bundle, *source);
    }
    if (on_host) {
      c.host_arm = &bundles.get("host", *source, pair->arm);
      c.host_ns = &bundles.get("host", *source, pair->ns);
    }
    try {
      const std::vector<uint8_t> input = comparison_input(*source, *pair, options.golden_dir, &c.lsb_input);
      c.lsb = compare_lowered(pair->arm, pair->ns, input);
    } catch (const Failure& failure) {
      c.lsb_input = std::string("not measured: ") + failure.what();
    }
    columns.push_back(std::move(c));
  }

  // The paragraph: the Tier-1 pair first.
  if (!columns.empty() && columns.front().qemu_arm && columns.front().qemu_ns) {
    const Column& t = columns.front();
    md << "**The answer.** On the Cortex-M55 (the firmware under QEMU `mps3-an547`; executed instructions counted "
          "by the etns plugin, not cycles), one inference of **"
       << t.title << "** executes " << format_count(*t.qemu_ns) << " instructions with the `cortex_m_ns::` kernels (ns) "
       << "against " << format_count(*t.qemu_arm) << " with the stock lowering (arm): " << change_text(*t.qemu_arm, *t.qemu_ns)
       << ".";
    if (t.region.found) {
      md << " The Tier-1 region, the instructions the ns kernels replace, goes from " << format_count(t.region.arm)
         << " to " << format_count(t.region.ns) << " (" << change_text(t.region.arm, t.region.ns) << ").";
    }
    for (size_t i = 1; i < columns.size(); ++i) {
      const Column& c = columns[i];
      if (!c.qemu_arm || !c.qemu_ns) continue;
      md << " " << c.title << ": " << format_count(*c.qemu_arm) << " → " << format_count(*c.qemu_ns) << " ("
         << change_text(*c.qemu_arm, *c.qemu_ns) << ")" << (c.region.found ? "" : ", no Tier-1 operator in it") << ".";
    }
    if (goldens) {
      md << " The arm programs reproduce " << goldens->equal << " of " << goldens->tensors
         << " upstream golden tensors bit for bit.";
    }
    md << "\n\n";
  }

  md << "| | " ;
  for (const Column& c : columns) md << c.title << ": arm → ns (change, ns ÷ arm) | ";
  md << "\n|---|";
  for (size_t i = 0; i < columns.size(); ++i) md << "---:|";
  md << "\n";
  auto row = [&](const std::string& name, const std::function<std::string(const Column&)>& cell) {
    md << "| " << name << " | ";
    for (const Column& c : columns) md << cell(c) << " | ";
    md << "\n";
  };
  if (on_qemu) {
    row("one `execute()` on the M55: executed instructions", [](const Column& c) {
      return c.qemu_arm && c.qemu_ns ? arm_to_ns(*c.qemu_arm, *c.qemu_ns) : std::string(kAbsent);
    });
    row("Tier-1 region: executed instructions", [](const Column& c) {
      return c.region.found ? arm_to_ns(c.region.arm, c.region.ns) + "<br>" + c.region.label
                            : std::string("none (no Tier-1 operator)");
    });
  }
  row("planned arena", [](const Column& c) {
    return arm_to_ns(static_cast<double>(c.arm->summary.memory.planned_arena),
                     static_cast<double>(c.ns->summary.memory.planned_arena), " B");
  });
  if (on_qemu) {
    row("kernel scratch on the M55", [](const Column& c) {
      return arm_to_ns(static_cast<double>(c.qemu_arm_bundle->summary.memory.scratch_used),
                       static_cast<double>(c.qemu_ns_bundle->summary.memory.scratch_used), " B");
    });
    auto image = [](const Column& c, bool flash) {
      const std::optional<BinaryDoc>& a = c.qemu_arm_bundle->summary.binary;
      const std::optional<BinaryDoc>& n = c.qemu_ns_bundle->summary.binary;
      if (!a || !n) return std::string(kAbsent);
      const auto size = [flash](const BinaryDoc& b) {
        return static_cast<double>(flash ? b.text + b.data : b.data + b.bss);
      };
      return arm_to_ns(size(*a), size(*n), " B");
    };
    row("firmware image: flash (text + data)", [&](const Column& c) { return image(c, true); });
    row("firmware image: static RAM (data + bss, arenas included)", [&](const Column& c) { return image(c, false); });
  }
  if (on_host) {
    row("host `execute()` (this machine, reference kernels)", [](const Column& c) {
      const auto& a = c.host_arm->summary.clean_end_to_end;
      const auto& n = c.host_ns->summary.clean_end_to_end;
      return a && n ? host_spread(*a) + " → " + host_spread(*n) : std::string(kAbsent);
    });
  }
  row("ns output against arm, in output LSBs", [](const Column& c) {
    if (!c.lsb) return c.lsb_input;
    char text[96];
    std::snprintf(text, sizeof(text), "max %.2f, mean %.4f over %zu elements", c.lsb->max_lsb, c.lsb->mean_lsb,
                  c.lsb->elements);
    return std::string(text) + " (" + c.lsb_input + ")";
  });
  md << "\n";

  if (goldens) {
    md << "- **Bit-exact with upstream.** " << goldens->equal << " of " << goldens->tensors
       << " golden tensors (every instruction's output and the final output of " << goldens->programs
       << " upstream arm programs on " << goldens->runs << " runs: ExecuTorch v1.3.0 + CMSIS-NN on x86-64) are "
       << "reproduced byte for byte by the arm firmware under QEMU";
    if (!goldens->differences.empty()) {
      md << "; different: " << goldens->differences.front()
         << (goldens->differences.size() > 1 ? " and " + std::to_string(goldens->differences.size() - 1) + " more" : "");
    }
    md << ".\n";
  }
  if (on_host && !columns.empty() && columns.front().host_arm != nullptr) {
    const Column& t = columns.front();
    const auto& a = t.host_arm->summary.clean_end_to_end;
    const auto& n = t.host_ns->summary.clean_end_to_end;
    if (a && n) {
      const bool faster = n->median < a->median;
      md << "- **On the host** " << t.title << "'s ns program is " << (faster ? "faster" : "slower") << " than arm ("
         << micros_text(n->median) << " against " << micros_text(a->median)
         << " µs, medians). The host runs every kernel's scalar reference (no Helium there), so host time says "
            "little about the M55; the counts above do.";
      const double spread = std::max(a->mad / std::max(a->median, 1.0), n->mad / std::max(n->median, 1.0));
      if (spread > 0.05) {
        md << " The spread is wide (MAD up to " << fixed(spread * 100.0, 0) << " % of the median): treat host "
              "differences below that as noise.";
      }
      md << "\n";
    }
  }
  md << "- Counts are executed instructions, deterministic for a build; not cycles. Each figure is the median of "
     << iterations_text(options.iterations) << " after " << options.warmup << " warm-up runs, all-zero input.\n";
}

// What the numbers count, which programs are on the page, what arm and ns are.
void write_introduction(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources) {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  md << "\n## About this page\n\n";
  md << "Generated by `etns reproduce` (etns " << kEtnsVersion << ") on " << date << ", without a board:\n\n";
  md << "- **qemu-m55**: the Cortex-M55 firmware images under QEMU `mps3-an547`; every number is a count of "
        "**executed instructions** from the etns QEMU plugin (deterministic), not cycles.\n";
  md << "- **host**: the same programs and runtime on this machine, with the host build's kernel variants "
        "(no Helium); every number is wall-clock **nanoseconds**.\n\n";
  md << "Each value is the median of " << iterations_text(options.iterations) << " after " << options.warmup
     << (options.warmup == 1 ? " warm-up run" : " warm-up runs")
     << ", with an all-zero input.\n\n";
  md << "The programs, in `<model>_arm.pte` / `<model>_ns.pte` pairs:\n\n";
  for (const Source& source : sources) {
    md << "- **" << source.title << "** (`" << source.label << "`): " << source.pairs.size()
       << (source.pairs.size() == 1 ? " pair, " : " pairs, ") << source.origin << "; rows matched by structure "
       << (source.manifest.manifest ? "over the operator names of its export manifest (`" +
                                          source.manifest.files.front() + "`" +
                                          (source.manifest.files.size() > 1 ? " and others" : "") + ")"
                                    : std::string("over the programs' own operators (no export manifest beside them)"))
       << ".\n";
  }
  md << "\n";
  md << "**What arm and ns are here.** Both programs run on the same etns runtime and the same "
        "`cortex_m::` kernels (their Helium variants on the M55). `arm` keeps the stock lowering: the "
        "Tier-1 operators run as portable `aten::` kernels inside dequantise/quantise islands, and those "
        "portable kernels are etns's own plain C++, not upstream ExecuTorch's. On some operators ours execute "
        "far fewer instructions than upstream's on the same QEMU board (`aten::sub.out` 147,541 against "
        "328,754; `aten::clamp.out` 147,508 against 393,754), so the arm column is a like-for-like baseline, "
        "not the upstream stack's figures. `ns` replaces the islands with the `cortex_m_ns::` int8 kernels.\n";
}

// One row per (source, model): the figures of a whole run, from the bundles' summaries.
void write_summary_table(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                         Bundles& bundles) {
  const bool on_qemu = runs_on(options, "qemu-m55");
  const bool on_host = runs_on(options, "host");
  md << "\n## Every program pair\n\n"
     << "One row per program pair. *Program instructions*: the entries of the program's instruction list "
        "(operator calls; arm / ns). *Planned arena*: the bytes of the program's planned memory (arm / ns). "
        "*QEMU clean*: Cortex-M55 machine instructions executed by one whole `execute()` without "
        "per-instruction instrumentation, counted by the etns QEMU plugin: a count of executed instructions, "
        "not cycles. *ns ÷ arm*: the ns program's QEMU clean count over the arm program's (below 1: ns "
        "executes fewer). *Host clean*: wall-clock microseconds of the same `execute()` on this machine. "
        "Clean figures are the median of the clean pass's "
     << iterations_text(options.iterations) << "; " << kAbsent << " where a figure is absent (target not run, no clean pass).\n\n"
     << "| model | source | program instructions | planned arena (bytes) | QEMU clean: arm | QEMU clean: ns | "
        "ns ÷ arm | host clean: arm (µs) | host clean: ns (µs) | chart |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  auto micros = [](const std::optional<double>& nanos) { return nanos ? micros_text(*nanos) : std::string(kAbsent); };
  for (const Source& source : sources) {
    for (const ProgramPair& pair : source.pairs) {
      const std::string& first = options.targets.front();
      const Bundle& first_arm = bundles.get(first, source, pair.arm);
      const Bundle& first_ns = bundles.get(first, source, pair.ns);
      std::optional<double> qemu_arm, qemu_ns, host_arm, host_ns;
      if (on_qemu) {
        qemu_arm = clean_median(bundles.get("qemu-m55", source, pair.arm));
        qemu_ns = clean_median(bundles.get("qemu-m55", source, pair.ns));
      }
      if (on_host) {
        host_arm = clean_median(bundles.get("host", source, pair.arm));
        host_ns = clean_median(bundles.get("host", source, pair.ns));
      }
      md << "| " << pair.model << " | " << source.label << " | "
         << both(static_cast<double>(first_arm.summary.layers), static_cast<double>(first_ns.summary.layers)) << " | "
         << both(static_cast<double>(first_arm.summary.memory.planned_arena),
                 static_cast<double>(first_ns.summary.memory.planned_arena))
         << " | "
         << count_or_absent(qemu_arm) << " | " << count_or_absent(qemu_ns) << " | "
         << (qemu_arm && qemu_ns && *qemu_arm > 0 ? fixed(*qemu_ns / *qemu_arm, 2) : std::string(kAbsent)) << " | "
         << micros(host_arm) << " | " << micros(host_ns) << " | [svg](" << source.label << "_" << pair.model
         << ".svg) |\n";
    }
  }
}

void write_bench_section(std::ostringstream& md, const BenchResults& bench) {
  md << "\n## What the fast kernels change (Cortex-M55 under QEMU)\n\n"
     << "Every kernel variant on the Tier-1 shape and the models' layer shapes, and every program run once "
        "with each kernel's scalar reference and once with the fast variants the firmware ships (`etns bench`); "
        "programs are named `<source>/<file>`. "
     << bench_counts_explained(bench) << " Every variant's own row is in `etns bench`'s `bench.md`."
     << "\n\n<details><summary>The kernel and program tables (" << bench.kernels.size() << " kernel variants, "
     << bench.programs.size() / 2 << " programs)</summary>\n\n"
     << bench_compact_tables_markdown(bench, "###") << "\n</details>\n";
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

// The models a section is written for: the Tier-1 pair, its mean variant and dscnn.
bool is_evidence_model(const std::string& model) {
  return model == "tier1" || model == "tier1mean" || model == "dscnn";
}

// One folded section per (source, evidence model): the chart, then
// compare-programs on each target. False when a pair is not comparable.
bool write_model_sections(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                          Bundles& bundles, const fs::path& out) {
  bool ok = true;
  for (const Source& source : sources) {
    for (const ProgramPair& pair : source.pairs) {
      const std::string chart = source.label + "_" + pair.model + ".svg";
      // The evidence models get a section; a coverage model is one row of
      // the table above, its chart and bundles beside the page.
      if (!is_evidence_model(pair.model)) {
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
        md << "#### " << (target == "host" ? "Host (wall time)" : "Cortex-M55 under QEMU (executed instructions)")
           << "\n\n";
        try {
          md << demote_headings(compare_programs(arm, ns, source.manifest.manifest).markdown) << "\n";
        } catch (const Failure& failure) {
          ok = false;
          md << "Not comparable: " << failure.what() << "\n\n";
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

// The firmware kernel checks, then every bundle with its validity.
void write_kernels_and_bundles(std::ostringstream& md, const std::string& kernel_report,
                               const std::vector<RunRecord>& runs, const fs::path& out) {
  md << "\n## Linked kernels and bundles\n\n<details><summary>What each firmware image links (`etns "
        "verify-kernels`)</summary>\n\n```\n"
     << kernel_report << "```\n</details>\n";
  md << "\n<details><summary>Every bundle (" << runs.size()
     << " runs) and its validity</summary>\n\n| source | program | target | validity | bundle |\n|---|---|---|---|---|\n";
  for (const RunRecord& run : runs) {
    md << "| " << run.source << " | " << run.program << " | " << run.target << " | " << run.validity << " | "
       << fs::relative(run.bundle, out).string() << " |\n";
  }
  md << "\n</details>\n";
}

}  // namespace

int reproduce(const ReproduceOptions& options, const ProgressFn& progress) {
  if (!options.tflite_dir.empty() && !fs::is_directory(options.tflite_dir)) {
    throw Failure("--tflite " + options.tflite_dir + ": no such folder", 2);
  }
  const fs::path out = prepare_output(options);
  const std::vector<Source> sources = gather_sources(options, out, progress);
  Steps steps(options, sources, progress);
  Bundles bundles(out);
  std::vector<RunRecord> runs;
  bool ok = profile_every_program(options, sources, bundles, steps, runs);
  const std::string kernel_report = verify_firmware_kernels(steps, &ok);
  std::optional<BenchResults> bench;
  if (runs_on(options, "qemu-m55")) bench = bench_every_program(sources, steps);

  std::optional<GoldenCheck> goldens;
  if (!options.golden_dir.empty() && runs_on(options, "qemu-m55")) {
    if (progress) progress("goldens: every upstream tensor on qemu-m55");
    goldens = check_goldens(options.golden_dir, fs::path(options.golden_dir).parent_path().string(),
                            resolve_qemu_tools(protocol::Provider::Arm, {}));
    ok = ok && goldens->equal == goldens->tensors;
  }

  std::ostringstream md;
  write_first_screen(md, options, sources, bundles, goldens);
  if (!options.tflite_dir.empty() && runs_on(options, "qemu-m55")) {
    const ImportedSection imported = imported_models_section(options.tflite_dir, out.string(), progress);
    md << imported.markdown;
    ok = imported.ok && ok;
  }
  write_summary_table(md, options, sources, bundles);
  ok = write_model_sections(md, options, sources, bundles, out) && ok;
  if (bench) write_bench_section(md, *bench);
  write_size_section(md);
  write_kernels_and_bundles(md, kernel_report, runs, out);
  write_introduction(md, options, sources);
  write_file_atomic((out / "report.md").string(), md.str());
  return ok ? 0 : 1;
}

}  // namespace etns::tools
