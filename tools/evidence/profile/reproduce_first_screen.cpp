#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <utility>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "kernels/common/isa.h"
#include "tools/common/text.h"
#include "tools/writers/lower/lower.h"
#include "tools/evidence/profile/reproduce_page.h"

// The evidence page's first screen, one function per block: the title, the
// cycles tables (reproduce_cycles.h), then arm → ns: its paragraph, the
// headline table, the goldens, the host and the counting note.
namespace etns::tools::reproduce_detail {
namespace {

namespace fs = std::filesystem;

// A host figure with its spread: "3,884.1 µs (min 3,241.3, MAD 239.8)".
std::string host_spread(const StatsDoc& stats) {
  return micros_text(stats.median) + " µs (min " + micros_text(stats.min) + ", MAD " + micros_text(stats.mad) + ")";
}

// What the host build runs: each kernel's fastest variant compiled (kernels/common/variant.h).
constexpr const char* kHostKernels =
#if ETNS_HAVE_HWY
    "the host build's Highway SIMD variant of each kernel that has one, else its scalar reference; no Helium";
#else
    "every kernel's scalar variant (this host build has no SIMD variants); no Helium";
#endif

// Whether two host timings differ beyond their noise: the ranges of the
// iterations do not overlap and the medians differ by more than three times
// the larger median absolute deviation.
bool beyond_noise(const StatsDoc& a, const StatsDoc& b) {
  const bool apart = a.max < b.min || b.max < a.min;
  return apart && std::abs(a.median - b.median) > 3.0 * std::max(a.mad, b.mad);
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
      if (name.rfind("Tier-1 region (", 0) != 0) continue;  // not "Tier-1 regions together", their sum
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

// One column of the headline table: one pair's figures on every target.
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
  bool same_program = false;  // arm and ns are byte-identical
};

Column headline_column(const ReproduceOptions& options, const std::vector<Source>& sources, Bundles& bundles,
                       const Source& source, const ProgramPair& pair) {
  Column c;
  c.title = pair.model + (sources.size() > 1 ? " (" + source.label + ")" : "");
  const std::string& first = options.targets.front();
  c.arm = &bundles.get(first, source, pair.arm);
  c.ns = &bundles.get(first, source, pair.ns);
  c.same_program = read_file(pair.arm) == read_file(pair.ns);
  if (runs_on(options, "qemu-m55")) {
    c.qemu_arm_bundle = &bundles.get("qemu-m55", source, pair.arm);
    c.qemu_ns_bundle = &bundles.get("qemu-m55", source, pair.ns);
    c.qemu_arm = clean_median(*c.qemu_arm_bundle);
    c.qemu_ns = clean_median(*c.qemu_ns_bundle);
    c.region = tier1_region(*c.qemu_arm_bundle, *c.qemu_ns_bundle, source);
  }
  if (runs_on(options, "host")) {
    c.host_arm = &bundles.get("host", source, pair.arm);
    c.host_ns = &bundles.get("host", source, pair.ns);
  }
  try {
    const std::vector<uint8_t> input = comparison_input(source, pair, options.golden_dir, &c.lsb_input);
    c.lsb = compare_lowered(pair.arm, pair.ns, input);
  } catch (const Failure& failure) {
    c.lsb_input = std::string("not measured: ") + failure.what();
  }
  return c;
}

// The answer in one paragraph: the Tier-1 pair first, then the others.
void write_answer(std::ostringstream& md, const std::vector<Column>& columns, const std::optional<GoldenCheck>& goldens) {
  if (columns.empty() || !columns.front().qemu_arm || !columns.front().qemu_ns) return;
  const Column& t = columns.front();
  md << "On the Cortex-M55 (executed instructions, exact), one inference of **"
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
       << change_text(*c.qemu_arm, *c.qemu_ns) << ")" << (c.region.found ? "" : ", no Tier-1 operator in it")
       << (c.same_program ? ", the same program" : "") << ".";
  }
  if (goldens) {
    md << " The arm programs reproduce " << goldens->equal << " of " << goldens->tensors
       << " upstream golden tensors bit for bit.";
  }
  md << "\n\n";
}

// The headline table, one column per pair, written row by row.
class HeadlineTable {
 public:
  HeadlineTable(std::ostringstream& md, const std::vector<Column>& columns) : md_(md), columns_(columns) {
    md_ << "| | ";
    for (const Column& c : columns_) md_ << c.title << ": arm → ns (change, ns ÷ arm) | ";
    md_ << "\n|---|";
    for (size_t i = 0; i < columns_.size(); ++i) md_ << "---:|";
    md_ << "\n";
  }
  void row(const std::string& name, const std::function<std::string(const Column&)>& cell) {
    md_ << "| " << name << " | ";
    for (const Column& c : columns_) md_ << cell(c) << " | ";
    md_ << "\n";
  }

