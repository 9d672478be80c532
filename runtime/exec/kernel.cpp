#include "runtime/exec/kernel.h"

#include <cstdarg>
#include <cstring>

#include "runtime/core/format.h"
#include "runtime/core/log.h"

namespace etns::runtime {

#if !defined(ETNS_NO_ERROR_MESSAGES)
Error PrepareContext::fail(Error code, const char* format, ...) const {
  char message[200];
  va_list args;
  va_start(args, format);
  format_text_v(message, sizeof(message), format, args);
  va_end(args);
  ETNS_LOG_ERROR("%s %s: %s", instruction_id_, operator_name_, message);
  return code;
}
#endif

namespace {

// "int8", "int8 or int16", "int8, int16 or int32": the dtypes a set admits.
void format_dtypes(char* text, size_t capacity, Dtypes dtypes) {
  size_t used = 0, listed = 0, total = 0;
  for (int code = 0; code < 32; ++code) total += dtypes.has(static_cast<ScalarType>(code)) ? 1 : 0;
  text[0] = '\0';
  for (int code = 0; code < 32 && used < capacity; ++code) {
    const ScalarType t = static_cast<ScalarType>(code);
    if (!dtypes.has(t)) continue;
    const char* separator = listed == 0 ? "" : (listed + 1 == total ? " or " : ", ");
    used += format_text(text + used, capacity - used, "%s%s", separator, to_string(t));
    ++listed;
  }
}

}  // namespace

Error PrepareContext::check_tensor(const ArgSpec& spec, const Tensor& t) const {
  if (!spec.dtypes.any() && !spec.dtypes.has(t.dtype)) {
    char expected[64];
    format_dtypes(expected, sizeof(expected), spec.dtypes);
    return fail(Error::InvalidArgument, "%s dtype %s, expected %s", spec.name, to_string(t.dtype),
                expected);
  }
  switch (spec.shape) {
    case Shape::Any:
      return Error::Ok;
    case Shape::Nhwc:
      if (t.rank != 4) {
        return fail(Error::InvalidArgument, "%s has rank %u, expected 4 ([N, C, H, W])",
                    spec.name, static_cast<unsigned>(t.rank));
      }
      if (t.is_nhwc_in_memory()) return Error::Ok;
      return fail(Error::InvalidArgument, "%s must be channels_last (dim order [0, 2, 3, 1])",
                  spec.name);
    case Shape::RowMajor:
    case Shape::Vector:
      if (t.is_row_major_in_memory()) return Error::Ok;
      return fail(Error::InvalidArgument, "%s must be contiguous (row-major in memory)",
                  spec.name);
    case Shape::Single:
      if (t.numel == 1) return Error::Ok;
      return fail(Error::InvalidArgument, "%s has %zu elements, expected 1", spec.name, t.numel);
  }
  return Error::Ok;
}

Error PrepareContext::check_arguments() const {
  if (args_.size() != size_t{contract_.count} + 1) {
    return fail(Error::InvalidProgram,
                "%zu arguments, expected %zu (%u schema arguments and the return slot)",
                args_.size(), size_t{contract_.count} + 1, static_cast<unsigned>(contract_.count));
  }
  for (uint8_t i = 0; i < contract_.count; ++i) {
    const ArgSpec& spec = contract_.args[i];
    const EValue& v = *args_[i];
    if (!kind_accepts(spec.kind, v.kind)) {
      return fail(Error::InvalidProgram, "argument %u (%s) is %s, expected %s",
                  static_cast<unsigned>(i), spec.name, to_string(v.kind), to_string(spec.kind));
    }
    if (v.kind == ValueKind::Tensor) ETNS_TRY(check_tensor(spec, v.tensor));
  }
  return Error::Ok;
}

Result<const EValue*> PrepareContext::expect(Arg a, ValueKind kind) const {
  const EValue* value = args_[a.index];
  if (value->kind != kind) {
    return fail(Error::InvalidProgram, "argument %u (%s) is %s, expected %s",
                static_cast<unsigned>(a.index), a.name(), to_string(value->kind),
                to_string(kind));
  }
  return value;
}

Result<Tensor*> PrepareContext::tensor(Arg a) const {
  ETNS_ASSIGN_OR_RETURN(const EValue* value, expect(a, ValueKind::Tensor));
  return const_cast<Tensor*>(&value->tensor);
}

Result<Tensor*> PrepareContext::optional_tensor(Arg a) const {
  if (is_null(a)) return static_cast<Tensor*>(nullptr);
  return tensor(a);
}

Result<int64_t> PrepareContext::int_value(Arg a) const {
  ETNS_ASSIGN_OR_RETURN(const EValue* value, expect(a, ValueKind::Int));
  return value->int_value;
}

Result<double> PrepareContext::double_value(Arg a) const {
  ETNS_ASSIGN_OR_RETURN(const EValue* value, expect(a, ValueKind::Double));
  return value->double_value;
}

Result<bool> PrepareContext::bool_value(Arg a) const {
  ETNS_ASSIGN_OR_RETURN(const EValue* value, expect(a, ValueKind::Bool));
  return value->bool_value;
}

Result<IntList> PrepareContext::int_list(Arg a) const {
  if (a.spec->kind == ArgKind::OptionalIntList && is_null(a)) return IntList{};
  ETNS_ASSIGN_OR_RETURN(const EValue* value, expect(a, ValueKind::IntList));
  return value->int_list;
}

Result<double> PrepareContext::scalar_value(Arg a, bool* is_integral) const {
  const EValue& v = value(a);
  *is_integral = v.kind == ValueKind::Int;
  if (v.kind == ValueKind::Int) return static_cast<double>(v.int_value);
  if (v.kind == ValueKind::Double) return v.double_value;
  return fail(Error::InvalidProgram, "argument %u (%s) is %s, expected a Scalar (Int or Double)",
              static_cast<unsigned>(a.index), a.name(), to_string(v.kind));
}

const KernelEntry* KernelRegistry::find(const char* name) const {
  for (const KernelEntry& entry : entries) {
    if (std::strcmp(entry.name, name) == 0) return &entry;
  }
  return nullptr;
}

}  // namespace etns::runtime
