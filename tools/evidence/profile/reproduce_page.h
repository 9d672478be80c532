#pragma once

// Internal to `etns reproduce` (reproduce.cpp, reproduce_first_screen.cpp):
// the folders on the page, their bundles and the figures' wording.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tools/evidence/bundle/bundle.h"
#include "tools/evidence/compare/compare.h"
#include "tools/evidence/profile/golden_check.h"
#include "tools/evidence/profile/reproduce.h"
#include "tools/evidence/profile/reproduce_cycles.h"

namespace etns::tools::reproduce_detail {

// The export manifest that belongs to one folder of programs: `etns export`
// writes manifest.json, upstream's exporter <name>_manifest.json. A file
// without a "models" object is not an export manifest and is passed over;
// several are merged, the first by name keeping a model both list.
struct FolderManifest {
  std::optional<ExportManifest> manifest;  // as compare_programs reads it
  std::vector<std::string> files;          // the file names it came from
};

// One folder of pairs on the page, and where it came from.
struct Source {
  std::string label;   // "etns" or "upstream": bundle folders, chart files, bench rows
  std::string title;   // "etns export" or "upstream program": the section headings
  std::string origin;  // how the folder came to be, for the page
  std::string dir;
  std::vector<ProgramPair> pairs;
  FolderManifest manifest;
};

// Every bundle of the page: written by the profile runs, read back (and
// verified) once each when the page needs it.
class Bundles {
 public:
  explicit Bundles(std::filesystem::path out) : out_(std::move(out)) {}
  // <out>/<target>/<source>/<program's stem>.
  std::string dir_of(const std::string& target, const Source& source, const std::string& program) const;
  const Bundle& get(const std::string& target, const Source& source, const std::string& program);

 private:
  std::filesystem::path out_;
  std::map<std::string, Bundle> read_;  // by folder
};

bool runs_on(const ReproduceOptions& options, const std::string& target);

// What the page writes for a figure that is absent.
constexpr const char* kAbsent = "—";

// The clean pass's median (one whole execute() without per-instruction
// instrumentation) from a bundle's summary, when the run has one.
std::optional<double> clean_median(const Bundle& bundle);
std::string fixed(double value, int decimals);
// Nanoseconds as microseconds to a tenth, grouped as format_count groups: "9,701.8".
std::string micros_text(double nanos);
std::string iterations_text(int64_t count);
// "−30.4 %, 0.70×": the change from arm to ns and ns ÷ arm.
std::string change_text(double arm, double ns);
// "1,000 → 700 B (−30.0 %, 0.70×)".
std::string arm_to_ns(double arm, double ns, const std::string& unit = "");

// tier1_arm and tier1_ns for the first screen, one run each on qemu-m55
// (reproduce_cycles.h): upstream's pair when --upstream gives one, else
// etns's own, on golden input A (--golden) or the export's example input.
// Empty when no source has a tier1 pair.
std::vector<CycleFigures> measure_tier1_cycles(const ReproduceOptions& options, const std::vector<Source>& sources,
                                               const ProgressFn& progress);

// The first screen: the title and, on qemu-m55, the cycles tables of
// `cycles` (tier1's and the imported models'); then arm → ns for the Tier-1
// pair and dscnn in one paragraph and one table, the goldens, the host said
// plainly (a difference stated only beyond its noise).
void write_first_screen(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                        Bundles& bundles, const std::optional<GoldenCheck>& goldens,
                        const std::vector<CycleFigures>& cycles);

// One row per (source, model): the figures of a whole run, from the bundles'
// summaries (reproduce_sections.cpp).
void write_summary_table(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                         Bundles& bundles);

// "About this page": what the numbers count, which programs are on the page,
// what arm and ns are (our portable kernels beside upstream's, from the
// qemu-m55 tier1_arm bundle when there is one).
void write_introduction(std::ostringstream& md, const ReproduceOptions& options, const std::vector<Source>& sources,
                        Bundles& bundles);

}  // namespace etns::tools::reproduce_detail
