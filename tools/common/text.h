#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Small text helpers the QEMU driver, the bench, the configuration reader,
// the reports and the CLI share.
namespace etns::tools {

// "0x1f40": an address as QEMU's options and the plugin's arguments take it.
std::string hex_address(uint64_t value);

// "65,536": a count with its thousands grouped by commas, as the docs write them.
std::string grouped(uint64_t value);
// "1,005,563", "-12": a figure rounded to an integer, grouped the same way
// (the reports' and comparisons' numbers).
std::string format_count(double value);

// `text` (a name read from a file, which may hold any byte) as printable
// ASCII, escaped as runtime::escape_text does but never cut: what a text
// report prints of a program's strings, so a newline cannot split a line and
// no control byte reaches the terminal.
std::string printable(const std::string& text);

// The whitespace-separated words of a line.
std::vector<std::string> words_of(const std::string& line);

// Levenshtein distance: the fewest single-character insertions, deletions and
// substitutions that turn `a` into `b`.
size_t edit_distance(const std::string& a, const std::string& b);

// "Did you mean": the name in `names` closest to `typed`, or "" when none is
// close. Case is ignored; an exact case-insensitive match wins, then the
// nearest within two edits (the first listed on a tie), then, for a typed
// word of three or more characters, a name it starts or that starts it.
std::string closest_name(const std::string& typed, const std::vector<std::string>& names);

}  // namespace etns::tools
