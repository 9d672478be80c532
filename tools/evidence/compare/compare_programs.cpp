#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

#include "tools/common/failure.h"
#include "tools/common/program_names.h"
#include "tools/evidence/compare/compare.h"

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
  // The estimated cycles (CPU_CYCLES) of each instruction and of the clean
  // execute(), when the bundle has the estimate.
  bool has_cycles = false;
  std::vector<double> cycles;
  double clean_cycles = 0;
  std::optional<std::string> cycle_model;
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

bool is_portable(const std::string& op) { return starts_with(op, "aten::"); }
bool is_tier1(const std::string& op) { return starts_with(op, "cortex_m_ns::"); }

// "aten::mean.out" -> "mean"; "cortex_m_ns::quantized_mean.out" -> "mean".
std::string base_name(const std::string& op) {
  std::string name = op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2);
  name = name.substr(0, name.find('.'));
  if (starts_with(name, "quantized_")) name = name.substr(10);
  return name;
}

// The anchors of match_by_structure: pairs (i, j) with a[i] == b[j], as
// many as possible, and among those the fewest unmatched stretches. Scores
// are anchors × weight − stretches, with a weight above any stretch count.
// fresh[i][j] is the best score of the suffixes a[i..], b[j..] right after an
// anchor (or at the start), where skipping an instruction opens a stretch;
// open[i][j] the same inside a stretch already counted. Ties prefer the
// anchor, then skipping the baseline's instruction: deterministic.
std::vector<std::pair<size_t, size_t>> anchors_of(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const size_t n = a.size(), m = b.size();
  const long long weight = static_cast<long long>(n + m) + 2;
  std::vector<std::vector<long long>> fresh(n + 1, std::vector<long long>(m + 1, 0));
  std::vector<std::vector<long long>> open = fresh;
  for (size_t i = n + 1; i-- > 0;) {
    for (size_t j = m + 1; j-- > 0;) {
      if (i == n && j == m) continue;
      long long best_fresh = std::numeric_limits<long long>::min(), best_open = best_fresh;
      if (i < n && j < m && a[i] == b[j]) best_fresh = best_open = weight + fresh[i + 1][j + 1];
      if (i < n) {
        best_fresh = std::max(best_fresh, open[i + 1][j] - 1);
        best_open = std::max(best_open, open[i + 1][j]);
      }
      if (j < m) {
        best_fresh = std::max(best_fresh, open[i][j + 1] - 1);
        best_open = std::max(best_open, open[i][j + 1]);
      }
      fresh[i][j] = best_fresh;
      open[i][j] = best_open;
    }
  }
  std::vector<std::pair<size_t, size_t>> anchors;
  size_t i = 0, j = 0;
  bool in_stretch = false;
  while (i < n || j < m) {
    const long long here = in_stretch ? open[i][j] : fresh[i][j];
    const long long skip_cost = in_stretch ? 0 : 1;
    if (i < n && j < m && a[i] == b[j] && here == weight + fresh[i + 1][j + 1]) {
      anchors.emplace_back(i++, j++);
      in_stretch = false;
    } else if (i < n && here == open[i + 1][j] - skip_cost) {
      ++i;
      in_stretch = true;
    } else {
      ++j;
      in_stretch = true;
    }
  }
  return anchors;
}

}  // namespace

const char* code_of(RowMatch match) {
  switch (match) {
    case RowMatch::SameOperator: return "same_operator";
    case RowMatch::Group: return "group";
    case RowMatch::OnlyInBaseline: return "only_in_baseline";
    case RowMatch::OnlyInCandidate: return "only_in_candidate";
  }
  return "unknown";
}

std::vector<MatchedRow> match_by_structure(const std::vector<std::string>& baseline,
                                           const std::vector<std::string>& candidate) {
  std::vector<MatchedRow> rows;
  size_t next_a = 0, next_b = 0;
  auto close_stretch = [&](size_t end_a, size_t end_b) {
    MatchedRow row;
    for (size_t i = next_a; i < end_a; ++i) row.baseline.push_back(i);
    for (size_t j = next_b; j < end_b; ++j) row.candidate.push_back(j);
    if (row.baseline.empty() && row.candidate.empty()) return;
    if (row.candidate.empty()) {
      row.match = RowMatch::OnlyInBaseline;
    } else if (row.baseline.empty()) {
      row.match = RowMatch::OnlyInCandidate;
    } else {
      row.match = RowMatch::Group;
      // The float island profiler.md §10.4 defines: ns's Tier-1 kernels in
      // place of arm's portable ones. ns's hardswish in place of stock
      // kernels is a group, not a region.
      row.tier1_region = std::any_of(row.candidate.begin(), row.candidate.end(),
                                     [&](size_t j) { return is_tier1(candidate[j]); }) &&
                         std::any_of(row.baseline.begin(), row.baseline.end(),
                                     [&](size_t i) { return is_portable(baseline[i]); });
    }
    rows.push_back(std::move(row));
  };
  for (const auto& [a, b] : anchors_of(baseline, candidate)) {
    close_stretch(a, b);
    rows.push_back({RowMatch::SameOperator, {a}, {b}, false});
    next_a = a + 1;
    next_b = b + 1;
  }
  close_stretch(baseline.size(), candidate.size());
  return rows;
}

