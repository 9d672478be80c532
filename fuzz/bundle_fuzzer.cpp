// libFuzzer target 3: the bundle readers behind `etns compare` and
// `etns compare-programs`. Two bundles of a made-up run are written once by
// the real writer; each input replaces one document of the candidate (the
// first byte picks which; the manifest is re-hashed so that only the schema
// can object), then the candidate is read and compared both ways. A Failure
// naming the file and field is the expected refusal.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "fuzz/scratch_file.h"
#include "tools/evidence/bundle/bundle.h"
#include "tools/evidence/bundle/test_bundles.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/compare/compare.h"
#include "tools/evidence/compare/regression_policy.h"

namespace {

using namespace etns;

const char* const kDocuments[] = {"summary.json", "run_metadata.json", "profile_results.json", "manifest.json"};

struct Bundles {
  std::string baseline;
  std::string candidate;
  std::map<std::string, std::string> originals;  // the candidate's documents as written
};

Bundles& bundles() {
  static Bundles made = [] {
    Bundles b;
    b.baseline = tools::testing::write_synthetic_bundle(fuzz::scratch_dir(), "baseline");
    b.candidate = tools::testing::write_synthetic_bundle(fuzz::scratch_dir(), "candidate");
    for (const char* document : kDocuments) {
      const std::vector<uint8_t> bytes = tools::read_file(b.candidate + "/" + document);
      b.originals[document] = std::string(bytes.begin(), bytes.end());
    }
    return b;
  }();
  return made;
}

// Puts back the two files an input changed: its document and the manifest.
void restore(const Bundles& b, const std::string& document) {
  tools::write_file_atomic(b.candidate + "/" + document, b.originals.at(document));
  tools::write_file_atomic(b.candidate + "/manifest.json", b.originals.at("manifest.json"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  Bundles& b = bundles();
  const std::string document = kDocuments[data[0] % 4];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (document == "manifest.json") {
    tools::write_file_atomic(b.candidate + "/manifest.json", text);
  } else {
    tools::testing::rewrite_in_bundle(b.candidate, document, text);
  }
  try {
    const tools::Bundle baseline = tools::read_bundle(b.baseline);
    const tools::Bundle candidate = tools::read_bundle(b.candidate);
    const tools::BundleComparison comparison =
        tools::compare_bundles(baseline, candidate, tools::threshold_policy(5.0), 3);
    (void)tools::comparison_markdown(comparison);
    (void)tools::comparison_json(comparison).dump();
    (void)tools::compare_programs(baseline, candidate, std::nullopt);
  } catch (const tools::Failure&) {
  }
  restore(b, document);
  return 0;
}
