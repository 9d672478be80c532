// Writes the `tflite` fuzz target's seeds: the test writer's example models
// (tools/writers/tflite/tflite_test_writer.h), inline, with their data after the
// flatbuffer, and with legacy operator codes, as <folder>/<name>.tflite; and
// every end-to-end import case (tests/support/tflite_cases.h: one importable
// model per builtin), as <folder>/case_<name>.tflite, so mutations start from
// models that reach each builtin's import and kernel.
//   build/bin/etns_write_tflite_seeds fuzz/corpus/tflite

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "tests/support/tflite_cases.h"
#include "tools/common/files.h"
#include "tools/writers/tflite/tflite_test_writer.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: etns_write_tflite_seeds FOLDER\n");
    return 2;
  }
  using namespace etns::tools::tflite;
  try {
    WriteOptions outside;
    outside.external_buffers = true;
    WriteOptions legacy;
    legacy.legacy_opcodes = true;
    struct Seed {
      const char* name;
      Model model;
      WriteOptions options;
    };
    const std::vector<Seed> seeds = {
        {"classifier", example_classifier(), {}},
        {"classifier_outside", example_classifier(), outside},
        {"classifier_legacy_codes", example_classifier(), legacy},
        {"operators", example_operators(), {}},
        {"operators_outside", example_operators(), outside},
    };
    for (const Seed& seed : seeds) {
      const std::vector<uint8_t> file = write_tflite(seed.model, seed.options);
      etns::tools::write_file_atomic(std::string(argv[1]) + "/" + seed.name + ".tflite", file.data(), file.size());
    }
    size_t cases = 0;
    for (const etns::testing::ImportCase& c : etns::testing::tflite_import_cases()) {
      const std::vector<uint8_t> file = write_tflite(c.model);
      etns::tools::write_file_atomic(std::string(argv[1]) + "/case_" + c.name + ".tflite", file.data(), file.size());
      ++cases;
    }
    std::printf("%zu seeds and %zu import cases written to %s\n", seeds.size(), cases, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "etns_write_tflite_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
