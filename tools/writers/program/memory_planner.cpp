#include "tools/writers/program/memory_planner.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>

#include "kernels/registry.h"
#include "tools/common/failure.h"

namespace etns::tools {

using runtime::ValueKind;

namespace {

uint64_t align_up(uint64_t n, uint64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

bool overlap_in_time(const Lifetime& a, const Lifetime& b) {
  return a.first <= b.last && b.first <= a.last;
}

// One greedy pass: tensors in `order`, each at the lowest offset (first fit)
// or in the tightest gap (best fit) that no tensor live at the same time uses.
std::vector<uint64_t> place(const std::vector<Lifetime>& lifetimes, const std::vector<size_t>& order,
                            uint64_t alignment, bool best_fit, uint64_t* arena_bytes) {
  struct Range {
    uint64_t begin;
    uint64_t end;
  };
  std::vector<uint64_t> offsets(lifetimes.size(), 0);
  std::vector<size_t> placed;
  uint64_t arena = 0;
  for (size_t index : order) {
    const Lifetime& me = lifetimes[index];
    if (me.size_bytes == 0) continue;
    std::vector<Range> busy;
    for (size_t other : placed) {
      if (overlap_in_time(me, lifetimes[other])) {
        busy.push_back({offsets[other], offsets[other] + lifetimes[other].size_bytes});
      }
    }
    std::sort(busy.begin(), busy.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    uint64_t offset = 0;        // candidate gap start
    bool found = false;
    uint64_t best = 0, best_gap = UINT64_MAX;
    for (const Range& range : busy) {
      if (offset + me.size_bytes <= range.begin) {
        if (!best_fit) break;
        if (range.begin - offset < best_gap) {
          best_gap = range.begin - offset;
          best = offset;
          found = true;
        }
      }
      offset = std::max(offset, align_up(range.end, alignment));
    }
    // First fit stops at the first gap; best fit falls back to the top.
    if (best_fit) offset = found ? best : offset;
    offsets[index] = offset;
    arena = std::max(arena, offset + me.size_bytes);
    placed.push_back(index);
  }
  *arena_bytes = align_up(arena, alignment);
  return offsets;
}

}  // namespace

MemoryPlan plan_memory(const std::vector<Lifetime>& lifetimes, uint64_t alignment) {
  if (alignment == 0) throw Failure("memory plan alignment must be at least 1");
  for (size_t i = 0; i < lifetimes.size(); ++i) {
    if (lifetimes[i].first > lifetimes[i].last) {
      throw Failure("lifetime " + std::to_string(i) + " starts at " +
                    std::to_string(lifetimes[i].first) + " after it ends at " +
                    std::to_string(lifetimes[i].last));
    }
  }
  // Greedy placement depends on the order; a few cheap orders, each first and
  // best fit, and the smallest arena wins (the first on a tie, so plans that
  // were already optimal keep their offsets).
  using Less = bool (*)(const Lifetime&, const Lifetime&);
  const Less orders[] = {
      [](const Lifetime& a, const Lifetime& b) {  // largest first, then earliest
        return a.size_bytes != b.size_bytes ? a.size_bytes > b.size_bytes : a.first < b.first;
      },
      [](const Lifetime& a, const Lifetime& b) {  // in program order
        return a.first != b.first ? a.first < b.first : a.size_bytes > b.size_bytes;
      },
      [](const Lifetime& a, const Lifetime& b) {  // longest-lived first
        const int64_t da = a.last - a.first, db = b.last - b.first;
        return da != db ? da > db : a.size_bytes > b.size_bytes;
      },
  };
  MemoryPlan plan;
  bool have = false;
  for (Less less : orders) {
    std::vector<size_t> order(lifetimes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return less(lifetimes[a], lifetimes[b]); });
    for (bool best_fit : {false, true}) {
      uint64_t arena = 0;
      std::vector<uint64_t> offsets = place(lifetimes, order, alignment, best_fit, &arena);
      if (!have || arena < plan.arena_bytes) {
        plan.offsets = std::move(offsets);
        plan.arena_bytes = arena;
        have = true;
      }
    }
  }

  // Live bytes only change where a lifetime starts, so checking every start suffices.
  for (const Lifetime& at : lifetimes) {
    uint64_t live = 0;
    for (const Lifetime& other : lifetimes) {
      if (other.first <= at.first && at.first <= other.last) live += other.size_bytes;
    }
    plan.lower_bound_bytes = std::max(plan.lower_bound_bytes, live);
  }
  return plan;
}

namespace {

bool is_planned_tensor(const ModelValue& value) {
  return value.kind == ValueKind::Tensor && value.tensor.storage == TensorStorage::Planned;
}

// Calls `visit(value_index)` for every value instruction `call` names, and
// for the tensors of the tensor lists it names.
template <typename Visit>
void for_each_named_value(const ProgramModel& model, const KernelCall& call, Visit visit) {
  for (int32_t arg : call.args) {
    visit(static_cast<size_t>(arg));
    const ModelValue& value = model.values[static_cast<size_t>(arg)];
    if (value.kind == ValueKind::TensorList || value.kind == ValueKind::OptionalTensorList) {
      for (int64_t item : value.items) {
        if (item >= 0) visit(static_cast<size_t>(item));
      }
    }
  }
}

// The contract of the call's operator when it has state arguments (the
// registries know every operator's contract), else nullptr.
const runtime::OperatorContract* state_contract(const ProgramModel& model, const KernelCall& call) {
  const ModelOperator& op = model.operators[call.op_index];
  const std::string name = op.overload.empty() ? op.name : op.name + "." + op.overload;
  const runtime::KernelEntry* entry = kernels::registry_ns().find(name.c_str());
  if (entry == nullptr) return nullptr;
  const runtime::OperatorContract* contract = entry->contract;
  for (uint8_t a = 0; a < contract->count; ++a) {
    if (contract->args[a].state) return contract;
  }
  return nullptr;
}

}  // namespace

std::vector<TensorLifetime> tensor_lifetimes(const ProgramModel& model) {
  check_model(model, /*check_placement=*/false);
  constexpr int64_t kUnused = INT64_MIN;
  const int64_t start = -1;
  const int64_t end = static_cast<int64_t>(model.instructions.size());
  std::vector<int64_t> first(model.values.size(), kUnused);
  std::vector<int64_t> last(model.values.size(), kUnused);
  auto touch = [&](size_t value, int64_t position) {
    if (first[value] == kUnused || position < first[value]) first[value] = position;
    if (last[value] == kUnused || position > last[value]) last[value] = position;
  };
  for (int32_t input : model.inputs) touch(static_cast<size_t>(input), start);
  for (size_t i = 0; i < model.instructions.size(); ++i) {
    for_each_named_value(model, model.instructions[i],
                         [&](size_t value) { touch(value, static_cast<int64_t>(i)); });
  }
  for (int32_t output : model.outputs) touch(static_cast<size_t>(output), end);
  // An operator's state (runtime::ArgSpec::state) carries values from one
  // execution to the next: it is live from program start to program end.
  for (const KernelCall& call : model.instructions) {
    const runtime::OperatorContract* contract = state_contract(model, call);
    if (contract == nullptr) continue;
    for (size_t a = 0; a < call.args.size() && a < contract->count; ++a) {
      if (!contract->args[a].state) continue;
      touch(static_cast<size_t>(call.args[a]), start);
      touch(static_cast<size_t>(call.args[a]), end);
    }
  }

  std::vector<TensorLifetime> lifetimes;
  for (size_t v = 0; v < model.values.size(); ++v) {
    if (!is_planned_tensor(model.values[v]) || first[v] == kUnused) continue;
    lifetimes.push_back({v, {model.values[v].tensor.nbytes(), first[v], last[v]}});
  }
  return lifetimes;
}

size_t drop_unused_values(ProgramModel& model) {
  check_model(model, /*check_placement=*/false);
  std::vector<bool> used(model.values.size(), false);
  std::vector<size_t> pending;
  auto mark = [&](int64_t index) {
    if (index < 0 || used[static_cast<size_t>(index)]) return;
    used[static_cast<size_t>(index)] = true;
    pending.push_back(static_cast<size_t>(index));
  };
  for (int32_t input : model.inputs) mark(input);
  for (int32_t output : model.outputs) mark(output);
  for (const KernelCall& call : model.instructions) {
    for (int32_t arg : call.args) mark(arg);
  }
  while (!pending.empty()) {
    const ModelValue& value = model.values[pending.back()];
    pending.pop_back();
    if (value.kind == ValueKind::IntList || value.kind == ValueKind::TensorList ||
        value.kind == ValueKind::OptionalTensorList) {
      for (int64_t item : value.items) mark(item);
    }
  }

  std::vector<int64_t> new_index(model.values.size(), -1);
  std::vector<ModelValue> kept;
  for (size_t v = 0; v < model.values.size(); ++v) {
    if (!used[v]) continue;
    new_index[v] = static_cast<int64_t>(kept.size());
    kept.push_back(std::move(model.values[v]));
  }
  const size_t dropped = model.values.size() - kept.size();
  model.values = std::move(kept);
  auto renumber = [&](auto& index) {
    index = static_cast<std::remove_reference_t<decltype(index)>>(new_index[static_cast<size_t>(index)]);
  };
  for (int32_t& input : model.inputs) renumber(input);
  for (int32_t& output : model.outputs) renumber(output);
  for (KernelCall& call : model.instructions) {
    for (int32_t& arg : call.args) renumber(arg);
  }
  for (ModelValue& value : model.values) {
    if (value.kind == ValueKind::IntList || value.kind == ValueKind::TensorList ||
        value.kind == ValueKind::OptionalTensorList) {
      for (int64_t& item : value.items) {
        if (item >= 0) renumber(item);
      }
    }
  }
  return dropped;
}

ReplanReport replan_memory(ProgramModel& model, uint64_t alignment) {
  ReplanReport report;
  report.dropped_values = drop_unused_values(model);
  const std::vector<TensorLifetime> tensors = tensor_lifetimes(model);
  std::vector<Lifetime> lifetimes;
  for (const TensorLifetime& t : tensors) lifetimes.push_back(t.lifetime);
  const MemoryPlan plan = plan_memory(lifetimes, alignment);
  for (size_t i = 0; i < tensors.size(); ++i) {
    ModelTensor& tensor = model.values[tensors[i].value_index].tensor;
    tensor.memory_id = 1;
    tensor.offset = plan.offsets[i];
  }
  report.planned_tensors = tensors.size();
  report.arena_bytes = plan.arena_bytes;
  report.lower_bound_bytes = plan.lower_bound_bytes;
  model.non_const_buffer_sizes = {0};
  if (!tensors.empty()) {
    model.non_const_buffer_sizes.push_back(static_cast<int64_t>(plan.arena_bytes));
  }
  check_model(model);
  return report;
}

}  // namespace etns::tools
