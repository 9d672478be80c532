#pragma once

// The profile configuration's keys as one table: what each key is, its type,
// default, allowed values and one line of help. The same table checks a
// configuration (config.cpp), suggests a key for a mistyped one, lists the
// keys (`etns profile --list-keys`) and writes the key reference of
// docs/profiling.md (`--list-keys --markdown`), so none of them can drift.

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace etns::tools {

enum class KeyType {
  Section,           // a mapping of further keys; missing or null reads as empty
  Boolean,           // true or false
  Integer,           // in [min, max], or one of `choices`
  String,            // a non-empty string
  Path,              // a non-empty string, made absolute where it was written
  PathList,          // a path or a list of paths, each made absolute where it was written; resolved as a list
  Serial,            // a string, or digits that YAML read as a number (kept as text)
  Choice,            // one of `choices` (strings)
  OperatorList,      // a list of operator names
  Mapping,           // a free-form mapping, recorded as given
  CounterSelection,  // profiling.pmu_counters: group -> default | all | [names]; checked in counters.cpp
  Unsupported,       // accepted only as null: etns cannot honour it
  Reserved,          // may not appear at all: it belongs to the tool or to another key
};

// Values a key's type admits but etns refuses, with the reason. "{}" in
// `message` stands for the value given.
struct Refusal {
  std::vector<nlohmann::ordered_json> values;
  std::string message;
};

struct KeySpec {
  std::string path;  // dotted from the top: "profiling.iterations"
  KeyType type = KeyType::String;
  nlohmann::ordered_json fallback;  // the default; null: none, the key is optional
  std::string help;                 // one line

  bool nullable = true;                                 // may be given as null (false: null is a type error)
  int64_t min = 0;                                      // Integer
  int64_t max = std::numeric_limits<int64_t>::max();    // Integer
  std::string max_reason;                               // why `max` is the limit
  std::vector<nlohmann::ordered_json> choices;          // Choice, or an Integer's only values
  std::vector<Refusal> refusals;
  std::string kind;          // what a type error says is expected, instead of the type's own words
  std::string other;         // Choice: the message for a string outside `choices` ("{}" = the value)
  std::string unit;          // "bytes", "s", "ms", "Hz"
  std::string default_text;  // the default as documented when another key or file decides it
  // The targets (target.board values) on which the key changes what runs or
  // what is checked; empty: none, the key is recorded only. A key given on a
  // target it does not affect draws a warning instead of passing silently.
  std::vector<std::string> targets;
};

// The values of target.board, in the order the docs list them.
const std::vector<std::string>& profile_targets();

// Whether `spec` changes anything on `target`.
bool affects(const KeySpec& spec, const std::string& target);

// Every key in schema order: a section's keys follow it, in the order the
// resolved configuration (and the bundle's frozen copy) lists them.
const std::vector<KeySpec>& profile_config_keys();

// `etns profile --list-keys`: one line per key (key, type, default, help).
std::string key_listing_text();

// `etns profile --list-keys --markdown`: the key reference table of
// docs/profiling.md, between its two marker comments.
std::string key_reference_markdown();

// What a value of `spec` must be, as an error message and the listing say it
// ("a positive integer", "one of csv, json").
std::string expected_kind(const KeySpec& spec);

}  // namespace etns::tools
