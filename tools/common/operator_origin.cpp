#include "tools/common/operator_origin.h"

namespace etns::tools {
namespace {

struct Row {
  const char* name;
  bool stock;
};

constexpr bool stock_space(const char* space) {
  const char* cortex_m = "cortex_m";
  const char* portable = "portable";
  auto same = [](const char* a, const char* b) {
    for (; *a != '\0' && *a == *b; ++a, ++b) {
    }
    return *a == *b;
  };
  return same(space, cortex_m) || same(space, portable);
}

#define ETNS_OPERATOR(space, folder, Kernel, pte_name, selection, providers, family) {pte_name, stock_space(#space)},
constexpr Row kRows[] = {
#include "kernels/operators.inc"
};
#undef ETNS_OPERATOR

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

bool stock_executorch_has(const std::string& name) {
  for (const Row& row : kRows) {
    if (name == row.name) return row.stock;
  }
  return starts_with(name, "aten::") || starts_with(name, "dim_order_ops::");
}

}  // namespace etns::tools
