// `etns run --inputs`: many inputs of one single-input method, one output file
// each, on one or more threads, and top-1 accuracy with --labels. The
// programs are etns export's own (tier1_arm, and dscnn_arm: a 12-class
// classifier with a float32 output); the inputs are perturbations of their
// example inputs. Each batch output must equal a single-input run of that
// input byte for byte, for any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <sched.h>

#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/registry.h"
#include "tests/support/cli.h"
#include "tests/support/rng.h"
#include "tools/common/files.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/writers/program/quantized_graph.h"
#include "tools/evidence/runner/batch.h"

namespace etns {
namespace {

namespace fs = std::filesystem;

constexpr size_t kInputs = 20;

void write(const std::string& path, const std::vector<uint8_t>& bytes) {
  tools::write_file_atomic(path, bytes.data(), bytes.size());
}

std::vector<float> as_floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

std::vector<uint8_t> as_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The lowest index of the largest score.
size_t argmax(const std::vector<float>& scores) {
  return static_cast<size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

// A float32 example input scaled by a factor in [-0.4, 0.4] and shifted by
// noise in [-0.2, 0.2]: dscnn answers class 4 or 8 (with ties among its
// quantised scores, which go to the lowest index).
std::vector<uint8_t> perturbed(const std::vector<uint8_t>& example, testing::Rng& rng) {
  std::vector<float> values = as_floats(example);
  const float scale = static_cast<float>(rng.uniform(-40, 40)) / 100.0f;
  for (float& value : values) value = value * scale + static_cast<float>(rng.uniform(-20, 20)) / 100.0f;
  return as_bytes(values);
}

// etns export's programs, once for the whole suite.
struct Exported {
  testing::TempDir dir;
  std::string out = dir.path() + "/export";
  testing::CliResult result = testing::run_cli("export --out " + out);
};
const Exported& exported() {
  static const std::unique_ptr<Exported> once = std::make_unique<Exported>();
  return *once;
}

// kInputs perturbed inputs of one exported model in `folder`, named
// <model>_00.bin ...; returns their paths.
std::vector<std::string> make_inputs(const std::string& model, const std::string& folder, uint64_t seed) {
  fs::create_directories(folder);
  const std::vector<uint8_t> example = tools::read_file(exported().out + "/" + model + ".input.bin");
  testing::Rng rng(seed);
  std::vector<std::string> paths;
  for (size_t i = 0; i < kInputs; ++i) {
    paths.push_back(folder + "/" + model + "_" + (i < 10 ? "0" : "") + std::to_string(i) + ".bin");
    write(paths.back(), perturbed(example, rng));
  }
  return paths;
}

std::string stem_of(const std::string& path) { return fs::path(path).stem().string(); }

class RunBatch : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(exported().result.exit_code, 0) << exported().result.stderr_text; }
  static std::string program(const std::string& name) { return exported().out + "/" + name + "_arm.pte"; }
  // A single-input run of `input`: the bytes a batch must reproduce.
  std::vector<uint8_t> single_run(const std::string& name, const std::string& input) {
    const std::string out = dir_.path() + "/single.bin";
    const testing::CliResult r =
        testing::run_cli("run " + program(name) + " --provider arm --input " + input + " --output " + out);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return tools::read_file(out);
  }
  testing::TempDir dir_;
};

TEST_F(RunBatch, FolderAndListGiveEachSingleRunsBytes) {
  const std::vector<std::string> inputs = make_inputs("dscnn", dir_.path() + "/in", 0xba7c4);
  // The list sits in another folder and names the files relative to itself.
  fs::create_directories(dir_.path() + "/lists");
  std::string list = "# the dscnn inputs\n\n";
  for (const std::string& input : inputs) list += "  ../in/" + fs::path(input).filename().string() + "\n";
  tools::write_file_atomic(dir_.path() + "/lists/inputs.txt", list);

  const std::string common = "run " + program("dscnn") + " --provider arm --outputs ";
  const testing::CliResult folder =
      testing::run_cli(common + dir_.path() + "/by_folder --inputs " + dir_.path() + "/in");
  ASSERT_EQ(folder.exit_code, 0) << folder.stderr_text;
  EXPECT_EQ(folder.stdout_text, "") << "stdout is a file: no summary line";
  EXPECT_EQ(folder.stderr_text, "") << "stderr is a file: no progress line";
  const testing::CliResult listed =
      testing::run_cli(common + dir_.path() + "/by_list --inputs " + dir_.path() + "/lists/inputs.txt");
  ASSERT_EQ(listed.exit_code, 0) << listed.stderr_text;

  EXPECT_EQ(static_cast<size_t>(std::distance(fs::directory_iterator(dir_.path() + "/by_folder"), {})), kInputs);
  for (const std::string& input : inputs) {
    SCOPED_TRACE(input);
    const std::vector<uint8_t> want = single_run("dscnn", input);
    EXPECT_EQ(want.size(), 12 * sizeof(float));
    EXPECT_EQ(tools::read_file(dir_.path() + "/by_folder/" + stem_of(input) + ".out.bin"), want);
    EXPECT_EQ(tools::read_file(dir_.path() + "/by_list/" + stem_of(input) + ".out.bin"), want);
  }
}

TEST_F(RunBatch, OneAndThreeThreadsWriteTheSameBytes) {
  for (const std::string& model : {std::string("tier1"), std::string("dscnn")}) {
    SCOPED_TRACE(model);
    const std::string folder = dir_.path() + "/" + model;
    const std::vector<std::string> inputs = make_inputs(model, folder, 0x7e4d);
    const std::string common = "run " + program(model) + " --provider arm --inputs " + folder + " --summary always";
    const testing::CliResult one = testing::run_cli(common + " --outputs " + folder + "_1 --threads 1");
    ASSERT_EQ(one.exit_code, 0) << one.stderr_text;
    const testing::CliResult three = testing::run_cli(common + " --outputs " + folder + "_3 --threads 3");
    ASSERT_EQ(three.exit_code, 0) << three.stderr_text;
    EXPECT_EQ(three.stdout_text.rfind("etns run: 20 inputs -> " + folder + "_3 (3 threads): ", 0), 0u)
        << three.stdout_text;
    EXPECT_NE(three.stdout_text.find(" ms per input\n"), std::string::npos) << three.stdout_text;
    for (const std::string& input : inputs) {
      const std::string name = "/" + stem_of(input) + ".out.bin";
      const std::vector<uint8_t> bytes = tools::read_file(folder + "_1" + name);
      EXPECT_FALSE(bytes.empty()) << name;
      EXPECT_EQ(tools::read_file(folder + "_3" + name), bytes) << name;
    }
  }
}

// With as many threads as CPUs, run_batch keeps each thread on its own CPU
// for the run, the calling thread included: afterwards the caller may run
// anywhere it could before, and the outputs are a single run's.
TEST_F(RunBatch, ThreadsKeptOnCpusLeaveTheCallersSetAsItWas) {
  cpu_set_t before;
  CPU_ZERO(&before);
  ASSERT_EQ(::sched_getaffinity(0, sizeof(before), &before), 0);
  const size_t cpus = static_cast<size_t>(CPU_COUNT(&before));
  if (cpus < 2 || cpus > kInputs) GTEST_SKIP() << cpus << " CPUs: no run keeps its threads on them";
  const std::vector<std::string> inputs = make_inputs("dscnn", dir_.path() + "/in", 0xc0de);
  tools::BatchJob job;
  job.program = program("dscnn");
  job.registry = &kernels::registry_of(protocol::Provider::Arm);
  job.inputs = tools::list_batch_inputs(dir_.path() + "/in");
  job.output_dir = dir_.path() + "/out";
  job.threads = cpus;
  EXPECT_EQ(tools::run_batch(job).threads, cpus);
  cpu_set_t after;
  CPU_ZERO(&after);
  ASSERT_EQ(::sched_getaffinity(0, sizeof(after), &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after)) << CPU_COUNT(&after) << " CPUs after the run, " << cpus << " before";
  for (const std::string& input : inputs) {
    EXPECT_EQ(tools::read_file(dir_.path() + "/out/" + stem_of(input) + ".out.bin"), single_run("dscnn", input))
        << input;
  }
}

TEST_F(RunBatch, ThreadsAreCappedAtTheInputCount) {
  const std::vector<std::string> inputs = make_inputs("dscnn", dir_.path() + "/in", 0xca9);
  tools::write_file_atomic(dir_.path() + "/two.txt", "in/dscnn_00.bin\nin/dscnn_01.bin\n");
  const testing::CliResult r =
      testing::run_cli("run " + program("dscnn") + " --provider arm --inputs " + dir_.path() + "/two.txt --outputs " +
                       dir_.path() + "/out --threads 8 --summary always");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind("etns run: 2 inputs -> " + dir_.path() + "/out (2 threads): ", 0), 0u) << r.stdout_text;
  EXPECT_EQ(tools::read_file(dir_.path() + "/out/dscnn_01.out.bin"), single_run("dscnn", inputs[1]));
}