namespace {

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
  const std::optional<CyclesDoc>& cycles = bundle.summary.cycles;
  side.has_cycles = cycles && cycles->clean_end_to_end &&
                    std::all_of(bundle.results.layers.begin(), bundle.results.layers.end(),
                                [](const LayerDoc& layer) { return layer.cycles.has_value(); });
  if (side.has_cycles) {
    for (const LayerDoc& layer : bundle.results.layers) side.cycles.push_back(*layer.cycles);
    side.clean_cycles = cycles->clean_end_to_end->value;
    if (bundle.metadata.cycles) side.cycle_model = bundle.metadata.cycles->model;
  }
  return side;
}

// The side with its estimated cycles as its values, for the tables in cycles.
Side in_cycles(const Side& side) {
  Side cycles = side;
  cycles.values = side.cycles;
  cycles.clean = side.clean_cycles;
  return cycles;
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
             {"matching", "structure"},
             {"operator_names", from_manifest ? "manifest" : "bundles"}, {"metric", summary.metric.name},
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
  out.md << "Rows matched by structure" << (from_manifest ? " over the export manifest's operator names" : "")
         << ": operators both programs run, in the same order, pair up (same operator), and the instructions "
            "between two such pairs are compared as one group, a Tier-1 region when "
         << b_name << " runs a `cortex_m_ns::` kernel there in place of " << a_name << "'s portable kernels.\n\n";
}

const char* match_text(RowMatch match) {
  switch (match) {
    case RowMatch::SameOperator: return "same operator";
    case RowMatch::Group: return "group";
    case RowMatch::OnlyInBaseline: return "only in ";
    case RowMatch::OnlyInCandidate: return "only in ";
  }
  return "";
}

// One side of a row, for people: the id or id range, the operator or the
// group's members each with its value, and the value (the members' sum).
struct SideCells {
  std::string ids, ops, value;
};

SideCells side_cells(const Side& side, const std::vector<size_t>& indices) {
  SideCells cells;
  if (indices.empty()) return cells;
  cells.ids = id_range(side, indices);
  for (size_t k = 0; k < indices.size(); ++k) {
    if (k > 0) cells.ops += " + ";
    cells.ops += side.labels[indices[k]];
    if (indices.size() > 1) cells.ops += " (" + format_count(side.values[indices[k]]) + ")";
  }
  cells.value = format_count(sum_of(side, indices));
  return cells;
}

json side_json(const Side& side, const std::vector<size_t>& indices) {
  json ids = json::array(), ops = json::array(), values = json::array();
  for (size_t i : indices) {
    ids.push_back(side.ids[i]);
    ops.push_back(side.labels[i]);
    values.push_back(side.values[i]);
  }
  json out = {{"ids", ids}, {"ops", ops}, {"values", values}, {"value", sum_of(side, indices)}};
  if (side.has_cycles) {
    const Side cycles = in_cycles(side);
    json each = json::array();
    for (size_t i : indices) each.push_back(cycles.values[i]);
    out["cycles"] = each;
    out["cycles_value"] = sum_of(cycles, indices);
  }
  return out;
}

// The table of the structural match's rows, in the sides' values.
void write_rows_table(std::ostringstream& md, const Side& base, const Side& cand, const std::vector<MatchedRow>& rows) {
  const std::string a_name = protocol::to_string(base.provider);
  const std::string b_name = protocol::to_string(cand.provider);
  md << "| # | " << a_name << " | " << a_name << " op | " << a_name << " value | " << b_name << " | " << b_name
     << " op | " << b_name << " value | delta | × (" << b_name << " ÷ " << a_name << ") | match |\n";
  md << "|---|---|---|---:|---|---|---:|---:|---:|---|\n";
  for (size_t k = 0; k < rows.size(); ++k) {
    const MatchedRow& row = rows[k];
    const SideCells a = side_cells(base, row.baseline);
    const SideCells b = side_cells(cand, row.candidate);
    std::string match = match_text(row.match);
    if (row.match == RowMatch::OnlyInBaseline) match += a_name;
    if (row.match == RowMatch::OnlyInCandidate) match += b_name;
    if (row.tier1_region) match += " (Tier-1 region)";
    std::string delta, factor;
    if (!row.baseline.empty() && !row.candidate.empty()) {
      const double va = sum_of(base, row.baseline), vb = sum_of(cand, row.candidate);
      delta = format_delta_pct(va, vb);
      factor = format_factor(va, vb);
    }
    md << "| " << k << " | " << a.ids << " | " << a.ops << " | " << a.value << " | " << b.ids << " | " << b.ops
       << " | " << b.value << " | " << delta << " | " << factor << " | " << match << " |\n";
  }
}

