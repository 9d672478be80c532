#include "runtime/exec/operator_contract.h"

namespace etns::runtime {

bool kind_accepts(ArgKind kind, ValueKind value) {
  const bool null = value == ValueKind::Null;
  switch (kind) {
    case ArgKind::Tensor:
      return value == ValueKind::Tensor;
    case ArgKind::OptionalTensor:
      return value == ValueKind::Tensor || null;
    case ArgKind::Int:
      return value == ValueKind::Int;
    case ArgKind::OptionalInt:
      return value == ValueKind::Int || null;
    case ArgKind::IntList:
      return value == ValueKind::IntList;
    case ArgKind::OptionalIntList:
      return value == ValueKind::IntList || null;
    case ArgKind::Double:
      return value == ValueKind::Double;
    case ArgKind::Bool:
      return value == ValueKind::Bool;
    case ArgKind::Scalar:
      return value == ValueKind::Int || value == ValueKind::Double || value == ValueKind::Bool;
    case ArgKind::OptionalScalar:
      return value == ValueKind::Int || value == ValueKind::Double || value == ValueKind::Bool ||
             null;
    case ArgKind::OptionalDtype:
      return value == ValueKind::Int || null;
  }
  return false;
}

const char* to_string(ArgKind kind) {
  switch (kind) {
    case ArgKind::Tensor: return "Tensor";
    case ArgKind::OptionalTensor: return "Tensor or Null";
    case ArgKind::Int: return "Int";
    case ArgKind::OptionalInt: return "Int or Null";
    case ArgKind::IntList: return "IntList";
    case ArgKind::OptionalIntList: return "IntList or Null";
    case ArgKind::Double: return "Double";
    case ArgKind::Bool: return "Bool";
    case ArgKind::Scalar: return "Scalar (Int, Double or Bool)";
    case ArgKind::OptionalScalar: return "Scalar or Null";
    case ArgKind::OptionalDtype: return "Int (a ScalarType) or Null";
  }
  return "?";
}

const char* to_string(Shape shape) {
  switch (shape) {
    case Shape::Any: return "any";
    case Shape::Nhwc: return "4-D, NHWC in memory";
    case Shape::RowMajor: return "row-major";
    case Shape::Vector: return "one value per channel, any shape, row-major";
    case Shape::Single: return "one element";
  }
  return "?";
}

namespace detail {
const ArgSpec* no_such_argument(const char*) { return nullptr; }
}  // namespace detail

}  // namespace etns::runtime
