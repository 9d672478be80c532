#include "tools/evidence/runner/batch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/common/process.h"

namespace etns::tools {
namespace {

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string failure_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Failure& failure) {
    return failure.what();
  }
  return "";
}

TEST(BatchTopOne, TheLargestInt8WinsAndATieGoesToTheLowestIndex) {
  const std::vector<uint8_t> scores{static_cast<uint8_t>(-128), 7, static_cast<uint8_t>(-3), 7, 5};
  EXPECT_EQ(top1_index(scores, runtime::ScalarType::Char), 1u);
  EXPECT_EQ(top1_index({static_cast<uint8_t>(-1), static_cast<uint8_t>(-2)}, runtime::ScalarType::Char), 0u)
      << "signed, not unsigned bytes";
}

TEST(BatchTopOne, FloatTiesGoLowNanNeverWins) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(top1_index(float_bytes({0.1f, 0.3f, 0.3f, -1.0f}), runtime::ScalarType::Float), 1u);
  EXPECT_EQ(top1_index(float_bytes({nan, -5.0f, -4.0f, nan}), runtime::ScalarType::Float), 2u);
  EXPECT_EQ(top1_index(float_bytes({nan, nan}), runtime::ScalarType::Float), 0u);
  EXPECT_EQ(failure_of([] { top1_index({0, 0, 0, 0}, runtime::ScalarType::Int); }),
            "top-1 needs an int8 or float32 output, not int32");
}

TEST(BatchInputs, AFolderIsSortedAndAListIsRelativeToItsFolder) {
  TemporaryDirectory dir;
  std::filesystem::create_directories(dir.path() + "/in/sub");
  for (const char* name : {"b.bin", "a.bin", "c.raw"}) write_file_atomic(dir.path() + "/in/" + name, "x");
  // A link is an input when it leads to a regular file.
  std::filesystem::create_symlink("a.bin", dir.path() + "/in/link.bin");
  std::filesystem::create_symlink("sub", dir.path() + "/in/sub_link");
  std::filesystem::create_symlink("missing", dir.path() + "/in/dangling.bin");
  std::vector<BatchInput> inputs = list_batch_inputs(dir.path() + "/in");
  ASSERT_EQ(inputs.size(), 4u) << "the sub-folder, a link to it and a dangling link are not inputs";
  EXPECT_EQ(inputs[3].path, dir.path() + "/in/link.bin");
  std::filesystem::remove(dir.path() + "/in/link.bin");
  inputs = list_batch_inputs(dir.path() + "/in");
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[0].path, dir.path() + "/in/a.bin");
  EXPECT_EQ(inputs[2].name, "c.raw");
  EXPECT_EQ(inputs[2].stem, "c");

  write_file_atomic(dir.path() + "/in/list.txt", "# two\n\n  b.bin  \n" + dir.path() + "/in/a.bin\n");
  inputs = list_batch_inputs(dir.path() + "/in/list.txt");
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].path, dir.path() + "/in/b.bin");
  EXPECT_EQ(inputs[1].path, dir.path() + "/in/a.bin");
  EXPECT_EQ(batch_output_paths("out", inputs[0], 1), std::vector<std::string>{"out/b.out.bin"});
  EXPECT_EQ(batch_output_paths("out", inputs[0], 2), (std::vector<std::string>{"out/b.out0.bin", "out/b.out1.bin"}));

  write_file_atomic(dir.path() + "/in/c.bin", "x");
  EXPECT_EQ(failure_of([&] { list_batch_inputs(dir.path() + "/in"); }),
            dir.path() + "/in: " + dir.path() + "/in/c.bin and " + dir.path() +
                "/in/c.raw would both write c.out.bin (--inputs)");
  write_file_atomic(dir.path() + "/empty.txt", "# nothing\n");
  EXPECT_EQ(failure_of([&] { list_batch_inputs(dir.path() + "/empty.txt"); }),
            dir.path() + "/empty.txt: no input in it (--inputs)");
}

// Names and stems are std::filesystem's filename() and stem(), for a folder
// and for a list of paths, whatever the dots.
TEST(BatchInputs, NamesAndStemsAreTheFilesystemLibrarys) {
  TemporaryDirectory dir;
  std::filesystem::create_directories(dir.path() + "/in");
  const std::vector<std::string> names = {"a.bin", "a.b.bin", ".hidden", ".dot.bin",
                                          "noext", "x.",      "..x",     "sp ace.v2.raw"};
  std::string list;
  for (const std::string& name : names) {
    write_file_atomic(dir.path() + "/in/" + name, "x");
    list += "in/" + name + "\n";
  }
  write_file_atomic(dir.path() + "/list.txt", list);
  for (const std::string& given : {dir.path() + "/in", dir.path() + "/list.txt"}) {
    const std::vector<BatchInput> inputs = list_batch_inputs(given);
    ASSERT_EQ(inputs.size(), names.size()) << given;
    for (const BatchInput& input : inputs) {
      const std::filesystem::path path(input.path);
      EXPECT_EQ(input.name, path.filename().string()) << input.path;
      EXPECT_EQ(input.stem, path.stem().string()) << input.path;
    }
  }
}

TEST(BatchLabels, TheLastWordIsTheClassAndEachInputHasOne) {
  TemporaryDirectory dir;
  const std::vector<BatchInput> inputs{{"d/one two.bin", "one two.bin", "one two"}, {"d/b.bin", "b.bin", "b"}};
  const std::string path = dir.path() + "/labels.txt";
  write_file_atomic(path, "b.bin 3\n# comment\n one two.bin\t11\n");
  EXPECT_EQ(read_labels(path, inputs), (std::vector<size_t>{11, 3}));

  write_file_atomic(path, "b.bin 3\nb.bin 4\n");
  EXPECT_EQ(failure_of([&] { read_labels(path, inputs); }), path + ":2: b.bin is labelled twice (first on line 1)");
  write_file_atomic(path, "b.bin -1\n");
  EXPECT_EQ(failure_of([&] { read_labels(path, inputs); }), path + ":1: '-1' is not a class index (0, 1, ...)");
  write_file_atomic(path, "b.bin\n");
  EXPECT_EQ(failure_of([&] { read_labels(path, inputs); }), path + ":1: expected '<input file name> <class index>'");
}

TEST(BatchPredictions, NamesWithCommasAreQuoted) {
  const std::vector<BatchInput> inputs{{"a,b.bin", "a,b.bin", "a,b"}, {"c.bin", "c.bin", "c"}};
  EXPECT_EQ(render_predictions(inputs, {1, 2}, {1, 0}), "input,label,predicted\n\"a,b.bin\",1,1\nc.bin,2,0\n");
}

}  // namespace
}  // namespace etns::tools
