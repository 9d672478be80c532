#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

// How the types the method arena holds are laid out on the 32-bit Arm target
// (Cortex-M55), so that the host, which measures the arena with its own 64-bit
// sizes, can also say what a device must reserve.
//
// Each such type describes its members once, as a function of an Abi, with
// ETNS_TARGET_LAYOUT beside its definition. The macro also checks the
// description against this build's own sizeof and alignof: the host build
// checks it for x86-64 and the firmware build for the Cortex-M55, so a
// description that drifts from its struct stops both from compiling.
namespace etns::runtime {

struct Layout {
  size_t size = 0;
  size_t align = 1;
  constexpr bool operator==(const Layout& other) const { return size == other.size && align == other.align; }
};

// What differs between the data models etns builds for: pointers and size_t
// (8 bytes on x86-64 and AArch64, 4 on AArch32). Fixed-width integers, float,
// double and enums with a fixed underlying type are the same on all of them
// (int64_t and double are 8-byte aligned in the AAPCS too).
struct Abi {
  size_t word_bytes;  // sizeof(void*) == sizeof(size_t)
};

inline constexpr Abi kThisAbi{sizeof(void*)};
inline constexpr Abi kArm32Abi{4};
static_assert(sizeof(size_t) == sizeof(void*), "Abi::word_bytes stands for both");

constexpr size_t align_up(size_t value, size_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// A pointer or a size_t.
constexpr Layout word(const Abi& abi) { return {abi.word_bytes, abi.word_bytes}; }

// A fixed-width scalar or an enum: the same on every Abi.
template <typename T>
constexpr Layout fixed() {
  return {sizeof(T), alignof(T)};
}

// A struct's members in declaration order: each at the next offset its
// alignment allows; the whole padded to the largest alignment.
class StructLayout {
 public:
  constexpr StructLayout& member(Layout layout, size_t count = 1) {
    for (size_t i = 0; i < count; ++i) size_ = align_up(size_, layout.align) + layout.size;
    if (layout.align > align_) align_ = layout.align;
    return *this;
  }
  constexpr Layout done() const { return {align_up(size_, align_), align_}; }

 private:
  size_t size_ = 0;
  size_t align_ = 1;
};

// A union: its largest member, padded to its largest alignment.
constexpr Layout union_of(std::initializer_list<Layout> members) {
  Layout widest;
  for (const Layout& layout : members) {
    if (layout.size > widest.size) widest.size = layout.size;
    if (layout.align > widest.align) widest.align = layout.align;
  }
  return {align_up(widest.size, widest.align), widest.align};
}

// Any pointer is a word.
template <typename T>
constexpr Layout target_layout(T* const*, const Abi& abi) {
  return word(abi);
}

// The layout of T under `abi`, found through the target_layout overload
// ETNS_TARGET_LAYOUT declared beside T (argument-dependent lookup).
template <typename T>
constexpr Layout layout_of(const Abi& abi) {
  return target_layout(static_cast<const T*>(nullptr), abi);
}

}  // namespace etns::runtime

// Declares the layout of `Type` as an expression of `abi` (a runtime::Abi),
// in Type's namespace, and checks it against this build's compiler.
#define ETNS_TARGET_LAYOUT(Type, ...)                                                                    \
  constexpr ::etns::runtime::Layout target_layout(const Type*, [[maybe_unused]] const ::etns::runtime::Abi& abi) { \
    return __VA_ARGS__;                                                                                  \
  }                                                                                                      \
  static_assert(::etns::runtime::layout_of<Type>(::etns::runtime::kThisAbi) ==                          \
                    ::etns::runtime::Layout{sizeof(Type), alignof(Type)},                               \
                "the ETNS_TARGET_LAYOUT description of " #Type " does not match its definition")
