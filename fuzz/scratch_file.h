#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// For targets whose code under test reads a path (the config loader, the ELF
// reader): one file in a private temporary folder, rewritten per input.
namespace etns::fuzz {

// The private folder (created on first use, removed at exit).
const std::string& scratch_dir();

// Writes `data` to scratch_dir()/name and returns the path.
std::string write_scratch(const std::string& name, const uint8_t* data, size_t size);

}  // namespace etns::fuzz