TEST_F(RunBatch, AWrongSizeFileFailsBeforeAnyOutputIsWritten) {
  const std::string folder = dir_.path() + "/in";
  make_inputs("dscnn", folder, 0x5123);
  write(folder + "/dscnn_zz_short.bin", std::vector<uint8_t>(100, 0));  // sorted last: checked before any run
  const std::vector<uint8_t> example = tools::read_file(exported().out + "/dscnn.input.bin");
  const testing::CliResult r = testing::run_cli("run " + program("dscnn") + " --provider arm --inputs " + folder +
                                                " --outputs " + dir_.path() + "/out --threads 2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stderr_text, "etns: " + folder + "/dscnn_zz_short.bin: 100 bytes given, expected " +
                               std::to_string(example.size()) + " (the method's input: float32, " +
                               std::to_string(example.size() / 4) + " elements)\n");
  EXPECT_FALSE(fs::exists(dir_.path() + "/out")) << "nothing written";
}

// Each thread checks a share of the sizes; the message names the first wrong
// file in input order whichever thread found it.
TEST_F(RunBatch, TheFirstWrongSizeFileIsNamedForAnyThreadCount) {
  const std::string folder = dir_.path() + "/in";
  make_inputs("dscnn", folder, 0x5124);
  write(folder + "/dscnn_02a.bin", std::vector<uint8_t>(100, 0));  // the first thread's share
  write(folder + "/dscnn_17a.bin", std::vector<uint8_t>(50, 0));   // the last thread's
  for (const char* threads : {"1", "3"}) {
    SCOPED_TRACE(threads);
    const testing::CliResult r = testing::run_cli("run " + program("dscnn") + " --provider arm --inputs " + folder +
                                                  " --outputs " + dir_.path() + "/out --threads " + threads);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.stderr_text.rfind("etns: " + folder + "/dscnn_02a.bin: 100 bytes given, expected ", 0), 0u)
        << r.stderr_text;
    EXPECT_FALSE(fs::exists(dir_.path() + "/out")) << "nothing written";
  }
}

