#pragma once

#include <cstddef>

#include "runtime/core/target_layout.h"

namespace etns::runtime {

// A view of `size` contiguous objects owned by someone else.
template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <size_t N>
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}
  // Span<const T> from Span<T>.
  template <typename U>
  constexpr Span(const Span<U>& other) : data_(other.data()), size_(other.size()) {}

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  constexpr Span subspan(size_t offset, size_t count) const { return Span(data_ + offset, count); }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

// A pointer and a size_t, whatever T is.
template <typename T>
constexpr Layout target_layout(const Span<T>*, const Abi& abi) {
  return StructLayout().member(word(abi)).member(word(abi)).done();
}
static_assert(layout_of<Span<int>>(kThisAbi) == Layout{sizeof(Span<int>), alignof(Span<int>)});

}  // namespace etns::runtime
