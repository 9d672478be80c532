// libFuzzer target 5: the PTE writer and `lower`. A program our loader
// accepts is read into the editable model, written back (the round trip must
// load again), lowered to the ns provider, written, and the lowered program
// run like any other. A Failure (a refused model) is a normal outcome; a
// written program that our own loader refuses is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz/bounded_run.h"
#include "tools/common/failure.h"
#include "tools/writers/lower/lower.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace {

using namespace etns;

// The writer's output must always pass our loader's verification.
void require_loadable(const std::vector<uint8_t>& written, const char* what) {
  try {
    (void)tools::read_program(written, what);
  } catch (const tools::Failure& failure) {
    std::fprintf(stderr, "%s: the writer produced a program the loader refuses: %s\n", what, failure.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tools::ProgramModel model;
  try {
    model = tools::read_program(std::vector<uint8_t>(data, data + size), "fuzzed");
  } catch (const tools::Failure&) {
    return 0;  // refused on read: the program fuzzer covers those paths
  }
  try {
    require_loadable(tools::write_program(model), "round trip");
    tools::lower_to_ns(model);
  } catch (const tools::Failure&) {
    return 0;  // a model the writer or the lowering refuses, with its one line
  }
  std::vector<uint8_t> lowered;
  try {
    lowered = tools::write_program(model);
  } catch (const tools::Failure&) {
    return 0;
  }
  require_loadable(lowered, "lowered");
  fuzz::run_bounded(lowered.data(), lowered.size());
  return 0;
}
