#include "fuzz/argument_mutator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>

#include "kernels/testing/rng.h"
#include "tools/writers/program/program_model.h"
#include "tools/writers/program/pte_writer.h"

namespace etns::fuzz {
namespace {

using kernels::testing::Rng;
using runtime::ScalarType;
using runtime::ValueKind;
using tools::ModelTensor;
using tools::ModelValue;
using tools::ProgramModel;
using tools::TensorStorage;

// A constant never grows past this: bigger ones cost the fuzzer time and
// memory, and the loader's bounds on them are the file layer's (fuzzed by
// the `program` target).
constexpr uint64_t kMaxConstantBytes = 64 * 1024;
constexpr int kEditsMax = 4;
constexpr int kAttempts = 8;

// Integers that sit on the edges the kernels and the checks care about:
// int8 and int32 limits, shift limits, powers of two whose products wrap
// 32-bit sizes, and the values just past each.
const int64_t kInterestingInts[] = {
    0, 1, -1, 2, -2, 3, 7, 8, 15, 16, 31, 32, 33, -31, -32, -33, 62, 63, 64, 127, 128, -127, -128, -129, 255, 256,
    1024, 4096, 65535, 65536, 65537, 1 << 20, 1 << 22, (1 << 22) + 1, 1 << 30, (1LL << 31) - 1, -(1LL << 31),
    1LL << 31, 1LL << 32, (1LL << 32) + 1, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};

// Dims: what empties a tensor, what wraps a 32-bit product, and small ones.
const int32_t kInterestingDims[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 17, 255, 256, 4096, 65535, 65536, 65537,
                                    46341, 1 << 24, 2147483647, -1};

const double kInterestingDoubles[] = {0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      0.5,
                                      1e-45,
                                      1e-300,
                                      65504.0,
                                      3.4e38,
                                      1e39,
                                      -1e39,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN(),
                                      2147483648.0,
                                      -2147483649.0};

const ScalarType kDtypes[] = {ScalarType::Char,  ScalarType::Byte,   ScalarType::Short, ScalarType::Int,
                              ScalarType::Long,  ScalarType::Float,  ScalarType::Double, ScalarType::Half,
                              ScalarType::Bool,  ScalarType::BFloat16, ScalarType::UInt16, ScalarType::QInt8};

size_t pick_index(Rng& rng, size_t n) { return static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(n) - 1)); }

// The tensor's bytes when that is a sane number to hold; UINT64_MAX otherwise.
uint64_t checked_nbytes(const ModelTensor& t) {
  uint64_t n = runtime::element_size(t.dtype);
  for (int32_t s : t.sizes) {
    if (s < 0) return std::numeric_limits<uint64_t>::max();
    if (s == 0) return 0;
  }
  for (int32_t s : t.sizes) {
    if (n > (uint64_t{1} << 40) / static_cast<uint64_t>(s)) return std::numeric_limits<uint64_t>::max();
    n *= static_cast<uint64_t>(s);
  }
  return n;
}

std::vector<uint8_t> contiguous(size_t rank) {
  std::vector<uint8_t> order(rank);
  std::iota(order.begin(), order.end(), uint8_t{0});
  return order;
}

class Mutator {
 public:
  Mutator(ProgramModel& model, Rng& rng) : m_(model), rng_(rng) {}

  // One edit of something an instruction's arguments reach. False when the
  // chosen edit does not apply (the caller tries another).
  bool edit() {
    if (m_.instructions.empty()) return false;
    tools::KernelCall& call = m_.instructions[pick_index(rng_, m_.instructions.size())];
    if (call.args.empty()) return false;
    int32_t& slot = call.args[pick_index(rng_, call.args.size())];
    if (rng_.uniform(0, 15) == 0) return rename(slot);
    if (slot < 0 || static_cast<size_t>(slot) >= m_.values.size()) return false;
    ModelValue& v = m_.values[static_cast<size_t>(slot)];
    switch (v.kind) {
      case ValueKind::Int: v.int_value = next_int(v.int_value); return true;
      case ValueKind::Bool: v.bool_value = !v.bool_value; return true;
      case ValueKind::Double: v.double_value = next_double(v.double_value); return true;
      case ValueKind::IntList: return edit_list(static_cast<size_t>(slot));
      case ValueKind::Tensor: return edit_tensor(v.tensor);
      case ValueKind::Null: return rename(slot);
      default: return false;
    }
  }

 private:
  // The argument names another value: any value (an int where a tensor is
  // due, out named as an input), or a new one of another kind.
  bool rename(int32_t& slot) {
    switch (rng_.uniform(0, 3)) {
      case 0: slot = m_.add_value(ModelValue::integer(rng_.pick(kInterestingInts))); return true;
      case 1: slot = m_.add_value(ModelValue::null()); return true;
      default: {
        const int32_t other = static_cast<int32_t>(pick_index(rng_, m_.values.size()));
        if (other == slot) return false;
        slot = other;
        return true;
      }
    }
  }

