#include "tests/support/kernel_call.h"

#include <numeric>

#include "tests/support/log_capture.h"

namespace etns::testing {

using runtime::EValue;
using runtime::ValueKind;

KernelCall::KernelCall() : method_memory_(1 << 16) {
  method_arena_ = std::make_unique<runtime::Arena>(
      "method", runtime::Span<uint8_t>(method_memory_.data(), method_memory_.size()));
}

KernelCall::~KernelCall() = default;

KernelCall& KernelCall::tensor(runtime::ScalarType dtype, std::vector<int32_t> sizes,
                               std::vector<uint8_t> dim_order) {
  if (dim_order.empty()) {
    dim_order.resize(sizes.size());
    std::iota(dim_order.begin(), dim_order.end(), uint8_t{0});
  }
  OwnedTensor& owned = tensors_.emplace_back();
  owned.sizes = std::move(sizes);
  owned.dim_order = std::move(dim_order);
  size_t numel = 1;
  for (int32_t s : owned.sizes) numel *= static_cast<size_t>(s);
  const size_t nbytes = numel * runtime::element_size(dtype);
  owned.storage.assign(nbytes + 16, 0);  // +16: never a zero-length allocation

  EValue& value = values_.emplace_back();
  value.kind = ValueKind::Tensor;
  value.tensor = runtime::Tensor{};
  value.tensor.dtype = dtype;
  value.tensor.rank = static_cast<uint8_t>(owned.sizes.size());
  value.tensor.sizes = owned.sizes.data();
  value.tensor.dim_order = owned.dim_order.data();
  value.tensor.data = owned.storage.data();
  value.tensor.numel = numel;
  value.tensor.nbytes = nbytes;
  args_.push_back(&value);
  return *this;
}

KernelCall& KernelCall::int_value(int64_t v) {
  EValue& value = values_.emplace_back();
  value.kind = ValueKind::Int;
  value.int_value = v;
  args_.push_back(&value);
  return *this;
}

KernelCall& KernelCall::double_value(double v) {
  EValue& value = values_.emplace_back();
  value.kind = ValueKind::Double;
  value.double_value = v;
  args_.push_back(&value);
  return *this;
}

KernelCall& KernelCall::bool_value(bool v) {
  EValue& value = values_.emplace_back();
  value.kind = ValueKind::Bool;
  value.bool_value = v;
  args_.push_back(&value);
  return *this;
}

KernelCall& KernelCall::null() {
  EValue& value = values_.emplace_back();
  value.kind = ValueKind::Null;
  args_.push_back(&value);
  return *this;
}

KernelCall& KernelCall::int_list(std::vector<int64_t> items) {
  std::vector<EValue>& item_values = list_items_.emplace_back(items.size());
  std::vector<int64_t>& indices = list_indices_.emplace_back(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    item_values[i].kind = ValueKind::Int;
    item_values[i].int_value = items[i];
    indices[i] = static_cast<int64_t>(i);
  }
  EValue& value = values_.emplace_back();
  value.kind = ValueKind::IntList;
  value.int_list = runtime::IntList{indices.data(), static_cast<uint32_t>(items.size()),
                                    item_values.data()};
  args_.push_back(&value);
  return *this;
}

runtime::Error KernelCall::prepare(const runtime::KernelEntry& entry) {
  entry_ = &entry;
  args_.push_back(args_.back());  // the return slot
  LogCapture log;
  runtime::PrepareContext context("c0i0", entry.name, *entry.contract,
                                  runtime::Span<EValue* const>(args_.data(), args_.size()),
                                  *method_arena_);
  // As the loader does: the contract's checks, then the kernel's own.
  runtime::Error error = context.check_arguments();
  if (error == runtime::Error::Ok) error = entry.prepare(context);
  log_ = log.text();
  state_ = context.state();
  scratch_memory_.assign(context.scratch_bytes() + 16, 0);
  return error;
}

runtime::Error KernelCall::run() {
  runtime::RunContext context;
  context.args = runtime::Span<EValue* const>(args_.data(), args_.size());
  context.prepared_state = state_;
  context.scratch = runtime::Span<uint8_t>(scratch_memory_.data(), scratch_memory_.size());
  return entry_->run(context);
}

}  // namespace etns::testing