// Every instruction of both programs once, in the rows of the structural
// match; each row says how it was matched. In the JSON, each side's
// estimated cycles and the row's change in them, when both sides have them.
void write_rows(Report& out, const Side& base, const Side& cand, const std::vector<MatchedRow>& rows) {
  write_rows_table(out.md, base, cand, rows);
  const bool cycles = base.has_cycles && cand.has_cycles;
  out.doc["rows"] = json::array();
  for (size_t k = 0; k < rows.size(); ++k) {
    const MatchedRow& row = rows[k];
    json entry = {{"index", k}, {"match", code_of(row.match)}, {"tier1_region", row.tier1_region}};
    if (!row.baseline.empty()) entry["baseline"] = side_json(base, row.baseline);
    if (!row.candidate.empty()) entry["candidate"] = side_json(cand, row.candidate);
    if (!row.baseline.empty() && !row.candidate.empty()) {
      const json numbers = delta_json(sum_of(base, row.baseline), sum_of(cand, row.candidate));
      for (const char* key : {"delta", "delta_pct", "factor"}) entry[key] = numbers[key];
      if (cycles) {
        entry["cycles"] = delta_json(sum_of(in_cycles(base), row.baseline), sum_of(in_cycles(cand), row.candidate));
      }
    }
    out.doc["rows"].push_back(entry);
  }
}