  int64_t next_int(int64_t value) {
    switch (rng_.uniform(0, 3)) {
      case 0: return static_cast<int64_t>(static_cast<uint64_t>(value) + static_cast<uint64_t>(rng_.uniform(-3, 3)));
      case 1: return value == std::numeric_limits<int64_t>::min() ? value : -value;
      default: return rng_.pick(kInterestingInts);
    }
  }

  double next_double(double value) {
    if (rng_.coin()) return rng_.pick(kInterestingDoubles);
    return value * (rng_.coin() ? 2.0 : -0.5);
  }

  // By index: adding a value may move the list.
  bool edit_list(size_t list) {
    std::vector<int64_t>& items = m_.values[list].items;
    switch (rng_.uniform(0, 4)) {
      case 0:  // an item's value
      case 1: {
        if (items.empty()) return false;
        const int64_t item = items[pick_index(rng_, items.size())];
        if (item < 0 || static_cast<size_t>(item) >= m_.values.size()) return false;
        ModelValue& v = m_.values[static_cast<size_t>(item)];
        if (v.kind != ValueKind::Int) return false;
        v.int_value = next_int(v.int_value);
        return true;
      }
      case 2: {
        const int32_t item = m_.add_value(ModelValue::integer(rng_.pick(kInterestingInts)));
        m_.values[list].items.push_back(item);
        return true;
      }
      case 3:
        if (items.empty()) return false;
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(pick_index(rng_, items.size())));
        return true;
      default: items.clear(); return true;
    }
  }

  bool edit_tensor(ModelTensor& t) {
    switch (rng_.uniform(0, 9)) {
      case 0:
      case 1: return edit_dim(t);
      case 2: return edit_rank(t);
      case 3: return edit_dtype(t);
      case 4: return edit_dim_order(t);
      case 5:
      case 6: return edit_place(t);
      case 7: return edit_storage(t);
      default: return edit_constant_bytes(t);
    }
  }

  bool edit_dim(ModelTensor& t) {
    if (t.sizes.empty()) return false;
    int32_t& s = t.sizes[pick_index(rng_, t.sizes.size())];
    switch (rng_.uniform(0, 2)) {
      case 0: s = static_cast<int32_t>(static_cast<uint32_t>(s) + static_cast<uint32_t>(rng_.uniform(-1, 1))); break;
      default: s = rng_.pick(kInterestingDims); break;
    }
    return fit(t);
  }

  bool edit_rank(ModelTensor& t) {
    if (rng_.coin() && !t.sizes.empty()) {
      t.sizes.erase(t.sizes.begin() + static_cast<std::ptrdiff_t>(pick_index(rng_, t.sizes.size())));
    } else {
      if (t.sizes.size() >= 8) return false;
      t.sizes.insert(t.sizes.begin() + static_cast<std::ptrdiff_t>(pick_index(rng_, t.sizes.size() + 1)),
                     rng_.coin() ? 1 : rng_.pick(kInterestingDims));
    }
    t.dim_order = contiguous(t.sizes.size());
    return fit(t);
  }

  bool edit_dtype(ModelTensor& t) {
    const ScalarType dtype = rng_.pick(kDtypes);
    if (dtype == t.dtype) return false;
    t.dtype = dtype;
    return fit(t);
  }

  bool edit_dim_order(ModelTensor& t) {
    const size_t rank = t.dim_order.size();
    if (rank < 2) return false;
    if (rng_.coin()) {
      std::swap(t.dim_order[pick_index(rng_, rank)], t.dim_order[pick_index(rng_, rank)]);
    } else if (rank == 4) {
      t.dim_order = t.dim_order == std::vector<uint8_t>{0, 2, 3, 1} ? contiguous(4) : std::vector<uint8_t>{0, 2, 3, 1};
    } else {
      std::reverse(t.dim_order.begin() + 1, t.dim_order.end());
    }
    return true;
  }

  // Moves a planned tensor: onto another planned tensor (at its offset, or
  // a few bytes off it), to an unaligned offset, to the end of its arena, or
  // into another arena.
  bool edit_place(ModelTensor& t) {
    if (t.storage != TensorStorage::Planned) return false;
    std::vector<const ModelTensor*> planned;
    for (const ModelValue& v : m_.values) {
      if (v.kind == ValueKind::Tensor && v.tensor.storage == TensorStorage::Planned && &v.tensor != &t) {
        planned.push_back(&v.tensor);
      }
    }
    switch (rng_.uniform(0, 4)) {
      case 0:
      case 1: {
        if (planned.empty()) return false;
        const ModelTensor& other = *planned[pick_index(rng_, planned.size())];
        t.memory_id = other.memory_id;
        t.offset = other.offset + static_cast<uint64_t>(rng_.coin() ? 0 : rng_.uniform(1, 16));
        break;
      }
      case 2: t.offset += static_cast<uint64_t>(rng_.uniform(1, 3)); break;
      case 3: {
        const uint64_t bytes = checked_nbytes(t);
        const int64_t arena = m_.non_const_buffer_sizes.at(t.memory_id);
        if (bytes > static_cast<uint64_t>(arena)) return false;
        t.offset = static_cast<uint64_t>(arena) - bytes;
        break;
      }
      default:
        if (m_.non_const_buffer_sizes.size() < 3) m_.non_const_buffer_sizes.push_back(256);
        t.memory_id = static_cast<uint32_t>(rng_.uniform(1, static_cast<int64_t>(m_.non_const_buffer_sizes.size()) - 1));
        t.offset = 0;
        break;
    }
    return fit(t);
  }

  // Makes a planned tensor a constant (an instruction's out among them) or a
  // constant a planned tensor.
  bool edit_storage(ModelTensor& t) {
    if (t.storage == TensorStorage::Planned) {
      t.storage = TensorStorage::Constant;
      t.memory_id = 0;
      t.offset = 0;
      return fit(t);
    }
    if (t.storage != TensorStorage::Constant) return false;
    t.storage = TensorStorage::Planned;
    t.data.clear();
    t.memory_id = 1;
    if (m_.non_const_buffer_sizes.size() < 2) m_.non_const_buffer_sizes.push_back(0);
    t.offset = static_cast<uint64_t>(m_.non_const_buffer_sizes[1]);
    return fit(t);
  }

  // Constant bytes the kernels read as parameters: per-channel multipliers
  // and shifts, biases, kernel sums. A word at a 4-byte boundary takes an
  // interesting integer, or a run of bytes takes random ones.
  bool edit_constant_bytes(ModelTensor& t) {
    if (t.storage != TensorStorage::Constant || t.data.empty()) return false;
    if (t.data.size() >= 4 && rng_.coin()) {
      const size_t word = pick_index(rng_, t.data.size() / 4) * 4;
      const auto value = static_cast<int32_t>(rng_.pick(kInterestingInts));
      std::memcpy(t.data.data() + word, &value, sizeof(value));
      return true;
    }
    const size_t start = pick_index(rng_, t.data.size());
    const size_t end = std::min(t.data.size(), start + static_cast<size_t>(rng_.uniform(1, 16)));
    for (size_t k = start; k < end; ++k) t.data[k] = static_cast<uint8_t>(rng_.next());
    return true;
  }

  // Keeps the edited tensor writable: a constant's bytes follow its size
  // (capped), a planned tensor's arena grows to hold it.
  bool fit(ModelTensor& t) {
    if (t.dim_order.size() != t.sizes.size()) t.dim_order = contiguous(t.sizes.size());
    const uint64_t bytes = checked_nbytes(t);
    if (t.storage == TensorStorage::Constant) {
      if (bytes > kMaxConstantBytes) return false;
      const size_t old = t.data.size();
      t.data.resize(static_cast<size_t>(bytes));
      for (size_t k = old; k < t.data.size(); ++k) t.data[k] = static_cast<uint8_t>(k * 37 + 11);
      return true;
    }
    if (t.storage != TensorStorage::Planned) return true;
    if (t.memory_id == 0 || t.memory_id >= m_.non_const_buffer_sizes.size()) return false;
    // An arena the format's loader takes (its size fits 32 bits); past the
    // budget, the loader's refusal is the file layer's.
    if (bytes > UINT32_MAX || t.offset > UINT32_MAX - bytes) return false;
    int64_t& arena = m_.non_const_buffer_sizes[t.memory_id];
    arena = std::max<int64_t>(arena, static_cast<int64_t>(t.offset + bytes));
    return true;
  }

  ProgramModel& m_;
  Rng& rng_;
};

}  // namespace

std::vector<uint8_t> mutate_arguments(const uint8_t* program, size_t size, uint32_t seed, size_t max_size) {
  ProgramModel original;
  try {
    original = tools::read_program(std::vector<uint8_t>(program, program + size));
  } catch (const std::exception&) {
    return {};
  }
  Rng rng(seed);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    ProgramModel model = original;
    Mutator mutator(model, rng);
    const int wanted = static_cast<int>(rng.uniform(1, kEditsMax));
    int done = 0;
    for (int tries = 0; done < wanted && tries < 4 * kEditsMax; ++tries) done += mutator.edit() ? 1 : 0;
    if (done == 0 || model == original) continue;
    try {
      std::vector<uint8_t> bytes = tools::write_program(model);
      if (bytes.size() <= max_size) return bytes;
    } catch (const std::exception&) {
      // The writer refuses what the format cannot say (check_model): try other edits.
    }
  }
  return {};
}

}  // namespace etns::fuzz
