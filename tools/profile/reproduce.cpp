#include "tools/profile/reproduce.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

#include "tools/bench/bench.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/elf/verify_kernels.h"
#include "tools/profile/bundle.h"
#include "tools/profile/compare.h"
#include "tools/profile/config.h"
#include "tools/runner/host_session.h"
#include "tools/runner/qemu_session.h"

namespace etns::tools {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct ModelPair {
  std::string model;  // "tier1"
  std::string arm;    // absolute paths
  std::string ns;
};

std::vector<ModelPair> find_pairs(const std::string& dir) {
  if (!fs::is_directory(dir)) throw Failure("--models " + dir + ": not a folder", 2);
  std::vector<ModelPair> pairs;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = "_arm.pte";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string model = name.substr(0, name.size() - suffix.size());
    const fs::path ns = entry.path().parent_path() / (model + "_ns.pte");
    if (fs::exists(ns)) pairs.push_back({model, fs::absolute(entry.path()).string(), fs::absolute(ns).string()});
  }
  std::sort(pairs.begin(), pairs.end(), [](const ModelPair& a, const ModelPair& b) { return a.model < b.model; });
  if (pairs.empty()) throw Failure("--models " + dir + ": no <model>_arm.pte / <model>_ns.pte pair", 2);
  return pairs;
}

std::optional<json> find_manifest(const std::string& dir) {
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 14 && name.compare(name.size() - 14, 14, "_manifest.json") == 0) {
      return read_json_file(entry.path().string());
    }
  }
  return std::nullopt;
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

std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

struct RunRecord {
  std::string program;
  std::string target;
  std::string bundle;
  std::string validity;
};

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string instruction_chart_svg(const std::string& title, const std::string& unit,
                                  const std::vector<std::string>& baseline_labels,
                                  const std::vector<double>& baseline_values,
                                  const std::vector<std::string>& candidate_labels,
                                  const std::vector<double>& candidate_values) {
  const int label_width = 380, bar_width = 420, value_width = 120, row = 22, top = 48;
  const size_t rows = baseline_values.size() + candidate_values.size() + 1;  // a gap between programs
  const int height = top + static_cast<int>(rows) * row + 30;
  double max_value = 1;
  for (double v : baseline_values) max_value = std::max(max_value, v);
  for (double v : candidate_values) max_value = std::max(max_value, v);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + bar_width + value_width
      << "\" height=\"" << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(title) << "</text>\n";
  svg << "<text x=\"8\" y=\"38\" fill=\"#555\">" << xml_escape(unit) << " per program instruction; "
      << "blue: arm program, orange: ns program</text>\n";
  int y = top;
  auto bars = [&](const std::vector<std::string>& labels, const std::vector<double>& values, const char* colour) {
    for (size_t i = 0; i < values.size(); ++i) {
      const int width = std::max(1, static_cast<int>(values[i] / max_value * bar_width));
      svg << "<text x=\"" << label_width - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">"
          << xml_escape(labels[i]) << "</text>\n";
      svg << "<rect x=\"" << label_width << "\" y=\"" << y + 4 << "\" width=\"" << width << "\" height=\"" << row - 8
          << "\" fill=\"" << colour << "\"/>\n";
      svg << "<text x=\"" << label_width + width + 4 << "\" y=\"" << y + 15 << "\">" << format_count(values[i])
          << "</text>\n";
      y += row;
    }
  };
  bars(baseline_labels, baseline_values, "#3b6fb6");
  y += row;
  bars(candidate_labels, candidate_values, "#e08a2c");
  svg << "</svg>\n";
  return svg.str();
}

