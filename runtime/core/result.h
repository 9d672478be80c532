#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include "runtime/core/error.h"

namespace etns::runtime {

// A value or a non-Ok Error. No exceptions, no heap: the value lives inline.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(const T& value) : error_(Error::Ok) { new (&storage_) T(value); }
  Result(T&& value) : error_(Error::Ok) { new (&storage_) T(std::move(value)); }
  // A Result built from Ok would hold no value; it is turned into Internal.
  Result(Error error) : error_(error == Error::Ok ? Error::Internal : error) {}

  Result(const Result& other) : error_(other.error_) {
    if (ok()) new (&storage_) T(other.value());
  }
  Result(Result&& other) noexcept : error_(other.error_) {
    if (ok()) new (&storage_) T(std::move(other.value()));
  }
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;
  ~Result() {
    if (ok()) value().~T();
  }

  bool ok() const { return error_ == Error::Ok; }
  Error error() const { return error_; }

  T& value() { return *std::launder(reinterpret_cast<T*>(&storage_)); }
  const T& value() const { return *std::launder(reinterpret_cast<const T*>(&storage_)); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Error error_;
  std::aligned_storage_t<sizeof(T), alignof(T)> storage_;
};

}  // namespace etns::runtime

#define ETNS_CONCAT_INNER_(a, b) a##b
#define ETNS_CONCAT_(a, b) ETNS_CONCAT_INNER_(a, b)

// Declares or assigns `lhs` from a Result, returning its Error when it holds none.
#define ETNS_ASSIGN_OR_RETURN(lhs, expr) \
  ETNS_ASSIGN_OR_RETURN_IMPL_(ETNS_CONCAT_(etns_result_, __LINE__), lhs, expr)
#define ETNS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) {                                  \
    return tmp.error();                             \
  }                                                 \
  lhs = std::move(tmp.value())
