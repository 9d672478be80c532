#include "tools/evidence/bundle/json_field.h"

#include <cmath>
#include <fmt/format.h>

#include "tools/common/failure.h"

namespace etns::tools {

using json = nlohmann::json;

JsonField::JsonField(const json& document, std::string file) : value_(&document), file_(std::move(file)) {}

JsonField::JsonField(const json* value, std::string file, std::string pointer)
    : value_(value), file_(std::move(file)), pointer_(std::move(pointer)) {}

void JsonField::fail(const std::string& what) const {
  throw Failure(fmt::format("{}: {}: {}", file_, pointer_.empty() ? "/" : pointer_, what));
}

namespace {

// A JSON pointer escapes '~' and '/' inside keys (RFC 6901).
std::string escaped(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

}  // namespace

JsonField JsonField::operator[](const std::string& key) const {
  const json& container = object();
  const auto found = container.find(key);
  return JsonField(found == container.end() ? nullptr : &*found, file_, pointer_ + "/" + escaped(key));
}

std::vector<JsonField> JsonField::elements() const {
  const json& array = require(&json::is_array, "an array");
  std::vector<JsonField> out;
  for (size_t i = 0; i < array.size(); ++i) out.push_back(JsonField(&array[i], file_, pointer_ + "/" + std::to_string(i)));
  return out;
}

std::vector<std::pair<std::string, JsonField>> JsonField::members() const {
  std::vector<std::pair<std::string, JsonField>> out;
  for (const auto& [key, value] : object().items()) {
    out.emplace_back(key, JsonField(&value, file_, pointer_ + "/" + escaped(key)));
  }
  return out;
}

const json& JsonField::require(bool (json::*is)() const noexcept, const char* expected) const {
  if (value_ == nullptr) fail(fmt::format("missing (expected {})", expected));
  if (!(value_->*is)()) fail(fmt::format("expected {}, found {}", expected, value_->type_name()));
  return *value_;
}

double JsonField::number() const { return require(&json::is_number, "a number").get<double>(); }

uint64_t JsonField::count() const {
  const json& value = require(&json::is_number, "a non-negative integer");
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0) return static_cast<uint64_t>(value.get<int64_t>());
  fail("expected a non-negative integer, found " + value.dump());
}

int64_t JsonField::integer() const {
  const json& value = require(&json::is_number, "an integer");
  if (value.is_number_integer() && (!value.is_number_unsigned() || value.get<uint64_t>() <= INT64_MAX)) {
    return value.get<int64_t>();
  }
  fail("expected an integer, found " + value.dump());
}

std::string JsonField::text() const { return require(&json::is_string, "a string").get<std::string>(); }

bool JsonField::flag() const { return require(&json::is_boolean, "a boolean").get<bool>(); }

std::vector<std::string> JsonField::texts() const {
  std::vector<std::string> out;
  for (const JsonField& element : elements()) out.push_back(element.text());
  return out;
}

std::string JsonField::text_in(std::initializer_list<const char*> allowed) const {
  const std::string value = text();
  std::string listed;
  for (const char* name : allowed) {
    if (value == name) return value;
    listed += (listed.empty() ? "" : ", ") + std::string(name);
  }
  fail(fmt::format("expected one of {}, found '{}'", listed, value));
}

std::optional<JsonField> JsonField::or_null(const char* expected) const {
  if (value_ == nullptr) fail(fmt::format("missing (expected {} or null)", expected));
  if (value_->is_null()) return std::nullopt;
  return *this;
}

std::optional<double> JsonField::number_or_null() const {
  const std::optional<JsonField> field = or_null("a number");
  return field ? std::optional<double>(field->number()) : std::nullopt;
}

std::optional<uint64_t> JsonField::count_or_null() const {
  const std::optional<JsonField> field = or_null("a non-negative integer");
  return field ? std::optional<uint64_t>(field->count()) : std::nullopt;
}

std::optional<int64_t> JsonField::integer_or_null() const {
  const std::optional<JsonField> field = or_null("an integer");
  return field ? std::optional<int64_t>(field->integer()) : std::nullopt;
}

std::optional<std::string> JsonField::text_or_null() const {
  const std::optional<JsonField> field = or_null("a string");
  return field ? std::optional<std::string>(field->text()) : std::nullopt;
}

std::optional<double> JsonField::optional_number() const {
  if (value_ == nullptr || value_->is_null()) return std::nullopt;
  return number();
}

std::optional<std::string> JsonField::optional_text() const {
  if (value_ == nullptr || value_->is_null()) return std::nullopt;
  return text();
}

const json& JsonField::any() const {
  if (value_ == nullptr) fail("missing");
  return *value_;
}

const json& JsonField::object() const { return require(&json::is_object, "an object"); }

void JsonField::expect(const json& expected) const {
  if (any() != expected) fail(fmt::format("expected {}, found {}", expected.dump(), value_->dump()));
}

}  // namespace etns::tools
