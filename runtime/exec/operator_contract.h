#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"

// An operator's contract: its schema arguments in call order, `out` last, each
// with a name, a kind, the dtypes a tensor may have and a shape rule. Each
// operator declares one next to its kernel's declaration, and it is the only
// place argument positions exist: prepare reads arguments by name through it
// (kernels/common/args.h), the registry takes the argument count from it, the
// loader checks each argument's kind against it before prepare runs, and the
// host tools build, inspect and rewrite calls through it.
namespace etns::runtime {

enum class ArgKind : uint8_t {
  Tensor,
  OptionalTensor,   // a Tensor or Null
  Int,
  OptionalInt,      // an Int or Null
  IntList,
  OptionalIntList,  // an IntList or Null
  Double,
  Bool,
  Scalar,           // Int, Double or Bool (a PyTorch Scalar)
  OptionalScalar,   // a Scalar or Null
  OptionalDtype,    // an Int holding a ScalarType code, or Null
};

// Whether `value` is of `kind`.
bool kind_accepts(ArgKind kind, ValueKind value);
// "Tensor", "Tensor or Null", "Int", ... for messages and docs.
const char* to_string(ArgKind kind);

// A set of ScalarTypes, one bit per code (codes are below 32).
struct Dtypes {
  uint32_t bits = 0;
  constexpr bool has(ScalarType t) const {
    const int code = static_cast<int>(t);
    return code >= 0 && code < 32 && ((bits >> code) & 1u) != 0;
  }
  constexpr Dtypes operator|(Dtypes o) const { return Dtypes{bits | o.bits}; }
  constexpr bool any() const { return bits == ~uint32_t{0}; }
};
constexpr Dtypes dtype(ScalarType t) { return Dtypes{uint32_t{1} << static_cast<int>(t)}; }
inline constexpr Dtypes kInt8 = dtype(ScalarType::Char);
inline constexpr Dtypes kInt16 = dtype(ScalarType::Short);
inline constexpr Dtypes kInt32 = dtype(ScalarType::Int);
inline constexpr Dtypes kFloat32 = dtype(ScalarType::Float);
inline constexpr Dtypes kAnyDtype{~uint32_t{0}};
inline constexpr Dtypes kNoDtype{0};  // not a tensor

// What a tensor argument's shape and memory order must be, checked by the
// generic reader; relations between arguments (out's sizes from input's, a
// vector's length from a channel count) are checked by prepare.
enum class Shape : uint8_t {
  Any,        // prepare checks it
  Nhwc,       // rank 4, N, H, W, C in memory (channels_last, or contiguous when C or H*W is 1)
  RowMajor,   // any rank, row-major in memory (size-1 dims ignored)
  Vector,     // per-channel or per-feature values: any shape, row-major, one value per
              // channel ([C], [1, C], [C, 1, 1, 1]); prepare checks the count
  Single,     // exactly one element, any shape
};
const char* to_string(Shape shape);

struct ArgSpec {
  const char* name;
  ArgKind kind;
  Dtypes dtypes = kNoDtype;
  Shape shape = Shape::Any;
  // The operator's state (a Tensor): it reads and writes the tensor in place
  // on every execution and keeps it between executions, as TFLite's variable
  // tensors (an LSTM's hidden and cell state). The loader sets it once, every
  // element to `state_initial`'s value, and refuses it as a constant, a method
  // input or output, or memory that any other tensor of the method shares; the
  // planner (tools/writers/program) keeps it live for the whole method.
  bool state = false;
  // For a state: the Int argument whose value every element starts at (TFLM
  // resets an int8 variable tensor to its zero point), or nullptr for 0.
  const char* state_initial = nullptr;
};

// A resolved argument: its position and its spec.
struct Arg {
  uint8_t index;
  const ArgSpec* spec;
  constexpr const char* name() const { return spec->name; }
};

namespace detail {
constexpr bool same_name(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}
// Not constexpr: reaching it while evaluating a constant expression is a
// compile error, so a misspelt argument name never builds.
const ArgSpec* no_such_argument(const char* name);
}  // namespace detail

struct OperatorContract {
  const char* name;  // the PTE operator name with overload: "cortex_m::quantized_linear.out"
  const ArgSpec* args;
  uint8_t count;     // schema arguments including out
  // The argument holding out's zero point (an Int), or nullptr: the int8
  // producers lower (tools/writers/export) follows to find an activation's grid.
  const char* output_zero_point = nullptr;
  // out holds its first argument's values rearranged or selected, on the same
  // grid (data movement, minimum, maximum, pad).
  bool keeps_zero_point = false;
  // out may be the first tensor argument's memory exactly (same address, same
  // size, same element size): an elementwise operator whose kernels read each
  // element before they write it. Any other overlap of out with an input is
  // refused at load.
  bool in_place = false;

