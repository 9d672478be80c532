#include "tools/writers/import/tensor_compare.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

#include "tools/common/files.h"

namespace etns::tools {

std::string reference_file_name(int32_t op, int32_t tensor) {
  char name[64];
  std::snprintf(name, sizeof(name), "op%03d_t%d.bin", op, tensor);
  return name;
}

namespace {

// Element k of `bytes` as a signed integer of `width` bytes (1, 2 or 4).
int64_t element(const std::vector<uint8_t>& bytes, size_t k, size_t width) {
  if (width == 4) {
    int32_t v = 0;
    std::memcpy(&v, bytes.data() + k * 4, 4);
    return v;
  }
  if (width == 2) {
    int16_t v = 0;
    std::memcpy(&v, bytes.data() + k * 2, 2);
    return v;
  }
  return static_cast<int8_t>(bytes[k]);
}

// Fills exact, max_abs_diff and first_difference; the sizes are equal.
void compare_values(const std::vector<uint8_t>& want, const std::vector<uint8_t>& got, size_t width,
                    TensorComparison& row) {
  row.exact = true;
  for (size_t k = 0; k < want.size() / width; ++k) {
    const int64_t diff = std::llabs(element(got, k, width) - element(want, k, width));
    if (diff == 0) continue;
    if (row.exact) row.first_difference = static_cast<int64_t>(k);
    row.exact = false;
    const int32_t clipped = static_cast<int32_t>(std::min<int64_t>(diff, std::numeric_limits<int32_t>::max()));
    if (clipped > row.max_abs_diff) row.max_abs_diff = clipped;
  }
}

}  // namespace

std::vector<TensorComparison> compare_tensors(const ImportedModel& imported, const std::string& dump_dir,
                                              const std::string& reference_dir) {
  std::vector<TensorComparison> rows;
  // One row per output: SPLIT, SPLIT_V and UNPACK write several, each
  // with its own reference file.
  for (const ImportedOperator& op : imported.operators) {
   for (const ImportedOutput& output : op.outputs) {
    TensorComparison row;
    row.op_index = op.index;
    row.builtin = op.builtin;
    row.tensor = output.tensor;
    const std::string reference = reference_dir + "/" + reference_file_name(op.index, output.tensor);
    if (std::filesystem::is_regular_file(reference)) row.reference_file = reference;
    if (output.instruction >= 0) row.dump_file = dump_dir + "/c0i" + std::to_string(output.instruction) + ".bin";
    row.folded = op.folded;
    if (row.reference_file.empty()) {
      row.problem = "no reference file " + reference;
    } else if (row.folded) {
      const std::vector<uint8_t> want = read_file(row.reference_file);
      const size_t width = op.output_elements == 0 ? 1 : op.folded_value.size() / op.output_elements;
      row.elements = op.output_elements;
      if (want.size() != op.folded_value.size() || (width != 1 && width != 2 && width != 4)) {
        row.problem = std::to_string(op.folded_value.size()) + " bytes folded, the reference has " +
                      std::to_string(want.size());
      } else {
        compare_values(want, op.folded_value, width, row);
      }
      rows.push_back(std::move(row));
      continue;
    } else if (row.dump_file.empty()) {
      row.problem = "no instruction writes this tensor";
    } else if (!std::filesystem::is_regular_file(row.dump_file)) {
      row.problem = "no dump file " + row.dump_file;
    }
    if (!row.problem.empty()) {
      rows.push_back(std::move(row));
      continue;
    }
    const std::vector<uint8_t> want = read_file(row.reference_file);
    const std::vector<uint8_t> got = read_file(row.dump_file);
    row.elements = want.size();
    if (want.size() != got.size()) {
      row.problem = std::to_string(got.size()) + " bytes dumped, the reference has " + std::to_string(want.size());
      rows.push_back(std::move(row));
      continue;
    }
    compare_values(want, got, 1, row);
    rows.push_back(std::move(row));
   }
  }
  return rows;
}

std::string format_comparison(const TensorComparison& row) {
  char head[128];
  std::snprintf(head, sizeof(head), "op %3d %-18s t%d: ", row.op_index, row.builtin.c_str(), row.tensor);
  if (!row.problem.empty()) return head + row.problem;
  const std::string folded = row.folded ? ", folded at import" : "";
  if (row.exact) {
    return head + std::string("bit-exact (") + std::to_string(row.elements) + (row.folded ? " elements" : " bytes") +
           folded + ")";
  }
  return head + std::string("max |diff| ") + std::to_string(row.max_abs_diff) + ", first at element " +
         std::to_string(row.first_difference) + " of " + std::to_string(row.elements) + folded;
}

}  // namespace etns::tools
