#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/exec/kernel.h"

// Builds one synthetic kernel call (values, tensors, return slot) so a kernel's
// prepare and run can be tested without a .pte.
namespace etns::testing {

class KernelCall {
 public:
  KernelCall();
  ~KernelCall();
  KernelCall(const KernelCall&) = delete;
  KernelCall& operator=(const KernelCall&) = delete;

  // Appends an argument. A tensor owns zeroed storage of numel * element size;
  // an empty dim_order means contiguous.
  KernelCall& tensor(runtime::ScalarType dtype, std::vector<int32_t> sizes,
                     std::vector<uint8_t> dim_order = {});
  KernelCall& int_value(int64_t value);
  KernelCall& double_value(double value);
  KernelCall& bool_value(bool value);
  KernelCall& null();
  KernelCall& int_list(std::vector<int64_t> items);

  // Adds the return slot (a copy of the last argument, as programs do), checks
  // the arguments against the entry's contract and runs its prepare, as the
  // loader does. Lines logged are kept in log().
  runtime::Error prepare(const runtime::KernelEntry& entry);
  // Runs the prepared kernel once.
  runtime::Error run();

  runtime::Tensor& tensor_at(size_t i) { return values_[i].tensor; }
  // The same, by the contract's argument (kContract.arg("out")).
  runtime::Tensor& tensor_at(runtime::Arg a) { return values_[a.index].tensor; }
  template <typename T>
  T* data(runtime::Arg a) {
    return data<T>(a.index);
  }
  template <typename T>
  void fill(runtime::Arg a, const std::vector<T>& contents) {
    fill<T>(a.index, contents);
  }
  template <typename T>
  std::vector<T> read(runtime::Arg a) {
    return read<T>(a.index);
  }
  template <typename T>
  T* data(size_t i) {
    return static_cast<T*>(values_[i].tensor.data);
  }
  template <typename T>
  void fill(size_t i, const std::vector<T>& contents) {
    std::copy(contents.begin(), contents.end(), data<T>(i));
  }
  template <typename T>
  std::vector<T> read(size_t i) {
    const T* p = data<T>(i);
    return std::vector<T>(p, p + values_[i].tensor.numel);
  }
  const std::string& log() const { return log_; }

 private:
  struct OwnedTensor {
    std::vector<int32_t> sizes;
    std::vector<uint8_t> dim_order;
    std::vector<uint8_t> storage;
  };

  std::deque<runtime::EValue> values_;
  std::deque<OwnedTensor> tensors_;
  std::deque<std::vector<runtime::EValue>> list_items_;
  std::deque<std::vector<int64_t>> list_indices_;
  std::vector<runtime::EValue*> args_;
  std::vector<uint8_t> method_memory_;
  std::vector<uint8_t> scratch_memory_;
  std::unique_ptr<runtime::Arena> method_arena_;
  const runtime::KernelEntry* entry_ = nullptr;
  const void* state_ = nullptr;
  std::string log_;
};

// The kernel logged a line containing `text` (for EXPECT_TRUE).
inline ::testing::AssertionResult logged(const KernelCall& call, const char* text) {
  if (call.log().find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "log lacks \"" << text << "\"; log: " << call.log();
}

// The IEEE-754 bits of a float, to compare results exactly (-0.0, NaN payloads).
inline uint32_t bits(float value) {
  uint32_t b;
  std::memcpy(&b, &value, sizeof(b));
  return b;
}

}  // namespace etns::testing
