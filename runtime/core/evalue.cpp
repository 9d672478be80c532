#include "runtime/core/evalue.h"

namespace etns::runtime {

const char* to_string(ValueKind kind) {
  switch (kind) {
    case ValueKind::None: return "None";
    case ValueKind::Null: return "Null";
    case ValueKind::Int: return "Int";
    case ValueKind::Bool: return "Bool";
    case ValueKind::Double: return "Double";
    case ValueKind::Tensor: return "Tensor";
    case ValueKind::String: return "String";
    case ValueKind::IntList: return "IntList";
    case ValueKind::DoubleList: return "DoubleList";
    case ValueKind::BoolList: return "BoolList";
    case ValueKind::TensorList: return "TensorList";
    case ValueKind::OptionalTensorList: return "OptionalTensorList";
  }
  return "Unknown";
}

}  // namespace etns::runtime
