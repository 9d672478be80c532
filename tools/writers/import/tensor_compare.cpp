#include "tools/writers/import/tensor_compare.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "tools/common/files.h"

namespace etns::tools {

std::string reference_file_name(int32_t op, int32_t tensor) {
  char name[64];
  std::snprintf(name, sizeof(name), "op%03d_t%d.bin", op, tensor);
  return name;
}

std::vector<TensorComparison> compare_tensors(const ImportedModel& imported, const std::string& dump_dir,
                                              const std::string& reference_dir) {
  std::vector<TensorComparison> rows;
  for (const ImportedOperator& op : imported.operators) {
    TensorComparison row;
    row.op_index = op.index;
    row.builtin = op.builtin;
    row.tensor = op.output_tensor;
    const std::string reference = reference_dir + "/" + reference_file_name(op.index, op.output_tensor);
    if (std::filesystem::is_regular_file(reference)) row.reference_file = reference;
    if (op.instruction >= 0) row.dump_file = dump_dir + "/c0i" + std::to_string(op.instruction) + ".bin";
    if (row.reference_file.empty()) {
      row.problem = "no reference file " + reference;
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
    row.exact = true;
    for (size_t k = 0; k < want.size(); ++k) {
      const int32_t diff = std::abs(static_cast<int32_t>(static_cast<int8_t>(got[k])) -
                                    static_cast<int32_t>(static_cast<int8_t>(want[k])));
      if (diff == 0) continue;
      if (row.exact) row.first_difference = static_cast<int64_t>(k);
      row.exact = false;
      if (diff > row.max_abs_diff) row.max_abs_diff = diff;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string format_comparison(const TensorComparison& row) {
  char head[128];
  std::snprintf(head, sizeof(head), "op %3d %-18s t%d: ", row.op_index, row.builtin.c_str(), row.tensor);
  if (!row.problem.empty()) return head + row.problem;
  if (row.exact) return head + std::string("bit-exact (") + std::to_string(row.elements) + " bytes)";
  return head + std::string("max |diff| ") + std::to_string(row.max_abs_diff) + ", first at element " +
         std::to_string(row.first_difference) + " of " + std::to_string(row.elements);
}

}  // namespace etns::tools
