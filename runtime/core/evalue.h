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

// A pointer and a uint32_t count: TensorIndexList, StringView, InlineList<T>.
constexpr Layout indices_and_count(const Abi& abi) {
  return StructLayout().member(word(abi)).member(fixed<uint32_t>()).done();
}
template <typename T>
constexpr Layout target_layout(const InlineList<T>*, const Abi& abi) {
  return indices_and_count(abi);
}
static_assert(layout_of<InlineList<double>>(kThisAbi) ==
              Layout{sizeof(InlineList<double>), alignof(InlineList<double>)});
ETNS_TARGET_LAYOUT(IntList, StructLayout().member(word(abi)).member(fixed<uint32_t>()).member(word(abi)).done());
ETNS_TARGET_LAYOUT(TensorIndexList, indices_and_count(abi));
ETNS_TARGET_LAYOUT(StringView, indices_and_count(abi));
ETNS_TARGET_LAYOUT(EValue, StructLayout()
                               .member(fixed<ValueKind>())
                               .member(union_of({fixed<int64_t>(), fixed<double>(), fixed<bool>(),
                                                 layout_of<Tensor>(abi), layout_of<IntList>(abi),
                                                 layout_of<InlineList<double>>(abi),
                                                 layout_of<InlineList<uint8_t>>(abi),
                                                 layout_of<TensorIndexList>(abi), layout_of<StringView>(abi)}))
                               .done());

}  // namespace etns::runtime
