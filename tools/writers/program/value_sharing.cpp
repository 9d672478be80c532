#include "tools/writers/program/value_sharing.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "tools/writers/program/memory_planner.h"

namespace etns::tools {
namespace {

using runtime::ValueKind;

// What makes two values the same argument: the kind and the payload (a
// double by its bits, so -0.0 and 0.0, or two NaNs, stay apart); an int
// list by its (already shared) item indices.
using Key = std::tuple<int, int64_t, uint64_t, std::vector<int64_t>>;

bool shareable(const ModelValue& v) {
  switch (v.kind) {
    case ValueKind::Int:
    case ValueKind::Bool:
    case ValueKind::Double:
    case ValueKind::Null:
    case ValueKind::IntList: return true;
    default: return false;
  }
}

Key key_of(const ModelValue& v, const std::vector<int32_t>& canonical) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v.double_value, sizeof(bits));
  std::vector<int64_t> items;
  for (int64_t item : v.items) items.push_back(canonical.at(static_cast<size_t>(item)));
  switch (v.kind) {
    case ValueKind::Int: return {static_cast<int>(v.kind), v.int_value, 0, {}};
    case ValueKind::Bool: return {static_cast<int>(v.kind), v.bool_value ? 1 : 0, 0, {}};
    case ValueKind::Double: return {static_cast<int>(v.kind), 0, bits, {}};
    case ValueKind::IntList: return {static_cast<int>(v.kind), 0, 0, items};
    default: return {static_cast<int>(v.kind), 0, 0, {}};
  }
}

}  // namespace

size_t share_equal_values(ProgramModel& model) {
  // Ints come before the lists that hold them in every program we write, but
  // the pass does not rely on it: lists are keyed after every scalar.
  std::vector<int32_t> canonical(model.values.size());
  for (size_t v = 0; v < model.values.size(); ++v) canonical[v] = static_cast<int32_t>(v);
  std::map<Key, int32_t> first;
  for (const bool lists : {false, true}) {
    for (size_t v = 0; v < model.values.size(); ++v) {
      const ModelValue& value = model.values[v];
      if (!shareable(value) || (value.kind == ValueKind::IntList) != lists) continue;
      const auto [it, inserted] = first.emplace(key_of(value, canonical), static_cast<int32_t>(v));
      if (!inserted) canonical[v] = it->second;
    }
  }
  for (KernelCall& call : model.instructions) {
    for (int32_t& arg : call.args) {
      if (arg >= 0) arg = canonical.at(static_cast<size_t>(arg));
    }
  }
  for (ModelValue& value : model.values) {
    if (value.kind != ValueKind::IntList) continue;
    for (int64_t& item : value.items) item = canonical.at(static_cast<size_t>(item));
  }
  return drop_unused_values(model);
}

}  // namespace etns::tools