TEST_F(RunBatch, LabelsGiveTheTopOneAccuracyAndThePredictions) {
  const std::vector<std::string> inputs = make_inputs("dscnn", dir_.path() + "/in", 0x1abe1);
  std::vector<size_t> predicted;
  for (const std::string& input : inputs) predicted.push_back(argmax(as_floats(single_run("dscnn", input))));
  ASSERT_GT(std::set<size_t>(predicted.begin(), predicted.end()).size(), 1u) << "the inputs should differ in class";
  // Three labels flipped: 17 of 20 right.
  std::string labels = "# name class\n";
  std::string want_csv = "input,label,predicted\n";
  for (size_t i = 0; i < kInputs; ++i) {
    const size_t label = i % 7 == 3 ? (predicted[i] + 1) % 12 : predicted[i];
    const std::string name = fs::path(inputs[i]).filename().string();
    labels += name + " " + std::to_string(label) + "\n";
    want_csv += name + "," + std::to_string(label) + "," + std::to_string(predicted[i]) + "\n";
  }
  tools::write_file_atomic(dir_.path() + "/labels.txt", labels);

  for (const char* threads : {"1", "3"}) {
    SCOPED_TRACE(threads);
    const std::string csv = dir_.path() + "/pred" + threads + ".csv";
    const testing::CliResult r =
        testing::run_cli("run " + program("dscnn") + " --provider arm --inputs " + dir_.path() + "/in --labels " +
                         dir_.path() + "/labels.txt --predictions " + csv + " --threads " + threads);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(r.stdout_text, "top-1: 85.0 % (17 of 20) over 20 inputs\n");
    EXPECT_EQ(r.stderr_text, "");
    const std::vector<uint8_t> written = tools::read_file(csv);
    EXPECT_EQ(std::string(written.begin(), written.end()), want_csv);
  }
}

