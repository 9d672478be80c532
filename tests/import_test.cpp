// `etns import` on the four MLPerf Tiny int8 models (../shared/models/
// mlperf-tiny) and the six real-tflite ones: each imported program, run with `etns run --dump-dir` on the
// host and on the Cortex-M55 firmware under QEMU, reproduces TensorFlow Lite
// Micro's output of every operator, bit for bit, for inputs A and B
// (`etns compare-tensors`). Import is byte-deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/cli.h"
#include "tests/support/qemu.h"
#include "tests/support/shared_data.h"
#include "tools/common/files.h"
#include "tools/writers/import/import_program.h"
#include "tools/evidence/profile/reproduce_imported.h"
#include "tools/writers/tflite/tflite_test_writer.h"
#include "tools/tflm_anchors.h"

namespace etns {
namespace {

const char* const kModels[] = {"kws", "vww", "ic", "ad"};
// ../shared/models/real-tflite: models public projects ship, float I/O and
// TFLM's own examples among them.
const char* const kRealModels[] = {"person_detect", "micro_speech", "micro_speech_lstm",
                                   "fingerprint_signature", "anomaly_detection_mltk", "ds_cnn_s"};

struct Imported {
  std::string folder;   // ../shared/models/mlperf-tiny or real-tflite
  std::string program;  // <tmp>/<model>.pte
};

Imported import_model(const std::string& shared, const testing::TempDir& dir, const std::string& model,
                      const std::string& collection = "mlperf-tiny") {
  Imported i{shared + "/models/" + collection, dir.path() + "/" + model + ".pte"};
  const testing::CliResult r = testing::run_cli("import " + i.folder + "/" + model + ".tflite -o " + i.program);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  return i;
}

// Runs the program on `target` with input case `c` and checks every
// operator's output against TFLM's.
void expect_bit_exact(const Imported& i, const testing::TempDir& dir, const std::string& model, const std::string& c,
                      const std::string& target) {
  SCOPED_TRACE(model + "." + c + " on " + target);
  const std::string dump = dir.path() + "/" + model + "." + c + "." + target;
  std::string run = "run " + i.program + " --provider arm --input " + i.folder + "/" + model + "." + c +
                    ".input.bin --output " + dump + ".out.bin --dump-dir " + dump;
  if (target == "qemu-m55") run += " --target qemu-m55";
  const testing::CliResult r = testing::run_cli(run);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(tools::read_file(dump + ".out.bin"), tools::read_file(i.folder + "/" + model + "." + c + ".out.bin"));
  const testing::CliResult compare = testing::run_cli("compare-tensors " + i.folder + "/" + model + ".tflite " + dump +
                                                      " " + i.folder + "/" + model + "." + c + ".tensors");
  EXPECT_EQ(compare.exit_code, 0) << compare.stdout_text << compare.stderr_text;
}

TEST(ImportMlperfTiny, EveryOperatorIsBitExactWithTflmOnTheHost) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  for (const char* model : kModels) {
    const Imported i = import_model(shared, dir, model);
    for (const char* c : {"A", "B"}) expect_bit_exact(i, dir, model, c, "host");
  }
}

TEST(ImportMlperfTiny, EveryOperatorIsBitExactWithTflmOnTheM55) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  for (const char* model : kModels) {
    const Imported i = import_model(shared, dir, model);
    for (const char* c : {"A", "B"}) expect_bit_exact(i, dir, model, c, "qemu-m55");
  }
}

TEST(ImportRealTflite, EveryOperatorIsBitExactWithTflmOnTheHost) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  for (const char* model : kRealModels) {
    const Imported i = import_model(shared, dir, model, "real-tflite");
    for (const char* c : {"A", "B"}) expect_bit_exact(i, dir, model, c, "host");
  }
}

TEST(ImportRealTflite, EveryOperatorIsBitExactWithTflmOnTheM55) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  for (const char* model : kRealModels) {
    const Imported i = import_model(shared, dir, model, "real-tflite");
    for (const char* c : {"A", "B"}) expect_bit_exact(i, dir, model, c, "qemu-m55");
  }
}

