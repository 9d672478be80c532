#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

// The report of `etns time` (tools/evidence/runner/elf_timing.h): the counting
// plugin's output for one run, per region of the image, as a table and as
// JSON (schema etns.time).
namespace etns::tools {

// One visit of a region, or the whole run. Instructions are executed
// instructions, exact; cycles are estimated (LLVM 19's Cortex-M55 scheduling
// model), present only when the plugin ran with its cycle model.
struct TimedCounts {
  uint64_t instructions = 0;
  std::optional<uint64_t> cycles;
  std::vector<uint64_t> classes;  // every plugin class and "weighted", in TimingReport::classes order
};

struct TimedRegion {
  uint32_t id = 0;
  std::string name;  // "" when the image names no such region
  std::vector<TimedCounts> visits;
  uint64_t dropped_visits = 0;  // visits past max_visits, not counted
  uint64_t unbalanced = 0;      // begins while open, ends while closed, open at exit
};

struct TimingReport {
  std::string elf;
  int exit_status = 0;
  std::string console;               // everything the firmware printed
  std::vector<std::string> classes;  // the plugin's classes, then "weighted"
  std::string cycle_model;           // the plugin's model name; "" without cycles
  uint64_t unmodelled_instructions = 0;  // instructions the model did not know (1 cycle each)
  std::string cycles_missing_reason;     // why there are no cycles, when there are none
  TimedCounts whole_run;
  std::vector<TimedRegion> regions;  // every named region and every region the plugin reports, by id
  uint32_t max_visits = 0;
};

// Reads the plugin's JSON (schema etns.qemu_counts, version 2, or 3 with
// "cycles" and "cycle_model") against the image's names. Throws Failure
// prefixed with `where` for another schema or a count missing or of the
// wrong type.
TimingReport timing_from_counts(const nlohmann::json& counts, const std::map<uint32_t, std::string>& names,
                                const std::string& where);

// One line each: unbalanced markers and dropped visits, naming the region.
std::vector<std::string> timing_warnings(const TimingReport& report);

// The table: one row per region (id, name, visits, instructions per visit and
// in total, estimated cycles per visit and in total, estimated cycles per
// instruction), then the whole run, under a header that says what each
// number counts. Per visit is the mean when visits differ; a note below the
// table gives their range.
std::string render_timing(const TimingReport& report);

// Schema etns.time, version 1, keys in a fixed order: every figure of the
// table, each visit's counts and the plugin's classes per region.
nlohmann::ordered_json timing_json(const TimingReport& report);

}  // namespace etns::tools
