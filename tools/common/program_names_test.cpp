#include "tools/common/program_names.h"

#include <gtest/gtest.h>

namespace etns::tools {
namespace {

TEST(ProgramNames, WriteAndReadBackEveryProvider) {
  for (protocol::Provider provider : protocol::kProviders) {
    const std::string file = program_file_name("leaky_relu_0p2", provider);
    const std::optional<ProgramName> parsed = parse_program_file_name("out/export/" + file);
    ASSERT_TRUE(parsed.has_value()) << file;
    EXPECT_EQ(parsed->model, "leaky_relu_0p2");
    EXPECT_EQ(parsed->provider, provider);
  }
  EXPECT_EQ(program_file_name("tier1", protocol::Provider::Ns), "tier1_ns.pte");
}

TEST(ProgramNames, NamesWithoutAProviderSuffixAreNotPrograms) {
  EXPECT_FALSE(parse_program_file_name("tier1.pte").has_value());
  EXPECT_FALSE(parse_program_file_name("_ns.pte").has_value()) << "a provider alone names no model";
  EXPECT_FALSE(parse_program_file_name("tier1_cmsis.pte").has_value());
}

}  // namespace
}  // namespace etns::tools