TEST_F(RunBatch, ALabelsFileMustNameEachInputOnce) {
  const std::string folder = dir_.path() + "/in";
  make_inputs("dscnn", folder, 0x1abe1);
  const std::string labels = dir_.path() + "/labels.txt";
  const std::string command = "run " + program("dscnn") + " --provider arm --inputs " + folder + " --labels " + labels;
  std::string text;
  for (size_t i = 1; i < kInputs; ++i) {
    text += "dscnn_" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".bin 3\n";
  }

  tools::write_file_atomic(labels, text);
  testing::CliResult r = testing::run_cli(command);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stderr_text, "etns: " + labels + ": no label for " + folder + "/dscnn_00.bin\n");

  tools::write_file_atomic(labels, text + "dscnn_00.bin 3\nnot_an_input.bin 4\n");
  r = testing::run_cli(command);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stderr_text, "etns: " + labels + ":21: not_an_input.bin is not one of the inputs (--inputs)\n");

  tools::write_file_atomic(labels, text + "dscnn_00.bin 12\n");
  r = testing::run_cli(command);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stderr_text, "etns: --labels: dscnn_00.bin is labelled 12, but the output has 12 classes (0 to 11)\n");

  tools::write_file_atomic(labels, text + "dscnn_00.bin three\n");
  r = testing::run_cli(command);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.stderr_text, "etns: " + labels + ":20: 'three' is not a class index (0, 1, ...)\n");
}

// The threads load the program while the caller lists the inputs and reads
// the labels: whatever the thread count, a listing failure is the run's, then
// a labels failure, then the program's, each the one line a single run gives.
TEST_F(RunBatch, TheListingThenTheLabelsThenTheProgramFail) {
  const std::string folder = dir_.path() + "/in";
  make_inputs("dscnn", folder, 0xfa11);
  const std::string broken = dir_.path() + "/broken.pte";
  write(broken, std::vector<uint8_t>(64, 0x5a));
  const testing::CliResult single =
      testing::run_cli("run " + broken + " --provider arm --input " + folder + "/dscnn_00.bin --output " +
                       dir_.path() + "/single.bin");
  ASSERT_EQ(single.exit_code, 1);
  fs::create_directories(dir_.path() + "/empty");
  const std::string labels = dir_.path() + "/labels.txt";
  tools::write_file_atomic(labels, "dscnn_00.bin 1\nnot_an_input.bin 2\n");
  const std::string good_labels = dir_.path() + "/good.txt";
  std::string text;
  for (size_t i = 0; i < kInputs; ++i) {
    text += "dscnn_" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".bin 0\n";
  }
  tools::write_file_atomic(good_labels, text);
  for (const char* threads : {"1", "3"}) {
    SCOPED_TRACE(threads);
    const std::string run = "run " + broken + " --provider arm --threads " + std::string(threads) + " --inputs ";
    testing::CliResult r = testing::run_cli(run + dir_.path() + "/empty --labels " + labels);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.stderr_text, "etns: " + dir_.path() + "/empty: no input in it (--inputs)\n");
    r = testing::run_cli(run + folder + " --labels " + labels);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.stderr_text, "etns: " + labels + ":2: not_an_input.bin is not one of the inputs (--inputs)\n");
    r = testing::run_cli(run + folder + " --labels " + good_labels);
    EXPECT_EQ(r.exit_code, single.exit_code);
    EXPECT_EQ(r.stderr_text, single.stderr_text);
    r = testing::run_cli(run + folder + " --outputs " + dir_.path() + "/out");
    EXPECT_EQ(r.stderr_text, single.stderr_text);
    EXPECT_FALSE(fs::exists(dir_.path() + "/out")) << "nothing written";
  }
}

