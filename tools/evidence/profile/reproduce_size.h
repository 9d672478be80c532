#pragma once

#include <string>
#include <vector>

// The evidence page's size table (`etns reproduce`): flash and RAM by
// component (etns size) of each firmware image given, side by side.
namespace etns::tools {

struct SizedImage {
  std::string label;  // the column heading: "etns_m55_arm.elf", "kws-app (kws, selective)"
  std::string path;   // the ELF; a missing file is a column saying how to build it
  std::string how_to_build;
};

// "## Flash and RAM by component" and its table: one row per top-level
// component (the largest first, as in the first image), then the totals. An
// image whose file is missing gets "–" and a line naming `how_to_build`.
std::string size_section(const std::vector<SizedImage>& images);

}  // namespace etns::tools
