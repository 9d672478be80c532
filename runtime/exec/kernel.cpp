#include "runtime/exec/kernel.h"

#include <cstdarg>
#include <cstring>

#include "runtime/core/format.h"
#include "runtime/core/log.h"

namespace etns::runtime {

Error PrepareContext::fail(Error code, const char* format, ...) const {
  char message[200];
  va_list args;
  va_start(args, format);
  format_text_v(message, sizeof(message), format, args);
  va_end(args);
  ETNS_LOG_ERROR("%s %s: %s", instruction_id_, operator_name_, message);
  return code;
}

Result<EValue*> PrepareContext::expect(size_t i, ValueKind kind, const char* name) const {
  if (i >= argument_count()) {
    return fail(Error::Internal, "argument %zu (%s) requested, the call has %zu", i, name,
                argument_count());
  }
  EValue* value = args_[i];
  if (value->kind != kind) {
    return fail(Error::InvalidProgram, "argument %zu (%s) is %s, expected %s", i, name,
                to_string(value->kind), to_string(kind));
  }
  return value;
}

Result<Tensor*> PrepareContext::tensor(size_t i, const char* name) const {
  ETNS_ASSIGN_OR_RETURN(EValue * value, expect(i, ValueKind::Tensor, name));
  return &value->tensor;
}

Result<Tensor*> PrepareContext::optional_tensor(size_t i, const char* name) const {
  if (i < argument_count() && is_null(i)) return static_cast<Tensor*>(nullptr);
  return tensor(i, name);
}

Result<int64_t> PrepareContext::int_value(size_t i, const char* name) const {
  ETNS_ASSIGN_OR_RETURN(EValue * value, expect(i, ValueKind::Int, name));
  return value->int_value;
}

Result<double> PrepareContext::double_value(size_t i, const char* name) const {
  ETNS_ASSIGN_OR_RETURN(EValue * value, expect(i, ValueKind::Double, name));
  return value->double_value;
}

Result<bool> PrepareContext::bool_value(size_t i, const char* name) const {
  ETNS_ASSIGN_OR_RETURN(EValue * value, expect(i, ValueKind::Bool, name));
  return value->bool_value;
}

Result<IntList> PrepareContext::int_list(size_t i, const char* name) const {
  ETNS_ASSIGN_OR_RETURN(EValue * value, expect(i, ValueKind::IntList, name));
  return value->int_list;
}

Result<double> PrepareContext::scalar_value(size_t i, const char* name, bool* is_integral) const {
  if (i < argument_count() && args_[i]->kind == ValueKind::Int) {
    *is_integral = true;
    return static_cast<double>(args_[i]->int_value);
  }
  *is_integral = false;
  if (i < argument_count() && args_[i]->kind == ValueKind::Double) return args_[i]->double_value;
  return fail(Error::InvalidProgram, "argument %zu (%s) is %s, expected a Scalar (Int or Double)",
              i, name, i < argument_count() ? to_string(args_[i]->kind) : "missing");
}

const KernelEntry* KernelRegistry::find(const char* name) const {
  for (const KernelEntry& entry : entries) {
    if (std::strcmp(entry.name, name) == 0) return &entry;
  }
  return nullptr;
}

}  // namespace etns::runtime
