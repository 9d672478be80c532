#include "tools/common/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "runtime/core/escape.h"

namespace etns::tools {

std::string hex_address(uint64_t value) { return fmt::format("{:#x}", value); }

std::string grouped(uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

std::string format_count(double value) {
  const std::string digits = fmt::format("{:.0f}", std::fabs(value));
  std::string out;
  const size_t n = digits.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (value < 0 && out != "0" ? "-" : "") + out;
}

std::string printable(const std::string& text) {
  if (runtime::is_printable(text.data(), text.size())) return text;
  // Each byte escapes to at most 4 characters ("\\xHH"); 4 more hold the NUL.
  std::string out(4 * text.size() + 4, '\0');
  runtime::escape_text(out.data(), out.size(), text.data(), text.size());
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

namespace {

std::string folded(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

size_t edit_distance(const std::string& a, const std::string& b) {
  // One row of the dynamic-programming table at a time: previous[j] is the
  // distance between a[0, i-1) and b[0, j).
  std::vector<size_t> previous(b.size() + 1);
  std::vector<size_t> current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitute = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string closest_name(const std::string& typed, const std::vector<std::string>& names) {
  const std::string wanted = folded(typed);
  for (const std::string& name : names) {
    if (folded(name) == wanted) return name;
  }
  constexpr size_t kMostEdits = 2;
  std::string best;
  size_t best_edits = kMostEdits + 1;
  for (const std::string& name : names) {
    const size_t edits = edit_distance(wanted, folded(name));
    if (edits < best_edits) {
      best = name;
      best_edits = edits;
    }
  }
  if (!best.empty() || wanted.size() < 3) return best;
  for (const std::string& name : names) {
    const std::string candidate = folded(name);
    if (starts_with(candidate, wanted) || (candidate.size() >= 3 && starts_with(wanted, candidate))) return name;
  }
  return "";
}

}  // namespace etns::tools