  // The argument called `name`; in a constant expression an unknown name does not compile.
  constexpr Arg arg(const char* argument) const {
    for (uint8_t i = 0; i < count; ++i) {
      if (detail::same_name(args[i].name, argument)) return Arg{i, &args[i]};
    }
    return Arg{0, detail::no_such_argument(argument)};
  }
  constexpr Arg out() const { return Arg{static_cast<uint8_t>(count - 1), &args[count - 1]}; }
  // The position of `argument`, or -1 (for tools, which look names up at run time).
  constexpr int find(const char* argument) const {
    for (uint8_t i = 0; i < count; ++i) {
      if (detail::same_name(args[i].name, argument)) return i;
    }
    return -1;
  }
};

template <size_t N>
constexpr OperatorContract make_contract(const char* name, const ArgSpec (&args)[N],
                                         const char* output_zero_point = nullptr,
                                         bool keeps_zero_point = false, bool in_place = false) {
  static_assert(N >= 1 && N < 256, "a contract lists out and at most 254 other arguments");
  return OperatorContract{name, args, static_cast<uint8_t>(N), output_zero_point,
                          keeps_zero_point, in_place};
}
inline constexpr bool kRunsInPlace = true;

// Builders for one ArgSpec each, so a contract reads as a table.
constexpr ArgSpec tensor_arg(const char* name, Dtypes dtypes, Shape shape = Shape::Any) {
  return ArgSpec{name, ArgKind::Tensor, dtypes, shape};
}
constexpr ArgSpec state_tensor_arg(const char* name, Dtypes dtypes, Shape shape = Shape::Any,
                                   const char* initial = nullptr) {
  return ArgSpec{name, ArgKind::Tensor, dtypes, shape, true, initial};
}
constexpr ArgSpec optional_tensor_arg(const char* name, Dtypes dtypes, Shape shape = Shape::Any) {
  return ArgSpec{name, ArgKind::OptionalTensor, dtypes, shape};
}
constexpr ArgSpec int_arg(const char* name) { return ArgSpec{name, ArgKind::Int}; }
constexpr ArgSpec optional_int_arg(const char* name) { return ArgSpec{name, ArgKind::OptionalInt}; }
constexpr ArgSpec int_list_arg(const char* name) { return ArgSpec{name, ArgKind::IntList}; }
constexpr ArgSpec optional_int_list_arg(const char* name) {
  return ArgSpec{name, ArgKind::OptionalIntList};
}
constexpr ArgSpec double_arg(const char* name) { return ArgSpec{name, ArgKind::Double}; }
constexpr ArgSpec bool_arg(const char* name) { return ArgSpec{name, ArgKind::Bool}; }
constexpr ArgSpec scalar_arg(const char* name) { return ArgSpec{name, ArgKind::Scalar}; }
constexpr ArgSpec optional_scalar_arg(const char* name) {
  return ArgSpec{name, ArgKind::OptionalScalar};
}
constexpr ArgSpec optional_dtype_arg(const char* name) {
  return ArgSpec{name, ArgKind::OptionalDtype};
}

}  // namespace etns::runtime
