#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/runner/timing_report.h"

// `etns time`: any Cortex-M55 firmware for QEMU's mps3-an547 (a user's own
// image, built with firmware/regions.h), run under QEMU with the counting
// plugin (qemu_plugin/etns_counter.c) on its region markers.
namespace etns::tools {

// Bytes from one marker to the next in firmware/regions.h's table (one
// Thumb `bx lr` each), and the two markers of one region.
constexpr uint32_t kRegionMarkerStride = 2;
constexpr uint32_t kRegionMarkerBytes = 2 * kRegionMarkerStride;
// The longest name a region may have (firmware/regions.h documents it).
constexpr size_t kMaxRegionNameBytes = 64;

// What firmware/regions.h leaves in an image.
struct RegionTable {
  uint64_t markers_address = 0;  // etns_region_markers, bit 0 clear
  uint32_t region_count = 0;     // ETNS_REGIONS_MAX: the symbol's size / kRegionMarkerBytes
  std::map<uint32_t, std::string> names;  // from .etns_region_names, by id
};

// Reads the marker table and the names of an image loaded from its path:
// an ELF32 little-endian Arm image whose symbol etns_region_markers is
// 2 * N `bx lr` instructions. Throws Failure (exit code 2) with one line
// naming the file and what is wrong: another machine, no table (with how to
// add one), a table of another shape, names that do not parse, name an id
// outside the table or name one id twice differently.
RegionTable read_region_table(const ElfImage& image);

// The records of .etns_region_names: a 4-byte little-endian id, then the
// name and a NUL, back to back. Identical records repeat harmlessly. Throws
// Failure (exit code 2) prefixed with `where` for a cut record, an empty,
// unprintable or too long name, an id outside [0, region_count), or one id
// with two names.
std::map<uint32_t, std::string> parse_region_names(const std::vector<uint8_t>& bytes, uint32_t region_count,
                                                   const std::string& where);

struct TimeOptions {
  std::string elf;
  std::string qemu;    // "" = $ETNS_QEMU or qemu-system-arm on PATH
  std::string plugin;  // "" = the plugin built beside this etns
  double timeout_seconds = 120;
  uint32_t max_visits = 4096;  // visits kept per region (the plugin's max_visits)
  // The firmware's console (semihosting and UART0), as it arrives.
  std::function<void(const std::string& text)> on_console;
};

// Runs the image under qemu-system-arm -M mps3-an547 with semihosting, its
// console and UART0 captured, and the plugin counting on its markers with
// the Cortex-M55 cycle estimate (cycles=cortex-m55; a plugin without it gives
// instruction counts only, and the report says so). Throws Failure with one
// line: QEMU or the plugin missing, QEMU refusing to start, a timeout, QEMU
// killed (a locked-up firmware), the firmware exiting non-zero (the console
// holds what it printed), or unreadable counts.
TimingReport time_firmware(const TimeOptions& options);

}  // namespace etns::tools