 private:
  std::ostringstream& md_;
  const std::vector<Column>& columns_;
};

// The firmware image's flash (text + data) or static RAM (data + bss), arm → ns.
std::string image_sizes(const Column& c, bool flash) {
  const std::optional<BinaryDoc>& a = c.qemu_arm_bundle->summary.binary;
  const std::optional<BinaryDoc>& n = c.qemu_ns_bundle->summary.binary;
  if (!a || !n) return std::string(kAbsent);
  const auto size = [flash](const BinaryDoc& b) { return static_cast<double>(flash ? b.text + b.data : b.data + b.bss); };
  return arm_to_ns(size(*a), size(*n), " B");
}

// The M55's counts: one execute() and the Tier-1 region.
void write_count_rows(HeadlineTable& table) {
  table.row("one `execute()` on the M55: executed instructions", [](const Column& c) {
    return c.qemu_arm && c.qemu_ns ? arm_to_ns(*c.qemu_arm, *c.qemu_ns) : std::string(kAbsent);
  });
  table.row("Tier-1 region: executed instructions", [](const Column& c) {
    return c.region.found ? arm_to_ns(c.region.arm, c.region.ns) + "<br>" + c.region.label
                          : std::string("none (no Tier-1 operator)");
  });
}

// Memory: the planned arena on every target; scratch and the image on the M55.
void write_memory_rows(HeadlineTable& table, bool on_qemu) {
  table.row("planned arena", [](const Column& c) {
    return arm_to_ns(static_cast<double>(c.arm->summary.memory.planned_arena),
                     static_cast<double>(c.ns->summary.memory.planned_arena), " B");
  });
  if (!on_qemu) return;
  table.row("kernel scratch on the M55", [](const Column& c) {
    return arm_to_ns(static_cast<double>(c.qemu_arm_bundle->summary.memory.scratch_used),
                     static_cast<double>(c.qemu_ns_bundle->summary.memory.scratch_used), " B");
  });
  table.row("firmware image: flash (text + data)", [](const Column& c) { return image_sizes(c, true); });
  table.row("firmware image: static RAM (data + bss, arenas included)",
            [](const Column& c) { return image_sizes(c, false); });
}

// Host time, with its verdict: a difference is stated only beyond the noise.
void write_host_row(HeadlineTable& table) {
  table.row("host `execute()` (this machine, wall time; SIMD variants, see below)", [](const Column& c) {
    const auto& a = c.host_arm->summary.clean_end_to_end;
    const auto& n = c.host_ns->summary.clean_end_to_end;
    if (!a || !n) return std::string(kAbsent);
    const std::string times = host_spread(*a) + " → " + host_spread(*n);
    if (c.same_program) return times + ": the same program, so any difference is noise";
    if (!beyond_noise(*a, *n)) return times + ": inside the noise";
    return times + " (" + change_text(a->median, n->median) + ")";
  });
}

void write_lsb_row(HeadlineTable& table) {
  table.row("ns output against arm, in output LSBs", [](const Column& c) {
    if (!c.lsb) return c.lsb_input;
    char text[96];
    std::snprintf(text, sizeof(text), "max %.2f, mean %.4f over %zu elements", c.lsb->max_lsb, c.lsb->mean_lsb,
                  c.lsb->elements);
    return std::string(text) + " (" + c.lsb_input + ")";
  });
}

void write_headline_table(std::ostringstream& md, const std::vector<Column>& columns, bool on_qemu, bool on_host) {
  HeadlineTable table(md, columns);
  if (on_qemu) write_count_rows(table);
  write_memory_rows(table, on_qemu);
  if (on_host) write_host_row(table);
  write_lsb_row(table);
  md << "\n";
}

void write_goldens(std::ostringstream& md, const GoldenCheck& goldens) {
  md << "- **Bit-exact with upstream.** " << goldens.equal << " of " << goldens.tensors
     << " golden tensors (every instruction's output and the final output of " << goldens.programs
     << " upstream arm programs on " << goldens.runs << " runs: ExecuTorch v1.3.0 + CMSIS-NN on x86-64) are "
     << "reproduced byte for byte by the arm firmware under QEMU";
  if (!goldens.differences.empty()) {
    md << "; different: " << goldens.differences.front()
       << (goldens.differences.size() > 1 ? " and " + std::to_string(goldens.differences.size() - 1) + " more" : "");
  }
  md << ".\n";
}

// The host, said plainly: the Tier-1 pair's medians and how far to trust them.
void write_host_note(std::ostringstream& md, const Column& t) {
  const auto& a = t.host_arm->summary.clean_end_to_end;
  const auto& n = t.host_ns->summary.clean_end_to_end;
  if (!a || !n) return;
  md << "- **On the host** (x86-64 wall time; " << kHostKernels << "), " << t.title << "'s ns program takes "
     << micros_text(n->median) << " µs against arm's " << micros_text(a->median) << " (medians): ";
  if (t.same_program) {
    md << "the same program, so the difference is noise.";
  } else if (beyond_noise(*a, *n)) {
    md << (n->median < a->median ? "faster" : "slower")
       << " beyond the noise (the iterations' ranges do not overlap).";
  } else {
    md << "a difference inside the noise, not a finding.";
  }
  md << " A difference is stated only when the ranges do not overlap and the medians differ by more than three "
        "MADs. Host time says little about the M55; the counts do.\n";
}

}  // namespace

