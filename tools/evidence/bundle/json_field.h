#pragma once

#include <cstdint>
#include <initializer_list>
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

  // The elements of an array, the members of an object (in the document's order).
  std::vector<JsonField> elements() const;
  std::vector<std::pair<std::string, JsonField>> members() const;

  double number() const;
  uint64_t count() const;    // a non-negative integer
  int64_t integer() const;   // any integer
  std::string text() const;  // a string
  bool flag() const;         // a boolean
  std::vector<std::string> texts() const;  // an array of strings
  // A string that must be one of `allowed` (statuses, severities, roles).
  std::string text_in(std::initializer_list<const char*> allowed) const;

  // A value that must be there but may be null (a figure the run does not
  // have): nullopt for null; missing is an error like a wrong type.
  std::optional<JsonField> or_null(const char* expected) const;
  std::optional<double> number_or_null() const;
  std::optional<uint64_t> count_or_null() const;
  std::optional<int64_t> integer_or_null() const;
  std::optional<std::string> text_or_null() const;

  // A value that may also be absent (files other than a bundle's, e.g. an
  // export manifest): nullopt for missing or null.
  std::optional<double> optional_number() const;
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
