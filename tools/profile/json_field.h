#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Reading a JSON document against its schema. A JsonField is one place in a
// document: its value (or none, when the key is missing), the file it came
// from and its JSON pointer. Every accessor that finds the wrong thing throws
// Failure with one line naming both:
//   results/x/summary.json: /primary/median: expected a number, found null
// The document must outlive every field taken from it.
namespace etns::tools {

class JsonField {
 public:
  // The whole document of `file`.
  JsonField(const nlohmann::json& document, std::string file);

  // A member; missing members are fields too, so that the error names them.
  JsonField operator[](const std::string& key) const;
  // A member that may be absent or null (older bundles, figures not measured).
  bool present(const std::string& key) const;

  // The elements of an array, the members of an object (in the document's order).
  std::vector<JsonField> elements() const;
  std::vector<std::pair<std::string, JsonField>> members() const;

  double number() const;
  uint64_t count() const;    // a non-negative integer
  int64_t integer() const;   // any integer
  std::string text() const;  // a string
  bool flag() const;         // a boolean
  std::vector<std::string> texts() const;  // an array of strings
  std::optional<double> optional_number() const;     // null or missing: nullopt
  std::optional<uint64_t> optional_count() const;
  std::optional<std::string> optional_text() const;

  // A value of any type that must exist (frozen configuration values, issue
  // contexts); an object when `object` is set.
  const nlohmann::json& any() const;
  const nlohmann::json& object() const;

  // The field must hold exactly `expected` (schema names, versions).
  void expect(const nlohmann::json& expected) const;

  const std::string& pointer() const { return pointer_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  JsonField(const nlohmann::json* value, std::string file, std::string pointer);
  const nlohmann::json& require(bool (nlohmann::json::*is)() const noexcept, const char* expected) const;

  const nlohmann::json* value_;  // null when the member is missing
  std::string file_;
  std::string pointer_;
};

}  // namespace etns::tools
