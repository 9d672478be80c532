#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"

namespace etns::runtime {

// The KernelTypes union tags of the .pte format (pte-format.md §3.1).
enum class ValueKind : uint8_t {
  None = 0,
  Null = 1,
  Int = 2,
  Bool = 3,
  Double = 4,
  Tensor = 5,
  String = 6,
  IntList = 7,
  DoubleList = 8,
  BoolList = 9,
  TensorList = 10,
  OptionalTensorList = 11,
};

const char* to_string(ValueKind kind);

struct EValue;

// An int[] argument: its items are value-table indices of Int values, checked
// at load, so at() cannot go out of bounds.
struct IntList {
  const int64_t* item_indices = nullptr;
  uint32_t size = 0;
  const EValue* values = nullptr;
  int64_t at(size_t i) const;
};

// A list whose items are stored inline in the program (double[] / bool[]).
template <typename T>
struct InlineList {
  const T* items = nullptr;
  uint32_t size = 0;
};

// A Tensor[] / Tensor?[] argument: value-table indices (-1 = None), checked at load.
struct TensorIndexList {
  const int32_t* item_indices = nullptr;
  uint32_t size = 0;
};

struct StringView {
  const char* chars = nullptr;
  uint32_t size = 0;
};

// One entry of a method's value table.
struct EValue {
  ValueKind kind = ValueKind::None;
  union {
    int64_t int_value;
    double double_value;
    bool bool_value;
    Tensor tensor;
    IntList int_list;
    InlineList<double> double_list;
    InlineList<uint8_t> bool_list;
    TensorIndexList tensor_list;
    StringView string;
  };

  EValue() : int_value(0) {}
  bool is(ValueKind k) const { return kind == k; }
};

inline int64_t IntList::at(size_t i) const { return values[item_indices[i]].int_value; }

}  // namespace etns::runtime
