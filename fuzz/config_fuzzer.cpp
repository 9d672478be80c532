// libFuzzer target 2: any bytes as the YAML configuration `etns profile`
// reads, beside a real program (model.pte, an exported relu6 program) so that
// configs naming it reach the checks after the model is read. A Failure with
// its one line is the expected refusal.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/scratch_file.h"
#include "tools/common/failure.h"
#include "tools/evidence/config/config.h"
#include "tools/writers/export/coverage_models.h"
#include "tools/writers/export/exporter.h"
#include "tools/writers/program/graph_to_program.h"
#include "tools/evidence/runner/model_facts.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  using namespace etns;
  const std::vector<uint8_t> model =
      tools::graph_to_pte(tools::build_coverage_graph("relu6", tools::Provider::Arm, tools::kTier1Seed));
  fuzz::write_scratch("model.pte", model.data(), model.size());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etns;
  const std::string path = fuzz::write_scratch("config.yaml", data, size);
  try {
    (void)tools::load_profile_config(path, {}, tools::read_model_facts);
  } catch (const tools::Failure&) {
  }
  return 0;
}
