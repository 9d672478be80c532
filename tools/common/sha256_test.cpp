#include "tools/common/sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/support/shared_data.h"

namespace etns::tools {
namespace {

std::string sha256_of(const std::string& text) {
  return sha256_hex(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

// FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf").
TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(sha256_hex(nullptr, 0),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessage) {
  EXPECT_EQ(sha256_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage) {
  // 448 bits: the length no longer fits the first block's padding.
  EXPECT_EQ(sha256_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, OneMillionA) {
  EXPECT_EQ(sha256_of(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // Lengths either side of 55 (last one-block tail) and 64 (one full block).
  const std::pair<size_t, const char*> cases[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  for (const auto& [length, digest] : cases) {
    EXPECT_EQ(sha256_of(std::string(length, 'a')), digest) << length << " x 'a'";
  }
}

TEST(Sha256, Tier1ArmProgram) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> pte = testing::read_file(shared + "/models/tier1/tier1_arm.pte");
  EXPECT_EQ(sha256_hex(pte.data(), pte.size()),
            "056e99fd3c103af785bae418f712c7612e72b03a2df49f9e391824b8a14f9416");
}

}  // namespace
}  // namespace etns::tools