// What a stock ExecuTorch runtime would lack is named where a user looks:
// the import's JSON and report, and `etns inspect`.
TEST(ImportRealTflite, EtnsOwnOperatorsAreNamed) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  const std::string model = shared + "/models/real-tflite/micro_speech_lstm.tflite";
  const std::string program = dir.path() + "/lstm.pte";
  const testing::CliResult imported =
      testing::run_cli("import " + model + " -o " + program + " --json --report " + dir.path() + "/r.md");
  ASSERT_EQ(imported.exit_code, 0) << imported.stderr_text;
  const nlohmann::json doc = nlohmann::json::parse(imported.stdout_text);
  EXPECT_EQ(doc["not_in_stock_executorch"], nlohmann::json::array({"etns_ops::lstm_s8.out"}));
  EXPECT_NE(tools::read_text_file(dir.path() + "/r.md").find("A stock ExecuTorch runtime lacks these operators"),
            std::string::npos);
  const testing::CliResult inspect = testing::run_cli("inspect " + program);
  EXPECT_NE(inspect.stdout_text.find("not in stock ExecuTorch (1) etns_ops::lstm_s8.out"), std::string::npos)
      << inspect.stdout_text;
  const testing::CliResult kws =
      testing::run_cli("import " + shared + "/models/mlperf-tiny/kws.tflite -o " + dir.path() + "/kws.pte --json");
  EXPECT_EQ(nlohmann::json::parse(kws.stdout_text)["not_in_stock_executorch"], nlohmann::json::array());
}

TEST(ImportMlperfTiny, ImportIsByteDeterministic) {
  ETNS_REQUIRE_SHARED(shared);
  testing::TempDir dir;
  for (const char* model : kModels) {
    const std::string tflite = shared + "/models/mlperf-tiny/" + model + ".tflite";
    const std::string a = dir.path() + "/a.pte", b = dir.path() + "/b.pte";
    ASSERT_EQ(testing::run_cli("import " + tflite + " -o " + a).exit_code, 0);
    ASSERT_EQ(testing::run_cli("import " + tflite + " -o " + b).exit_code, 0);
    EXPECT_EQ(tools::read_file(a), tools::read_file(b)) << model;
  }
}

// Each operator's work (the per-MAC columns of the evidence page): the MACs
// of every model add up to the figure TFLM's anchors give for it.
TEST(ImportMlperfTiny, OperatorsMacsAddUpToTheModels) {
  ETNS_REQUIRE_SHARED(shared);
  const nlohmann::json anchors = nlohmann::json::parse(tools::kTflmAnchorsJson);
  for (const char* model : kModels) {
    const tools::ImportedProgram p = tools::import_program(
        tools::read_file(shared + "/models/mlperf-tiny/" + model + ".tflite"), model);
    uint64_t macs = 0;
    for (const tools::ImportedOperator& op : p.imported.operators) {
      macs += op.macs;
      EXPECT_GT(op.output_elements, 0u) << model << " operator " << op.index;
    }
    EXPECT_EQ(macs, anchors["models"][model]["macs"].get<uint64_t>()) << model;
  }
}

// Bad models get one line naming what and where, a non-zero exit, and no
// program file (the checks themselves: tools/writers/tflite/tflite_reader_test.cpp,
// tools/writers/import/tflite_import_test.cpp).
TEST(ImportRefusals, EachBadModelGetsOneLineAndNoProgram) {
  testing::TempDir dir;
  const std::vector<uint8_t> good = tools::tflite::write_tflite(tools::tflite::example_classifier());
  tools::tflite::Model custom = tools::tflite::example_classifier();
  custom.operators[0].builtin = static_cast<int32_t>(tools::tflite::Builtin::Custom);
  custom.operators[0].custom_code = "MyOp";
  custom.operators[0].options = {};
  custom.operators[0].builtin_options_type = 0;
  tools::tflite::Model tanh = tools::tflite::example_classifier();
  tanh.operators[0].options.activation = tools::tflite::Activation::Tanh;
  struct Case {
    std::string name;
    std::vector<uint8_t> bytes;
    std::string line;  // after "etns: <path>: "
  };
  const std::string text = "not a model";
  const std::vector<Case> cases = {
      {"text.tflite", std::vector<uint8_t>(text.begin(), text.end()), "not a TFLite model"},
      {"truncated.tflite", std::vector<uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2)),
       ""},
      {"custom.tflite", tools::tflite::write_tflite(custom), "operator 0 (CUSTOM): custom operator \"MyOp\""},
      {"tanh.tflite", tools::tflite::write_tflite(tanh), "operator 0 (CONV_2D): fused activation TANH"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string model = dir.path() + "/" + c.name;
    tools::write_file_atomic(model, c.bytes.data(), c.bytes.size());
    const std::string out = dir.path() + "/" + c.name + ".pte";
    const testing::CliResult r = testing::run_cli("import " + model + " -o " + out);
    EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
    EXPECT_EQ(r.stderr_text.find("etns: " + model + ": " + c.line), 0U) << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_FALSE(std::filesystem::exists(out)) << "no half-written program";
  }
}

