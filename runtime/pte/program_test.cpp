#include "runtime/pte/program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/support/log_capture.h"
#include "tests/support/shared_data.h"

namespace etns::runtime {
namespace {

using testing::LogCapture;


struct Expected {
  const char* file;
  size_t size;
  bool header;
  uint64_t program_size;
  uint64_t segment_base_offset;
  uint64_t segment_data_size;
  size_t constant_bytes;
};

// pte-format.md §1.2 and §6.
constexpr Expected kPrograms[] = {
    {"tier1_arm.pte", 15809, true, 5800, 5888, 9921, 9921},
    {"tier1_ns.pte", 15424, true, 5448, 5504, 9920, 9920},
    {"tier1mean_arm.pte", 2312, false, 2312, 0, 0, 0},
    {"tier1mean_ns.pte", 1936, false, 1936, 0, 0, 0},
};

TEST(Program, LoadsTheTier1ProgramsWithTheirHeaders) {
  ETNS_REQUIRE_SHARED(shared);
  for (const Expected& expected : kPrograms) {
    SCOPED_TRACE(expected.file);
    const std::vector<uint8_t> bytes = testing::read_file(shared + "/models/tier1/" + expected.file);
    ASSERT_EQ(bytes.size(), expected.size);
    Result<Program> program = Program::load(Span<const uint8_t>(bytes.data(), bytes.size()));
    ASSERT_TRUE(program.ok());
    EXPECT_EQ(program->header().present, expected.header);
    EXPECT_EQ(program->header().program_size, expected.program_size);
    EXPECT_EQ(program->header().segment_base_offset, expected.segment_base_offset);
    EXPECT_EQ(program->header().segment_data_size, expected.segment_data_size);
    EXPECT_EQ(program->constant_bytes(), expected.constant_bytes);
    EXPECT_EQ(program->method_count(), 1u);
    EXPECT_STREQ(program->method_name(0), "forward");
    EXPECT_TRUE(program->plan("forward").ok());
  }
}

TEST(Program, UnknownMethodIsNamed) {
  ETNS_REQUIRE_SHARED(shared);
  const std::vector<uint8_t> bytes = testing::read_file(shared + "/models/tier1/tier1mean_ns.pte");
  Result<Program> program = Program::load(Span<const uint8_t>(bytes.data(), bytes.size()));
  ASSERT_TRUE(program.ok());
  LogCapture log;
  EXPECT_EQ(program->plan("backward").error(), Error::InvalidArgument);
  EXPECT_NE(log.text().find("method 'backward' not found"), std::string::npos) << log.text();
}

// A minimal header-only file: root offset, identifier, then `rest`.
std::vector<uint8_t> header_bytes(const char identifier[5], std::vector<uint8_t> rest) {
  std::vector<uint8_t> bytes = {8, 0, 0, 0};
  // Reserving first also silences GCC 12's false -Warray-bounds on the inserts.
  bytes.reserve(8 + rest.size());
  bytes.insert(bytes.end(), identifier, identifier + 4);
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  return bytes;
}

TEST(ExtendedHeader, RejectsShortFilesAndForeignIdentifiers) {
  LogCapture log;
  const std::vector<uint8_t> tiny = {1, 2, 3};
  EXPECT_EQ(read_extended_header(Span<const uint8_t>(tiny.data(), tiny.size())).error(),
            Error::InvalidProgram);
  EXPECT_NE(log.text().find("file is 3 bytes"), std::string::npos);

  const std::vector<uint8_t> old = header_bytes("ET11", {});
  EXPECT_EQ(read_extended_header(Span<const uint8_t>(old.data(), old.size())).error(),
            Error::InvalidProgram);
  EXPECT_NE(log.text().find("'ET11' at offset 4: an ExecuTorch program of another schema version"),
            std::string::npos)
      << log.text();

  const std::vector<uint8_t> png = header_bytes("\x89PNG", {});
  EXPECT_EQ(read_extended_header(Span<const uint8_t>(png.data(), png.size())).error(),
            Error::InvalidProgram);
  EXPECT_NE(log.text().find("'.PNG' at offset 4: not an ExecuTorch program"), std::string::npos);
}

TEST(ExtendedHeader, RejectsShortLengthAndOversizedFields) {
  LogCapture log;
  // length 16 < 24
  std::vector<uint8_t> bytes = header_bytes("ET12", {'e', 'h', '0', '0', 16, 0, 0, 0});
  bytes.resize(64, 0);
  EXPECT_EQ(read_extended_header(Span<const uint8_t>(bytes.data(), bytes.size())).error(),
            Error::InvalidProgram);
  EXPECT_NE(log.text().find("extended header length 16 at offset 12, expected >= 24"),
            std::string::npos)
      << log.text();

  // program_size past the end of the file
  bytes = header_bytes("ET12", {'e', 'h', '0', '0', 32, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  bytes.resize(64, 0);
  EXPECT_EQ(read_extended_header(Span<const uint8_t>(bytes.data(), bytes.size())).error(),
            Error::InvalidProgram);
  EXPECT_NE(log.text().find("program_size 256 at offset 16"), std::string::npos) << log.text();
}

TEST(ExtendedHeader, AbsentHeaderMeansWholeFileIsTheProgram) {
  std::vector<uint8_t> bytes = header_bytes("ET12", {});
  bytes.resize(40, 0);
  Result<ExtendedHeader> header = read_extended_header(Span<const uint8_t>(bytes.data(), bytes.size()));
  ASSERT_TRUE(header.ok());
  EXPECT_FALSE(header->present);
  EXPECT_EQ(header->program_size, 40u);
}

}  // namespace
}  // namespace etns::runtime