int reproduce(const ReproduceOptions& options, const ProgressFn& progress) {
  const std::vector<ModelPair> pairs = find_pairs(options.models_dir);
  const std::optional<json> manifest = find_manifest(options.models_dir);
  const fs::path out = fs::absolute(options.out_dir).lexically_normal();
  std::error_code error;
  fs::create_directories(out, error);
  if (error) throw Failure("cannot create --out " + out.string() + ": " + error.message(), 2);

  bool ok = true;
  std::vector<RunRecord> runs;
  std::map<std::string, std::string> bundle_of;  // "<target>/<program>" -> bundle dir
  for (const std::string& target : options.targets) {
    for (const ModelPair& pair : pairs) {
      for (const auto& [program, provider] : {std::pair{pair.arm, "arm"}, std::pair{pair.ns, "ns"}}) {
        const std::string name = stem(program);
        const std::string dir = (out / target / name).string();
        const std::vector<std::string> overrides = {
            "model.path=" + program,
            std::string("engine.backend=") + provider,
            std::string("engine.config.ns_ops=") + (std::string(provider) == "ns" ? "true" : "false"),
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
        const ProfileConfig config = load_profile_config("", overrides);
        const ProfileResult result = run_profile(config, [&](const std::string& status) {
          if (progress) progress(name + " on " + target + ": " + status);
        });
        write_bundle(config, result);
        const std::string validity = validity_of(result.issues);
        ok = ok && validity == "valid";
        runs.push_back({name, target, dir, validity});
        bundle_of[target + "/" + name] = dir;
      }
    }
  }

  // The linked kernels of both firmware images.
  std::string kernel_report;
  for (const auto& [provider, flavor] :
       {std::pair{"arm", KernelFlavor{KernelProvider::Arm, false, true}},
        std::pair{"ns", KernelFlavor{KernelProvider::Ns, true, false}}}) {
    const QemuTools tools = resolve_qemu_tools(provider, QemuTools{});
    const KernelVerification verification = verify_kernels(ElfImage::load(tools.firmware), flavor);
    ok = ok && verification.passed();
    kernel_report += "$ etns verify-kernels --provider " + std::string(provider) +
                     (flavor.ns_ops ? " --ns-ops " : " --expect-portable ") + tools.firmware + "\n" +
                     render_kernel_verification(verification) + "\n";
  }

  // What the fast kernels change: every variant of every kernel, and every
  // program with reference and with fast kernels (QEMU only: counts).
  std::optional<BenchResults> bench;
  if (std::find(options.targets.begin(), options.targets.end(), "qemu-m55") != options.targets.end()) {
    BenchOptions bench_options;
    for (const ModelPair& pair : pairs) {
      bench_options.programs.push_back(pair.arm);
      bench_options.programs.push_back(pair.ns);
    }
    bench = run_bench(bench_options, [&](const std::string& status) {
      if (progress) progress("bench " + status);
    });
  }

  std::ostringstream md;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
  md << "# etns evidence: int8 Tier-1 operators on Cortex-M55\n\n";
  md << "Generated by `etns reproduce` (etns " << kEtnsVersion << ") on " << date << ", without a board:\n\n";
  md << "- **qemu-m55**: the Cortex-M55 firmware images under QEMU `mps3-an547`; every number is a count of "
        "**executed instructions** from the etns QEMU plugin (deterministic), not cycles.\n";
  md << "- **host**: the same kernels on this machine; every number is wall-clock **nanoseconds**.\n\n";
  md << "Each value is the median of " << options.iterations << " iterations after " << options.warmup
     << " warm-up runs, with an all-zero input (as the reference profiler). Rows are matched "
     << (manifest ? "through the export manifest" : "by the programs' structure") << ".\n\n";
  md << "**What arm and ns are here.** Both programs run on the same etns runtime and the same "
        "`cortex_m::` kernels (their Helium variants on the M55). `arm` keeps the stock lowering: the "
        "Tier-1 operators run as portable `aten::` kernels inside dequantise/quantise islands, and those "
        "portable kernels are etns's own plain C++, not upstream ExecuTorch's. On some operators ours execute "
        "far fewer instructions than upstream's on the same QEMU board (`aten::sub.out` 147,541 against "
        "328,754; `aten::clamp.out` 147,508 against 393,754), so the arm column is a like-for-like baseline, "
        "not the upstream stack's figures. `ns` replaces the islands with the `cortex_m_ns::` int8 kernels.\n";
  if (bench) {
    md << "\n## What the fast kernels change (Cortex-M55 under QEMU)\n\n"
       << "Every kernel variant on the Tier-1 shape, and every program run once with each kernel's scalar "
          "reference and once with the fast variants the firmware ships (`etns bench`). "
       << bench_counts_explained(*bench) << "\n"
       << bench_tables_markdown(*bench, "###");
  }
  for (const ModelPair& pair : pairs) {
    md << "\n## " << pair.model << "\n\n";
    md << "![" << pair.model << ": executed instructions per program instruction, arm vs ns](" << pair.model
       << ".svg)\n\n";
    for (const std::string& target : options.targets) {
      const Bundle arm = read_bundle(bundle_of[target + "/" + stem(pair.arm)]);
      const Bundle ns = read_bundle(bundle_of[target + "/" + stem(pair.ns)]);
      md << "### " << (target == "host" ? "Host (wall time)" : "Cortex-M55 under QEMU (executed instructions)")
         << "\n\n";
      try {
        md << compare_programs(arm, ns, manifest).markdown << "\n";
      } catch (const Failure& failure) {
        ok = false;
        md << "Not comparable: " << failure.what() << "\n\n";
      }
      if (target == options.targets.front()) {
        std::vector<std::string> labels_a, labels_b;
        std::vector<double> values_a, values_b;
        for (const json& layer : arm.results["layers"]) {
          labels_a.push_back("arm " + layer["id"].get<std::string>() + " " + layer["operator"].get<std::string>());
          values_a.push_back(layer["value"].get<double>());
        }
        for (const json& layer : ns.results["layers"]) {
          labels_b.push_back("ns " + layer["id"].get<std::string>() + " " + layer["operator"].get<std::string>());
          values_b.push_back(layer["value"].get<double>());
        }
        const std::string unit = arm.summary["metric"].value("unit", "");
        write_file_atomic((out / (pair.model + ".svg")).string(),
                          instruction_chart_svg(pair.model + " on " + target, unit == "instructions"
                                                                                   ? "executed instructions (QEMU)"
                                                                                   : unit,
                                                labels_a, values_a, labels_b, values_b));
      }
    }
  }
  md << "\n## Linked kernels\n\n```\n" << kernel_report << "```\n";
  md << "\n## Bundles\n\n| program | target | validity | bundle |\n|---|---|---|---|\n";
  for (const RunRecord& run : runs) {
    md << "| " << run.program << " | " << run.target << " | " << run.validity << " | "
       << fs::relative(run.bundle, out).string() << " |\n";
  }
  write_file_atomic((out / "report.md").string(), md.str());
  return ok ? 0 : 1;
}

}  // namespace etns::tools