// `etns reproduce --tflite`: each model imported and run on the M55, every
// operator checked against TFLM's tensors, beside TFLM + CMSIS-NN's counts.
TEST(ImportMlperfTiny, EvidenceSectionPutsEachModelBesideTflm) {
  ETNS_REQUIRE_SHARED(shared);
  ETNS_REQUIRE_QEMU();
  ETNS_REQUIRE_FIRMWARE();
  testing::TempDir dir;
  const tools::ImportedSection section =
      tools::imported_models_section({shared + "/models/mlperf-tiny", shared + "/models/real-tflite"}, dir.path(), nullptr);
  EXPECT_TRUE(section.ok) << section.markdown;
  for (const char* row : {"| kws | 13 → 13 | 13 of 13 |", "| vww | 31 → 31 | 31 of 31 |", "| ic | 16 → 16 | 16 of 16 |",
                          "| ad | 10 → 10 | 10 of 10 |", "1,817,754", "6,559,149", "4,914,105", "150,289",
                          "| kws | CONV_2D | 5 | 2,368,000 MACs |", "| kws | DEPTHWISE_CONV_2D | 4 | 288,000 MACs |",
                          "| ic | ADD | 3 | 28,672 elements |", "| ad | FULLY_CONNECTED | 10 | 264,192 MACs |",
                          // real-tflite: TFLM's arena from the folder's index.json
                          "| person_detect | 31 → 31 | 31 of 31 |", "85,024 B", "| fingerprint_signature | 5 → 5 | 5 of 5 |",
                          "| anomaly_detection_mltk | 17 → 14 | 17 of 17 |"}) {
    EXPECT_NE(section.markdown.find(row), std::string::npos) << row << "\n" << section.markdown;
  }
  // The figures the first screen leads with: executed instructions and estimated cycles of
  // the same execute(), the convolutions' MACs from the program's shapes.
  ASSERT_EQ(section.figures.size(), 10u);
  for (const tools::CycleFigures& f : section.figures) {
    SCOPED_TRACE(f.name);
    EXPECT_EQ(f.refused, "");
    EXPECT_GT(f.instructions, 0u);
    // A cycles-per-instruction outside [0.5, 3] would be a broken estimate or a count taken for one.
    EXPECT_GT(f.cycles, f.instructions / 2);
    EXPECT_LT(f.cycles, f.instructions * 3);
    EXPECT_EQ(f.cycle_model.rfind("LLVM 19 MCA, Cortex-M55 scheduling model, cortex-m55", 0), 0u) << f.cycle_model;
    const double use = tools::conv_pipe_use(f);
    if (f.operators.count(tools::kConvOperator)) {
      EXPECT_GT(use, 0.05);
      EXPECT_LT(use, 1.0) << "at most 8 MACs per cycle";
    } else {
      EXPECT_LT(use, 0.0);
    }
  }
  EXPECT_EQ(section.figures.front().origin, "imported from `mlperf-tiny`");
  EXPECT_EQ(section.markdown.find("| person_detect | CONV_2D |"), std::string::npos)
      << "per-type rows of models TFLM's anchors do not cover live in imported/operator_types.md";
}

}  // namespace
}  // namespace etns