std::vector<CycleFigures> measure_tier1_cycles(const ReproduceOptions& options, const std::vector<Source>& sources,
                                               const ProgressFn& progress) {
  for (const char* label : {"upstream", "etns"}) {
    for (const Source& source : sources) {
      if (source.label != label) continue;
      for (const ProgramPair& pair : source.pairs) {
        if (pair.model != "tier1") continue;
        std::string described;
        std::vector<uint8_t> input;
        try {
          input = comparison_input(source, pair, options.golden_dir, &described);
        } catch (const Failure& failure) {
          described = std::string("zeros (") + failure.what() + ")";
        }
        std::vector<CycleFigures> figures;
        for (const auto& [program, provider] :
             {std::pair{pair.arm, protocol::Provider::Arm}, std::pair{pair.ns, protocol::Provider::Ns}}) {
          CycleFigures f;
          f.name = "tier1_" + std::string(protocol::to_string(provider));
          f.origin = source.title;
          f.input = described;
          if (progress) progress("cycles: " + f.name + " (" + source.title + ") on qemu-m55");
          figures.push_back(measure_cycles(f, program, provider, input));
        }
        return figures;
      }
    }
  }
  return {};
}

void write_first_screen(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                        Bundles& bundles, const std::optional<GoldenCheck>& goldens,
                        const std::vector<CycleFigures>& cycles) {
  md << "# etns evidence: int8 models on the Cortex-M55, in estimated cycles and executed instructions\n\n";
  const bool on_qemu = runs_on(options, "qemu-m55");
  const bool on_host = runs_on(options, "host");
  if (on_qemu) {
    md << cycles_first_screen(cycles);
  } else {
    md << "qemu-m55 is not among the targets (`--target`): no executed instructions and no cycle estimates; the "
          "host's wall time only.\n";
  }
  md << "\n## arm → ns: the Tier-1 operators on the same runtime\n\n";
  std::vector<Column> columns;
  for (const auto& [source, pair] : headline_pairs(sources)) {
    columns.push_back(headline_column(options, sources, bundles, *source, *pair));
  }
  write_answer(md, columns, goldens);
  write_headline_table(md, columns, on_qemu, on_host);
  if (goldens) write_goldens(md, *goldens);
  if (on_host && !columns.empty() && columns.front().host_arm != nullptr) write_host_note(md, columns.front());
  md << "- Executed instructions are exact, deterministic for a build. Each figure in this table is the median of "
     << iterations_text(options.iterations) << " after " << options.warmup << " warm-up runs, all-zero input.\n";
}

}  // namespace etns::tools::reproduce_detail
