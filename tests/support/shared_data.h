#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Test access to ../shared (models, goldens). Tests that need it call
// ETNS_REQUIRE_SHARED(dir) and are skipped, saying why, when it is absent.
namespace etns::testing {

// The shared folder: $ETNS_SHARED_DIR if set, else the build's configured path;
// nullopt when it does not exist.
std::optional<std::string> shared_dir();

// Whole file; throws std::runtime_error naming the path when unreadable.
std::vector<uint8_t> read_file(const std::string& path);

}  // namespace etns::testing

#define ETNS_REQUIRE_SHARED(var)                                                  \
  const std::optional<std::string> var##_opt = ::etns::testing::shared_dir();     \
  if (!var##_opt) GTEST_SKIP() << "../shared is absent (set ETNS_SHARED_DIR)";    \
  const std::string& var = *var##_opt
