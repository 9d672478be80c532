// libFuzzer target `tflite`: any bytes as a .tflite file through read_tflite. A
// Failure naming the file is the expected refusal. A model the reader accepts
// is written back with the test writer, inline and with its data after the
// flatbuffer, and must read back the same: a difference is a finding. Then
// it goes through `etns import` (a refusal is normal), and a program the
// importer writes must load and run as the firmware would (bounded_run.h).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz/bounded_run.h"
#include "tools/common/failure.h"
#include "tools/writers/import/import_program.h"
#include "tools/writers/tflite/tflite_reader.h"
#include "tools/writers/tflite/tflite_test_writer.h"

namespace {

using namespace etns::tools;

void require_round_trip(const tflite::Model& model, bool external_buffers) {
  tflite::WriteOptions options;
  options.external_buffers = external_buffers;
  const char* layout = external_buffers ? "outside" : "inline";
  std::string difference;
  try {
    difference = tflite::first_difference(model, tflite::read_tflite(tflite::write_tflite(model, options), layout));
  } catch (const Failure& failure) {
    std::fprintf(stderr, "round trip (%s): %s\n", layout, failure.what());
    std::abort();
  }
  if (!difference.empty()) {
    std::fprintf(stderr, "round trip (%s): %s\n", layout, difference.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tflite::Model model;
  try {
    model = tflite::read_tflite(std::vector<uint8_t>(data, data + size), "fuzzed.tflite");
  } catch (const Failure&) {
    return 0;
  }
  require_round_trip(model, false);
  require_round_trip(model, true);
  std::vector<uint8_t> program;
  try {
    program = import_program(std::vector<uint8_t>(data, data + size), "fuzzed.tflite").pte;
  } catch (const Failure&) {
    return 0;
  }
  etns::fuzz::run_bounded(program.data(), program.size());
  return 0;
}
