#pragma once

// Board profiles for the cycle estimate: where a run's code, constants,
// planned arena, kernel scratch, method arena, stack and data would live on a
// board, and what a data access costs there in wait states on top of the
// Cortex-M55 scheduling model's timing (qemu_plugin/etns_counter.c, memory=).
// Built in: an547 (QEMU's machine: no wait states) and apollo510 (public
// facts, each guess marked as an assumption); configs/boards/ holds their
// YAML, and a user's own profile is a YAML file of the same shape.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace etns::tools {

class ElfImage;

// What each part of a run is, in the order the plugin matches addresses (the
// arenas before the data sections that hold them).
inline const std::vector<std::string> kBoardRoles = {"code",         "constants", "planned_arena", "scratch",
                                                     "method_arena", "stack",     "data"};

struct BoardMemory {
  uint32_t wait_states = 0;
  bool assumed = false;  // the profile says "assumption", not "source"
  std::string note;      // its source or its assumption
};

struct BoardProfile {
  std::string name;  // "apollo510"
  std::string description;
  std::string clock_name;
  uint64_t clock_hz = 0;
  std::string clock_source;
  std::map<std::string, BoardMemory> memories;
  std::map<std::string, std::string> placement;  // role -> memory
  // "board profile apollo510: planned_arena in sram (2 wait states, assumed),
  // constants in mram (4, assumed); the rest 0" or "board profile an547: no
  // wait states".
  std::string describe() const;
  bool has_wait_states() const;
};

// "an547" or "apollo510" (built in), or a YAML file. Throws Failure (exit code
// 2) naming the profile and the key for anything missing or out of range.
BoardProfile load_board_profile(const std::string& name_or_path);
BoardProfile parse_board_profile(const std::string& yaml_text, const std::string& where);

// The plugin's memory= file for `firmware` (an etns firmware image: its
// __job_*, __planned_*, __stack_* symbols, method and temporary arenas and
// data sections): one line per placed range whose memory has wait states.
// Throws Failure naming the image and the symbol it lacks.
std::string board_memory_file(const BoardProfile& profile, const ElfImage& firmware);

}  // namespace etns::tools
