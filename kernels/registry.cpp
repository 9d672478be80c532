#include "kernels/registry.h"

#include "kernels/registry_entries.h"

namespace etns::kernels {
namespace {

// "cortex_m::quantized_add.out" -> "quantized_add.out": the operator without
// its namespace.
constexpr const char* without_namespace(const char* name) {
  const char* rest = name;
  for (const char* c = name; *c != '\0'; ++c) {
    if (c[0] == ':' && c[1] == ':') rest = c + 2;
  }
  return rest;
}

constexpr bool same_text(const char* a, const char* b) {
  for (; *a != '\0' && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

// Every row of the list binds its contract's own operator, under the
// contract's name or under another namespace's spelling of it.
#define ETNS_OPERATOR(space, folder, Kernel, pte_name, selection, providers, family)                    \
  static_assert(same_text(without_namespace(pte_name),                                                   \
                          without_namespace(::etns::space::k##Kernel##Contract.name)),                   \
                "kernels/operators.inc: " pte_name " names a kernel whose contract is another operator's");
#include "kernels/operators.inc"
#undef ETNS_OPERATOR

}  // namespace

const runtime::KernelRegistry& registry_of(protocol::Provider provider) {
  return provider == protocol::Provider::Ns ? registry_ns() : registry_arm();
}

const runtime::KernelRegistry* find_registry(const char* provider) {
  protocol::Provider parsed;
  return protocol::parse_provider_name(provider, &parsed) ? &registry_of(parsed) : nullptr;
}

}  // namespace etns::kernels
