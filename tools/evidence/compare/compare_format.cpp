// What both comparisons share: the comparability gate and codes, deltas, and
// how numbers are written for people.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "protocol/bundle.h"
#include "tools/common/failure.h"
#include "tools/evidence/compare/compare.h"

namespace etns::tools {

const char* code_of(Comparability comparability) {
  switch (comparability) {
    case Comparability::Incomplete: return "incomplete";
    case Comparability::Invalid: return "invalid-run";
    case Comparability::DifferentModel: return "different-model";
    case Comparability::DifferentTarget: return "different-target";
    case Comparability::DifferentMetric: return "different-metric";
    case Comparability::DifferentCounters: return "different-counters";
    case Comparability::PerLayerMissing: return "per-layer-missing";
    case Comparability::DifferentInstructions: return "different-instructions";
    case Comparability::Degraded: return "degraded-run";
  }
  return "unknown";
}

const char* code_of(FigureState state) {
  switch (state) {
    case FigureState::Measured: return "measured";
    case FigureState::NotMeasured: return "not_measured";
    case FigureState::NotMeasuredInBaseline: return "not_measured_in_baseline";
    case FigureState::NotMeasuredInCandidate: return "not_measured_in_candidate";
    case FigureState::ZeroInBoth: return "zero_in_both";
    case FigureState::ZeroInBaseline: return "zero_in_baseline";
    case FigureState::ZeroInCandidate: return "zero_in_candidate";
  }
  return "unknown";
}

void require_comparable(const Bundle& baseline, const Bundle& candidate) {
  auto refuse = [](const std::string& message, Comparability code) {
    throw Failure(fmt::format("{} [{}]", message, code_of(code)));
  };
  for (const Bundle* bundle : {&baseline, &candidate}) {
    if (bundle->manifest.status != protocol::bundle::kStatusComplete) {
      refuse(bundle->dir + ": the run did not complete (status " + bundle->manifest.status + "); not comparable",
             Comparability::Incomplete);
    }
    if (bundle->manifest.validity == protocol::bundle::kInvalid) {
      refuse(bundle->dir + ": the run is invalid (see its summary.json issues); not comparable", Comparability::Invalid);
    }
  }
  const SummaryDoc& a = baseline.summary;
  const SummaryDoc& b = candidate.summary;
  if (a.target != b.target || a.metric.name != b.metric.name) {
    refuse(fmt::format("not comparable: the bundles measure different things ({} {} vs {} {})", a.target, a.metric.name,
                       b.target, b.metric.name),
           a.target != b.target ? Comparability::DifferentTarget : Comparability::DifferentMetric);
  }
}

std::optional<double> factor_of(double baseline, double candidate) {
  if (baseline == 0) return std::nullopt;
  return candidate / baseline;
}

nlohmann::json delta_json(double baseline, double candidate) {
  nlohmann::json row = {{"baseline", baseline}, {"candidate", candidate}, {"delta", candidate - baseline}};
  row["delta_pct"] = baseline != 0 ? nlohmann::json((candidate - baseline) / baseline * 100.0) : nlohmann::json();
  row["factor"] = json_or_null(factor_of(baseline, candidate));
  return row;
}

std::string format_delta_pct(double baseline, double candidate) {
  if (baseline == 0) return "";
  return fmt::format("{:+.1f}%", (candidate - baseline) / baseline * 100.0);
}

std::string format_factor(double baseline, double candidate) {
  const std::optional<double> factor = factor_of(baseline, candidate);
  if (!factor) return "";
  if (*factor == 0) return "0×";
  if (*factor >= 100) return fmt::format("{:.0f}×", *factor);
  if (*factor >= 1) return fmt::format("{:.1f}×", *factor);
  // Below 1, two significant digits: a 175-fold drop is 0.0057×, not 0.0×.
  const int decimals = std::min(6, std::max(2, 1 - static_cast<int>(std::floor(std::log10(*factor)))));
  return fmt::format("{:.{}f}×", *factor, decimals);
}

std::string format_noise_pct(double pct) { return fmt::format(pct < 10 ? "{:.1f}%" : "{:.0f}%", pct); }

}  // namespace etns::tools