// Two inputs whose outputs cannot be written: whatever the thread count, the
// run's failure is the earlier input's, as one thread gives it.
TEST_F(RunBatch, TheLowestFailingInputsFailureIsTheRuns) {
  const std::string folder = dir_.path() + "/in";
  make_inputs("dscnn", folder, 0xfa12);
  for (const char* threads : {"1", "3", "8"}) {
    SCOPED_TRACE(threads);
    const std::string out = dir_.path() + "/out" + threads;
    for (const char* stem : {"dscnn_03", "dscnn_04"}) fs::create_directories(out + "/" + stem + ".out.bin");
    const testing::CliResult r = testing::run_cli("run " + program("dscnn") + " --provider arm --inputs " + folder +
                                                  " --outputs " + out + " --threads " + threads);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.stderr_text,
              "etns: cannot write " + out + "/dscnn_03.out.bin: a directory; only regular files are replaced\n");
  }
}

// A method of two inputs: --inputs gives one input per run.
TEST_F(RunBatch, AMethodOfSeveralInputsIsRefused) {
  tools::GraphBuilder g("max", tools::Provider::Arm);
  const std::vector<uint8_t> order = tools::contiguous_order(2);
  const auto s8 = runtime::ScalarType::Char;
  const std::vector<int32_t> sizes{4, 4};
  const int32_t a = g.tensor("a", s8, sizes, order, tools::GraphTensor::Role::Input);
  const int32_t b = g.tensor("b", s8, sizes, order, tools::GraphTensor::Role::Input);
  const int32_t out = g.tensor("out", s8, sizes, order, tools::GraphTensor::Role::Output);
  g.call(cortex_m::kMaximumContract, {{"self", tools::GraphArg::of_tensor(a)},
                                      {"other", tools::GraphArg::of_tensor(b)},
                                      {"out", tools::GraphArg::of_tensor(out)}});
  const std::string max_program = dir_.path() + "/max_arm.pte";
  write(max_program, tools::graph_to_pte(g.take()));
  fs::create_directories(dir_.path() + "/in");
  write(dir_.path() + "/in/x.bin", std::vector<uint8_t>(16, 1));
  const testing::CliResult r = testing::run_cli("run " + max_program + " --provider arm --inputs " + dir_.path() +
                                                "/in --outputs " + dir_.path() + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text, "etns: " + max_program +
                               ": the method has 2 inputs; --inputs runs a method of one input "
                               "(use --input once per method input)\n");
}

TEST_F(RunBatch, OptionsOfOneAndOfManyInputsDoNotMix) {
  const std::string run = "run " + program("dscnn") + " --provider arm ";
  const std::string in = dir_.path() + "/in";
  make_inputs("dscnn", in, 1);
  const std::string not_with = "run: --inputs cannot be combined with ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--inputs " + in + " --outputs o --input a.bin", not_with + "--input (many inputs write to --outputs DIR)"},
      {"--inputs " + in + " --output o.bin", not_with + "--output (many inputs write to --outputs DIR)"},
      {"--inputs " + in + " --outputs o --target qemu-m55",
       "run: --inputs runs on the host only; --target qemu-m55 takes one --input"},
      {"--input a.bin --output o.bin --outputs o", "run: --outputs needs --inputs (many inputs)"},
      {"--input a.bin --output o.bin --threads 2", "run: --threads needs --inputs (many inputs)"},
      {"--inputs " + in, "run: --inputs needs --outputs DIR (or --labels FILE for the accuracy alone)"},
      {"--inputs " + in + " --outputs o --threads 0", "run: --threads 0: expected 1 or more"},
      {"--inputs " + in + " --outputs o --predictions p.csv", "run: --predictions needs --labels"},
      {"--inputs " + dir_.path() + "/nope --outputs o", dir_.path() + "/nope: no such folder or list file (--inputs)"},
  };
  for (const auto& [arguments, line] : cases) {
    const testing::CliResult r = testing::run_cli(run + arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments;
    EXPECT_EQ(r.stderr_text, "etns: " + line + "\n") << arguments;
  }
}

}  // namespace
}  // namespace etns
