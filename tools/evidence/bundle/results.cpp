#include "tools/evidence/bundle/results.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "protocol/bundle.h"

namespace etns::tools {

std::string validity_of(const std::vector<Issue>& issues) {
  namespace bundle = protocol::bundle;
  bool warning = false;
  for (const Issue& issue : issues) {
    if (issue.severity == bundle::kSeverityError) return bundle::kInvalid;
    warning = warning || issue.severity == bundle::kSeverityWarning;
  }
  return warning ? bundle::kDegraded : bundle::kValid;
}

namespace {

double mean_of(const std::vector<uint64_t>& values, size_t begin, size_t end) {
  if (end <= begin) return 0;
  long double sum = 0;
  for (size_t i = begin; i < end; ++i) sum += values[i];
  return static_cast<double>(sum / static_cast<long double>(end - begin));
}

double median_of_sorted(const std::vector<uint64_t>& sorted) {
  if (sorted.empty()) return 0;
  const size_t n = sorted.size();
  if (n % 2 == 1) return static_cast<double>(sorted[n / 2]);
  return (static_cast<double>(sorted[n / 2 - 1]) + static_cast<double>(sorted[n / 2])) / 2;
}

}  // namespace

Stats summarize(const std::vector<uint64_t>& samples) {
  Stats stats;
  if (samples.empty()) return stats;
  std::vector<uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  stats.median = median_of_sorted(sorted);
  stats.mean = mean_of(sorted, 0, sorted.size());
  stats.min = static_cast<double>(sorted.front());
  stats.max = static_cast<double>(sorted.back());
  std::vector<double> deviations;
  for (uint64_t sample : sorted) deviations.push_back(std::fabs(static_cast<double>(sample) - stats.median));
  std::sort(deviations.begin(), deviations.end());
  const size_t n = deviations.size();
  stats.mad = n % 2 == 1 ? deviations[n / 2] : (deviations[n / 2 - 1] + deviations[n / 2]) / 2;
  return stats;
}

double aggregate(const std::vector<uint64_t>& samples, const std::string& method) {
  std::vector<uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  if (method == "mean") return mean_of(sorted, 0, sorted.size());
  if (method == "trimmed") {
    return sorted.size() < 3 ? mean_of(sorted, 0, sorted.size()) : mean_of(sorted, 1, sorted.size() - 1);
  }
  return median_of_sorted(sorted);
}

}  // namespace etns::tools
