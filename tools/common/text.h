#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Small text helpers the QEMU driver and the bench share.
namespace etns::tools {

// "0x1f40": an address as QEMU's options and the plugin's arguments take it.
std::string hex_address(uint64_t value);

// The whitespace-separated words of a line.
std::vector<std::string> words_of(const std::string& line);

}  // namespace etns::tools