std::vector<size_t> every_index(const Side& side) {
  std::vector<size_t> all(side.values.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

// The run figures side by side: per-instruction sum, clean end to end, each
// Tier-1 region (and all of them together when there are several), every
// portable operator a region's one Tier-1 kernel of the same name replaces,
// the planned arena; each with delta and factor. When both sides have the
// cycle estimate, each figure but the arena is followed by its estimated
// cycles (the JSON's `cycles.metrics`, so that `metrics` keeps its rows).
void write_metrics(Report& out, const Side& base, const Side& cand, const std::vector<MatchedRow>& rows,
                   const std::string& unit) {
  const std::string a_name = protocol::to_string(base.provider);
  const std::string b_name = protocol::to_string(cand.provider);
  const bool cycles = base.has_cycles && cand.has_cycles;
  const Side cycles_a = in_cycles(base), cycles_b = in_cycles(cand);
  out.md << "\n| metric | " << a_name << " | " << b_name << " | delta | × (" << b_name << " ÷ " << a_name
         << ") |\n|---|---:|---:|---:|---:|\n";
  out.doc["metrics"] = json::array();
  json cycle_metrics = json::array();
  auto table_row = [&](const std::string& name, double a, double b, json& into) {
    out.md << "| " << name << " | " << format_count(a) << " | " << format_count(b) << " | "
           << format_delta_pct(a, b) << " | " << format_factor(a, b) << " |\n";
    json row = {{"name", name}};
    row.update(delta_json(a, b));
    into.push_back(row);
  };
  auto metric_row = [&](const std::string& name, double a, double b) { table_row(name, a, b, out.doc["metrics"]); };
  // The same figure in estimated cycles, over the same instructions.
  auto cycles_row = [&](const std::string& name, const std::vector<size_t>& ia, const std::vector<size_t>& ib) {
    if (cycles) table_row(name, sum_of(cycles_a, ia), sum_of(cycles_b, ib), cycle_metrics);
  };
  const std::string in_cycles_text = std::string(" in ") + kEstimatedCyclesUnit;
  metric_row("per-instruction sum (" + unit + ")", sum_of(base, every_index(base)), sum_of(cand, every_index(cand)));
  cycles_row(std::string("per-instruction sum (") + kEstimatedCyclesUnit + ")", every_index(base), every_index(cand));
  metric_row("clean end to end (" + unit + ")", base.clean, cand.clean);
  if (cycles) {
    table_row(std::string("clean end to end (") + kEstimatedCyclesUnit + ")", base.clean_cycles, cand.clean_cycles,
              cycle_metrics);
  }
  out.doc["tier1_regions"] = json::array();
  std::vector<size_t> all_a, all_b;
  for (const MatchedRow& row : rows) {
    if (!row.tier1_region) continue;
    const std::string name = "Tier-1 region (" + a_name + " " + id_range(base, row.baseline) + ", " + b_name + " " +
                             id_range(cand, row.candidate) + ")";
    metric_row(name, sum_of(base, row.baseline), sum_of(cand, row.candidate));
    cycles_row(name + in_cycles_text, row.baseline, row.candidate);
    json region = {{"baseline_ids", side_json(base, row.baseline)["ids"]},
                   {"candidate_ids", side_json(cand, row.candidate)["ids"]}};
    region.update(delta_json(sum_of(base, row.baseline), sum_of(cand, row.candidate)));
    region["cycles"] = cycles ? delta_json(sum_of(cycles_a, row.baseline), sum_of(cycles_b, row.candidate)) : json();
    out.doc["tier1_regions"].push_back(region);
    all_a.insert(all_a.end(), row.baseline.begin(), row.baseline.end());
    all_b.insert(all_b.end(), row.candidate.begin(), row.candidate.end());
  }
  if (out.doc["tier1_regions"].size() > 1) {
    const std::string name = "Tier-1 regions together (" + std::to_string(out.doc["tier1_regions"].size()) + ")";
    metric_row(name, sum_of(base, all_a), sum_of(cand, all_b));
    cycles_row(name + in_cycles_text, all_a, all_b);
  }
  // Inside a region: a portable operator and the one Tier-1 kernel of the same name there.
  for (const MatchedRow& row : rows) {
    if (!row.tier1_region) continue;
    for (size_t i : row.baseline) {
      if (!is_portable(base.labels[i])) continue;
      std::vector<size_t> matches;
      for (size_t j : row.candidate) {
        if (is_tier1(cand.labels[j]) && base_name(cand.labels[j]) == base_name(base.labels[i])) matches.push_back(j);
      }
      if (matches.size() == 1) {
        const std::string name =
            "`" + base_name(base.labels[i]) + "` op alone (" + base.ids[i] + ", " + cand.ids[matches[0]] + ")";
        metric_row(name, base.values[i], cand.values[matches[0]]);
        cycles_row(name + in_cycles_text, {i}, {matches[0]});
      }
    }
  }
  metric_row("planned arena (bytes)", base.planned_arena, cand.planned_arena);
  if (out.doc["tier1_regions"].empty()) {
    out.md << "\nNo Tier-1 region: " << b_name << " runs no `cortex_m_ns::` operator in place of " << a_name
           << "'s portable kernels.\n";
  }
  out.doc["cycles"] = json();
  if (cycles) {
    out.doc["cycles"] = {{"counter", kCycleCounter},
                         {"unit", kEstimatedCyclesUnit},
                         {"estimated", true},
                         {"baseline_model", json_or_null(base.cycle_model)},
                         {"candidate_model", json_or_null(cand.cycle_model)},
                         {"metrics", cycle_metrics}};
  }
}

// Where the estimated cycles come from, or why there are none.
void write_cycles_note(Report& out, const Side& base, const Side& cand) {
  const std::string a_name = protocol::to_string(base.provider);
  const std::string b_name = protocol::to_string(cand.provider);
  if (base.has_cycles != cand.has_cycles) {
    out.md << "Estimated cycles: only the " << (base.has_cycles ? a_name : b_name) << " bundle has them ("
           << kCycleCounter << "), so none are compared.\n";
    return;
  }
  if (!base.has_cycles) return;
  const std::string model_a = base.cycle_model.value_or("a model not recorded");
  const std::string model_b = cand.cycle_model.value_or("a model not recorded");
  out.md << "Estimated cycles (" << kCycleCounter << "): Cortex-M55 core cycles estimated from the executed "
         << "instructions by `" << model_a << "`";
  if (model_a != model_b) out.md << " (" << a_name << ") and `" << model_b << "` (" << b_name << ")";
  out.md << ": an estimate, not a measurement (no caches, bus contention or interrupts; docs/cycles.md).\n";
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
  const std::vector<MatchedRow> rows = match_by_structure(base.labels, cand.labels);
  write_rows(out, base, cand, rows);
  if (base.has_cycles && cand.has_cycles) {
    out.md << "\n## " << pair.baseline.model << ": per-instruction " << kEstimatedCyclesUnit << " (" << kCycleCounter
           << ", " << baseline.summary.target << "; an estimate, not a measurement)\n\n";
    write_rows_table(out.md, in_cycles(base), in_cycles(cand), rows);
  }
  const std::string& unit = baseline.summary.metric.unit;
  write_metrics(out, base, cand, rows, unit);
  out.md << "\nValues are the " << baseline.results.aggregation << " of " << baseline.results.iterations << " iterations";
  if (unit == "instructions") {
    out.md << " (executed instructions counted under QEMU, not cycles"
           << (base.has_cycles && cand.has_cycles ? "; the figures in estimated cycles are the estimate below" : "")
           << ")";
  }
  out.md << ".\n";
  write_cycles_note(out, base, cand);
  return {std::move(out.doc), out.md.str()};
}

}  // namespace etns::tools
