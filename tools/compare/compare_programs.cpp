#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>

#include "tools/common/failure.h"
#include "tools/common/program_names.h"
#include "tools/compare/compare.h"

namespace etns::tools {
namespace {

using json = nlohmann::json;

struct Side {
  const Bundle* bundle = nullptr;
  protocol::Provider provider = protocol::Provider::Arm;
  std::vector<std::string> ids;
  std::vector<std::string> labels;
  std::vector<double> values;
  double clean = 0;
  double planned_arena = 0;
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

bool is_stock(const std::string& op) { return starts_with(op, "cortex_m::"); }
bool is_portable(const std::string& op) { return starts_with(op, "aten::"); }

// "aten::mean.out" -> "mean"; "cortex_m_ns::quantized_mean.out" -> "mean".
std::string base_name(const std::string& op) {
  std::string name = op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2);
  name = name.substr(0, name.find('.'));
  if (starts_with(name, "quantized_")) name = name.substr(10);
  return name;
}

Side read_side(const Bundle& bundle) {
  Side side;
  side.bundle = &bundle;
  side.provider = bundle.summary.provider;
  for (const LayerDoc& layer : bundle.results.layers) {
    side.ids.push_back(layer.id);
    side.labels.push_back(layer.operator_name);
    side.values.push_back(layer.value);
  }
  side.clean = bundle.summary.clean_end_to_end ? bundle.summary.clean_end_to_end->value : 0.0;
  side.planned_arena = static_cast<double>(bundle.summary.memory.planned_arena);
  return side;
}

// The manifest entry of a bundle's program, found by SHA-256.
// A model with no Tier-1 operator exports one program for both providers, so
// two entries can share a hash: the one of the bundle's provider is its own.
const ManifestProgram& find_in_manifest(const ExportManifest& manifest, const Bundle& bundle,
                                        protocol::Provider provider) {
  const std::string sha = bundle.metadata.model_sha256.value_or("");
  const ManifestProgram* first = nullptr;
  for (const ManifestProgram& program : manifest.programs) {
    if (program.sha256 != sha) continue;
    if (program.provider == provider) return program;
    if (first == nullptr) first = &program;
  }
  if (first != nullptr) return *first;
  throw Failure(bundle.dir + ": its program (SHA-256 " + sha.substr(0, 12) + "…) is not in the manifest");
}

// Instructions that do the same job in both programs: the same stock
// cortex_m:: operator, or a portable aten:: operator and the cortex_m_ns::
// operator that replaces it (aten::mean.out and quantized_mean.out).
bool stock_match(const std::string& a, const std::string& b) { return is_stock(a) && a == b; }
bool same_job(const std::string& a, const std::string& b) {
  return stock_match(a, b) ||
         (is_portable(a) && starts_with(b, "cortex_m_ns::") && base_name(a) == base_name(b));
}

// The aligned stock instructions (anchors) of a longest common subsequence
// under same_job: the replaced operators align too, which pins the anchors
// around them.
std::vector<std::pair<size_t, size_t>> align_stock(const std::vector<std::string>& a,
                                                   const std::vector<std::string>& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> lcs(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = same_job(a[i], b[j]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<std::pair<size_t, size_t>> anchors;
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (same_job(a[i], b[j]) && lcs[i][j] == lcs[i + 1][j + 1] + 1) {
      if (stock_match(a[i], b[j])) anchors.emplace_back(i, j);
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return anchors;
}

struct Region {
  std::vector<size_t> baseline;   // indices
  std::vector<size_t> candidate;
};

// Stretches between anchors where the baseline runs portable kernels.
std::vector<Region> tier1_regions(const Side& base, const Side& cand) {
  const std::vector<std::pair<size_t, size_t>> pairs = align_stock(base.labels, cand.labels);
  std::vector<Region> regions;
  size_t next_a = 0, next_b = 0;
  auto close_gap = [&](size_t end_a, size_t end_b) {
    Region region;
    for (size_t i = next_a; i < end_a; ++i) region.baseline.push_back(i);
    for (size_t j = next_b; j < end_b; ++j) region.candidate.push_back(j);
    const bool portable = std::any_of(region.baseline.begin(), region.baseline.end(),
                                      [&](size_t i) { return is_portable(base.labels[i]); });
    if (portable) regions.push_back(region);
  };
  for (const auto& [a, b] : pairs) {
    close_gap(a, b);
    next_a = a + 1;
    next_b = b + 1;
  }
  close_gap(base.labels.size(), cand.labels.size());
  return regions;
}

std::string id_range(const Side& side, const std::vector<size_t>& indices) {
  if (indices.empty()) return "none";
  if (indices.size() == 1) return side.ids[indices.front()];
  return side.ids[indices.front()] + "–" + side.ids[indices.back()];
}

double sum_of(const Side& side, const std::vector<size_t>& indices) {
  double sum = 0;
  for (size_t i : indices) sum += side.values[i];
  return sum;
}

std::string model_name_from_path(const Bundle& bundle) {
  const std::string path = bundle.metadata.model_path.empty() ? bundle.dir : bundle.metadata.model_path;
  if (const std::optional<ProgramName> name = parse_program_file_name(path)) return name->model;
  return std::filesystem::path(path).stem().string();
}

// Which side is which program: the bundle's own facts, the manifest's when given.
struct Identity {
  protocol::Provider provider = protocol::Provider::Arm;
  std::string model;     // the manifest's name, or the file name without _arm/_ns
  std::string path;
  std::string sha;
};

Identity identity_of(const Bundle& bundle) {
  Identity id;
  id.provider = bundle.summary.provider;
  id.model = model_name_from_path(bundle);
  id.path = bundle.metadata.model_path;
  id.sha = bundle.metadata.model_sha256.value_or("");
  return id;
}

std::string short_sha(const std::string& sha) { return sha.empty() ? "no SHA-256" : sha.substr(0, 12) + "…"; }

// Refuses (exit 2, one line) anything but the arm program then the ns program
// of one model.
void require_arm_ns_pair(const Bundle& baseline, const Bundle& candidate, const Identity& a, const Identity& b,
                         bool from_manifest) {
  std::error_code error;
  if (baseline.dir == candidate.dir || std::filesystem::equivalent(baseline.dir, candidate.dir, error) ||
      (!baseline.manifest.run_id.empty() && baseline.manifest.run_id == candidate.manifest.run_id)) {
    throw Failure("not an arm/ns pair: " + baseline.dir + " is given twice (the same bundle)", 2);
  }
  // One program under both providers is a pair (a model with no Tier-1
  // operator runs the same file on both); one provider twice is not.
  if (!a.sha.empty() && a.sha == b.sha && a.provider == b.provider) {
    throw Failure("not an arm/ns pair: both bundles profile the same program (" + a.path + ", SHA-256 " +
                      short_sha(a.sha) + "); use etns compare for two runs of one program",
                  2);
  }
  using protocol::Provider;
  if (a.provider == Provider::Ns && b.provider == Provider::Arm) {
    throw Failure("not an arm/ns pair: swapped: the baseline " + baseline.dir + " is the ns program and the candidate " +
                      candidate.dir + " the arm program; give the arm bundle first",
                  2);
  }
  if (a.provider != Provider::Arm || b.provider != Provider::Ns) {
    throw Failure("not an arm/ns pair: the baseline " + baseline.dir + " is provider '" + protocol::to_string(a.provider) +
                      "' and the candidate " + candidate.dir + " provider '" + protocol::to_string(b.provider) +
                      "'; expected arm then ns",
                  2);
  }
  if (a.model != b.model) {
    throw Failure(std::string("not an arm/ns pair: different models (") + (from_manifest ? "the manifest lists " : "file names: ") +
                      a.model + " vs " + b.model + ")" +
                      (from_manifest ? "" : "; pass --manifest if they are one model"),
                  2);
  }
}

// The two programs, identified and checked to be the arm then the ns program
// of one model: by the manifest when given (its provider must be the
// bundle's own), otherwise by the bundles and the file names.
struct Pair {
  Identity baseline;
  Identity candidate;
  const ManifestProgram* baseline_entry = nullptr;  // with a manifest
  const ManifestProgram* candidate_entry = nullptr;
};

Pair identify_pair(const Bundle& baseline, const Bundle& candidate, const std::optional<ExportManifest>& manifest) {
  Pair pair{identity_of(baseline), identity_of(candidate)};
  if (manifest) {
    pair.baseline_entry = &find_in_manifest(*manifest, baseline, pair.baseline.provider);
    pair.candidate_entry = &find_in_manifest(*manifest, candidate, pair.candidate.provider);
    for (const auto& [bundle, entry, id] : {std::tuple{&baseline, pair.baseline_entry, &pair.baseline},
                                            std::tuple{&candidate, pair.candidate_entry, &pair.candidate}}) {
      if (id->provider != entry->provider) {
        throw Failure(bundle->dir + ": profiled as provider '" + protocol::to_string(id->provider) +
                          "' but the manifest lists its program as " + entry->model + " " +
                          protocol::to_string(entry->provider),
                      2);
      }
      id->model = entry->model;
    }
  }
  require_arm_ns_pair(baseline, candidate, pair.baseline, pair.candidate, manifest.has_value());
  return pair;
}

// The manifest's instruction labels and planned arena replace the bundle's own.
void label_from_manifest(Side& side, const ManifestProgram& entry) {
  for (size_t i = 0; i < side.ids.size(); ++i) {
    const auto label = entry.labels.find(side.ids[i]);
    if (label != entry.labels.end()) side.labels[i] = label->second;
  }
  side.planned_arena = entry.planned_arena.value_or(side.planned_arena);
}

// compare-programs' output as it is written: Markdown and the JSON document.
struct Report {
  std::ostringstream md;
  json doc;
};

// What was compared (the document's identity, the "Compared:" line) and the
// heading of the instruction table.
void write_heading(Report& out, const Bundle& baseline, const Bundle& candidate, const Pair& pair, bool from_manifest) {
  const std::string& model = pair.baseline.model;
  const std::string a_name = protocol::to_string(pair.baseline.provider);
  const std::string b_name = protocol::to_string(pair.candidate.provider);
  const SummaryDoc& summary = baseline.summary;
  out.doc = {{"schema", "etns.compare-programs"}, {"schema_version", 1}, {"model", model},
             {"matching", from_manifest ? "manifest" : "structure"}, {"metric", summary.metric.name},
             {"unit", summary.metric.unit}, {"target", summary.target},
             {"baseline", {{"dir", baseline.dir}, {"provider", a_name}, {"path", pair.baseline.path},
                           {"sha256", pair.baseline.sha}}},
             {"candidate", {{"dir", candidate.dir}, {"provider", b_name}, {"path", pair.candidate.path},
                            {"sha256", pair.candidate.sha}}}};
  const std::string& unit = summary.metric.unit;
  const std::string measure = unit == "instructions" ? "executed instructions" : "wall time in " + unit;
  // File names, not paths: this text lands in shared pages (etns reproduce).
  const auto file_name = [](const std::string& path) { return path.substr(path.find_last_of('/') + 1); };
  out.md << "Compared: " << model << " " << a_name << " `" << file_name(pair.baseline.path) << "` (SHA-256 "
         << short_sha(pair.baseline.sha) << ") → " << model << " " << b_name << " `"
         << file_name(pair.candidate.path) << "` (SHA-256 " << short_sha(pair.candidate.sha)
         << "), model and providers " << (from_manifest ? "from the manifest" : "from the bundles and file names")
         << ".\n\n";
  out.md << "## " << model << ": per-instruction " << measure << " (" << summary.metric.name << ", "
         << summary.target << ")\n\n";
}

// Every instruction of both programs side by side, by position.
void write_rows(Report& out, const Side& base, const Side& cand) {
  const std::string a_name = protocol::to_string(base.provider);
  const std::string b_name = protocol::to_string(cand.provider);
  out.md << "| # | " << a_name << " op | " << a_name << " | " << b_name << " op | " << b_name << " |\n";
  out.md << "|---|---|---:|---|---:|\n";
  out.doc["rows"] = json::array();
  const size_t rows = std::max(base.labels.size(), cand.labels.size());
  for (size_t k = 0; k < rows; ++k) {
    json row = {{"index", k}};
    out.md << "| " << k << " | ";
    if (k < base.labels.size()) {
      out.md << base.labels[k] << " | " << format_count(base.values[k]) << " | ";
      row["baseline"] = {{"id", base.ids[k]}, {"op", base.labels[k]}, {"value", base.values[k]}};
    } else {
      out.md << " | | ";
    }
    if (k < cand.labels.size()) {
      out.md << cand.labels[k] << " | " << format_count(cand.values[k]) << " |\n";
      row["candidate"] = {{"id", cand.ids[k]}, {"op", cand.labels[k]}, {"value", cand.values[k]}};
    } else {
      out.md << " | |\n";
    }
    out.doc["rows"].push_back(row);
  }
}

std::vector<size_t> every_index(const Side& side) {
  std::vector<size_t> all(side.values.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

// The run figures side by side: per-instruction sum, clean end to end, the
// Tier-1 regions, every operator one kernel replaces one-for-one, the
// planned arena; each with delta and factor.
void write_metrics(Report& out, const Side& base, const Side& cand, const std::string& unit) {
  const std::string a_name = protocol::to_string(base.provider);
  const std::string b_name = protocol::to_string(cand.provider);
  out.md << "\n| metric | " << a_name << " | " << b_name << " | delta | × |\n|---|---:|---:|---:|---:|\n";
  out.doc["metrics"] = json::array();
  auto metric_row = [&](const std::string& name, double a, double b) {
    out.md << "| " << name << " | " << format_count(a) << " | " << format_count(b) << " | "
           << format_delta_pct(a, b) << " | " << format_factor(a, b) << " |\n";
    json row = {{"name", name}};
    row.update(delta_json(a, b));
    out.doc["metrics"].push_back(row);
  };
  metric_row("per-instruction sum (" + unit + ")", sum_of(base, every_index(base)), sum_of(cand, every_index(cand)));
  metric_row("clean end to end (" + unit + ")", base.clean, cand.clean);
  for (const Region& region : tier1_regions(base, cand)) {
    metric_row("Tier-1 region (" + a_name + " " + id_range(base, region.baseline) + ", " + b_name + " " +
                   id_range(cand, region.candidate) + ")",
               sum_of(base, region.baseline), sum_of(cand, region.candidate));
  }
  // An operator the baseline runs as one portable kernel and the candidate as one Tier-1 kernel.
  for (size_t i = 0; i < base.labels.size(); ++i) {
    if (!is_portable(base.labels[i])) continue;
    std::vector<size_t> matches;
    for (size_t j = 0; j < cand.labels.size(); ++j) {
      if (starts_with(cand.labels[j], "cortex_m_ns::") && base_name(cand.labels[j]) == base_name(base.labels[i])) {
        matches.push_back(j);
      }
    }
    if (matches.size() == 1) {
      metric_row("`" + base_name(base.labels[i]) + "` op alone (" + base.ids[i] + ", " + cand.ids[matches[0]] + ")",
                 base.values[i], cand.values[matches[0]]);
    }
  }
  metric_row("planned arena (bytes)", base.planned_arena, cand.planned_arena);
}

}  // namespace

ExportManifest read_export_manifest(const json& manifest, const std::string& file) {
  const JsonField root(manifest, file);
  ExportManifest out;
  for (const auto& [model, description] : root["models"].members()) {
    for (const auto& [provider_name, entry] : description["providers"].members()) {
      protocol::Provider provider = protocol::Provider::Arm;
      if (!protocol::parse_provider_name(provider_name.c_str(), &provider)) {
        entry.fail("not a provider (expected arm or ns)");
      }
      ManifestProgram program{model, provider, entry["sha256"].optional_text().value_or(""), {},
                              entry["planned_arena_size"].optional_number()};
      for (const JsonField& instruction : entry["instructions"].elements()) {
        program.labels[instruction["id"].text()] = instruction["op"].text();
      }
      out.programs.push_back(program);
    }
  }
  return out;
}

ComparisonReport compare_programs(const Bundle& baseline, const Bundle& candidate,
                                  const std::optional<ExportManifest>& manifest) {
  require_comparable(baseline, candidate);
  const Pair pair = identify_pair(baseline, candidate, manifest);
  Side base = read_side(baseline);
  Side cand = read_side(candidate);
  if (manifest) {
    label_from_manifest(base, *pair.baseline_entry);
    label_from_manifest(cand, *pair.candidate_entry);
  }
  Report out;
  write_heading(out, baseline, candidate, pair, manifest.has_value());
  write_rows(out, base, cand);
  const std::string& unit = baseline.summary.metric.unit;
  write_metrics(out, base, cand, unit);
  out.md << "\nRows matched by " << (manifest ? "manifest" : "structure") << "; values are the "
         << baseline.results.aggregation << " of " << baseline.results.iterations << " iterations";
  if (unit == "instructions") out.md << " (executed instructions counted under QEMU, not cycles)";
  out.md << ".\n";
  return {std::move(out.doc), out.md.str()};
}

}  // namespace etns::tools
