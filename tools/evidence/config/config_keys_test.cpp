// The key table (config_keys.h) and the limits on what a configuration may
// hold (docs/profiling.md, "Configuration keys").
#include "tools/evidence/config/config_keys.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "tools/evidence/config/config_test_fixture.h"

namespace etns::tools {
namespace {

using config_testing::kMinimal;
using config_testing::ProfileConfigTest;

// ---------------------------------------------------------------------------
// Limits: what a configuration may hold (docs/profiling.md, "Limits").

TEST_F(ProfileConfigTest, RefusesARecursiveAlias) {
  // yaml-cpp builds a cycle for it (the alias is the anchored node itself).
  EXPECT_EQ(error(kMinimal + "profiling: &loop {pmu_counters: *loop}\n"),
            "config error: " + at("config.yaml") +
                ": profiling.pmu_counters: recursive alias (the value contains itself)");
  EXPECT_EQ(error(kMinimal, {"profiling.pmu_counters=&loop [*loop]"}),
            "config error: override 'profiling.pmu_counters=&loop [*loop]': profiling.pmu_counters[0]: recursive alias "
            "(the value contains itself)");
}

TEST_F(ProfileConfigTest, RefusesAnAliasBomb) {
  // Nine levels of ten aliases each: 10^9 values once expanded, from 500 bytes.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    const std::string below = "*a" + std::to_string(level - 1);
    bomb += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [" + below;
    for (int i = 1; i < 10; ++i) bomb += ", " + below;
    bomb += "]\n";
  }
  EXPECT_EQ(error(bomb), "config error: " + at("config.yaml") +
                             ": more than 100000 values once aliases are expanded (an alias bomb?); a configuration "
                             "has a few dozen");
}

TEST_F(ProfileConfigTest, RefusesNestingDeeperThanTheLimit) {
  const auto nested = [](int depth) { return "x: " + std::string(depth, '[') + std::string(depth, ']') + "\n"; };
  EXPECT_EQ(error(nested(32)), "config error: " + at("config.yaml") + ": x" + [] {
              std::string where;
              for (int i = 0; i < 31; ++i) where += "[0]";
              return where;
            }() + ": nested deeper than 32 levels");
  // Deeper still, yaml-cpp's own guard stops the parse first.
  EXPECT_EQ(error(nested(5000)), "config error: " + at("config.yaml") +
                                     ": invalid YAML (nested deeper than the YAML parser allows; a configuration nests "
                                     "at most 32 levels)");
}

TEST_F(ProfileConfigTest, RefusesDevZeroBeforeReadingIt) {
  EXPECT_EQ(error_loading("/dev/zero", {}),
            "config error: /dev/zero: cannot read (a character device, not a regular file)");
}

TEST_F(ProfileConfigTest, RefusesAFifoWithoutBlocking) {
  // Opening a FIFO for reading blocks until a writer comes: the stat must come first.
  ASSERT_EQ(mkfifo(at("fifo.yaml").c_str(), 0600), 0);
  EXPECT_EQ(error_loading(at("fifo.yaml"), {}),
            "config error: " + at("fifo.yaml") + ": cannot read (a FIFO, not a regular file)");
}

TEST_F(ProfileConfigTest, RefusesAFileOverOneMebibyte) {
  const std::string padding(1024 * 1024 - kMinimal.size() - 1, ' ');
  EXPECT_EQ(load(kMinimal + "#" + padding).model_path, at("model.pte"));  // exactly 1 MiB
  EXPECT_EQ(error(kMinimal + "#" + padding + " "),
            "config error: " + at("config.yaml") +
                ": cannot read (1,048,577 bytes; the limit is 1,048,576 bytes, 1 MiB)");
}

TEST_F(ProfileConfigTest, AProblemNamesTheFileOrOverrideThatWroteTheKey) {
  const std::string yaml = kMinimal + "profiling: {iterations: 5, warmup: -1}\n";
  EXPECT_EQ(error(yaml), in_file() + "profiling.warmup: expected a non-negative integer, got -1");
  EXPECT_EQ(error(yaml, {"profiling . warmup = -2"}),
            in_override("profiling . warmup = -2") + "profiling.warmup: expected a non-negative integer, got -2");
  // A later override of the whole section wins; one of another key does not.
  EXPECT_EQ(error(yaml, {"profiling.warmup=-2", "profiling={warmup: -3}"}),
            in_override("profiling={warmup: -3}") + "profiling.warmup: expected a non-negative integer, got -3");
  EXPECT_EQ(error(yaml, {"profiling.iterations=7"}),
            in_file() + "profiling.warmup: expected a non-negative integer, got -1");
  // With no file, model.path is missing too: both lines, the override named on its own.
  try {
    load_profile_config("", {"profiling.warmup=-1"}, read_model_facts);
    ADD_FAILURE() << "no error";
  } catch (const Failure& failure) {
    EXPECT_EQ(std::string(failure.what()),
              in_override("profiling.warmup=-1") + "profiling.warmup: expected a non-negative integer, got -1\n" +
                  "config error: model.path: missing (give the .pte in the config file or as the override "
                  "model.path=<file>)");
  }
}

TEST_F(ProfileConfigTest, IterationsAndWarmupHaveUpperBounds) {
  EXPECT_EQ(load(kMinimal + "profiling: {iterations: 10000, warmup: 1000}\n").iterations, 10000);
  EXPECT_EQ(error(kMinimal + "profiling: {iterations: 10001}\n"),
            in_file() + "profiling.iterations: 10001 is above the limit of 10000 (every sample is kept in memory "
            "and in profile_results.json, and the firmware counts in 32 bits)");
  EXPECT_EQ(error(kMinimal, {"profiling.iterations=4294967297"}),
            in_override("profiling.iterations=4294967297") +
                "profiling.iterations: 4294967297 is above the limit of 10000 (every sample is kept in memory and in "
                "profile_results.json, and the firmware counts in 32 bits)");
  EXPECT_EQ(error(kMinimal + "profiling: {warmup: 1001}\n"),
            in_file() + "profiling.warmup: 1001 is above the limit of 1000 (warm-up runs are not measured; more "
            "only take time)");
}

// ---------------------------------------------------------------------------
// The key table.

TEST_F(ProfileConfigTest, TheResolvedConfigurationHasExactlyTheTablesKeys) {
  const nlohmann::ordered_json resolved = load(kMinimal).resolved;
  std::vector<std::string> from_table;
  for (const KeySpec& spec : profile_config_keys()) {
    if (spec.type != KeyType::Reserved) from_table.push_back(spec.path);
  }
  std::vector<std::string> from_resolved;
  const std::function<void(const nlohmann::ordered_json&, const std::string&)> walk =
      [&](const nlohmann::ordered_json& object, const std::string& prefix) {
        for (const auto& item : object.items()) {
          const std::string path = prefix.empty() ? item.key() : prefix + "." + item.key();
          from_resolved.push_back(path);
          const bool section = std::any_of(from_table.begin(), from_table.end(),
                                           [&](const std::string& key) { return key.rfind(path + ".", 0) == 0; });
          if (section) walk(item.value(), path);
        }
      };
  walk(resolved, "");
  EXPECT_EQ(from_resolved, from_table);
}

TEST(ConfigKeys, EveryKeyHasHelpAndItsDefaultPassesItsOwnCheck) {
  for (const KeySpec& spec : profile_config_keys()) {
    SCOPED_TRACE(spec.path);
    EXPECT_FALSE(spec.help.empty());
    EXPECT_EQ(spec.help.find('\n'), std::string::npos);
    if (spec.type == KeyType::Integer && spec.fallback.is_number_integer()) {
      EXPECT_GE(spec.fallback.get<int64_t>(), spec.min);
      EXPECT_LE(spec.fallback.get<int64_t>(), spec.max);
    }
    if (spec.max != std::numeric_limits<int64_t>::max()) {
      EXPECT_FALSE(spec.max_reason.empty());
    }
    if (spec.type == KeyType::Choice && spec.fallback.is_string()) {
      EXPECT_NE(std::find(spec.choices.begin(), spec.choices.end(), spec.fallback), spec.choices.end());
    }
  }
}

TEST(ConfigKeys, TheListingHasOneLinePerKey) {
  const std::string listing = key_listing_text();
  EXPECT_EQ(static_cast<size_t>(std::count(listing.begin(), listing.end(), '\n')), profile_config_keys().size());
  EXPECT_NE(listing.find("profiling.iterations"), std::string::npos);
  EXPECT_NE(listing.find("a positive integer, at most 10000"), std::string::npos) << listing;
  EXPECT_NE(listing.find("one of median, mean, trimmed"), std::string::npos) << listing;
}

// docs/profiling.md's key reference is `etns profile --list-keys --markdown`,
// pasted between two marker comments; regenerate it when the table changes.
TEST(ConfigKeys, DocsKeyReferenceIsTheGeneratedTable) {
  std::ifstream in(std::string(ETNS_SOURCE_DIR) + "/docs/profiling.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/profiling.md not found";
  const std::string docs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- key-reference: begin (etns profile --list-keys --markdown) -->\n";
  const std::string end = "<!-- key-reference: end -->";
  const size_t from = docs.find(begin);
  const size_t to = docs.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  ASSERT_LT(from, to);
  EXPECT_EQ(docs.substr(from + begin.size(), to - from - begin.size()), key_reference_markdown())
      << "regenerate with: build/bin/etns profile --list-keys --markdown";
}

}  // namespace
}  // namespace etns::tools
