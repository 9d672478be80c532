#include "kernels/cortex_m/transpose/transpose.h"
#include "tools/writers/import/builtins/builtins.h"

// TRANSPOSE of ranks 1 to 4 as cortex_m::transpose of the stored form.
namespace etns::tools::builtins {

void import_transpose(OperatorImport& c) {
  const int32_t x = c.input(0), y = c.output();
  c.int8_grid(x);
  c.int8_grid(y);
  const size_t rank = c.shape(x).size();
  if (rank < 1 || rank > 4) c.fail("rank " + std::to_string(rank) + " (1 to 4 are imported)");
  const std::vector<int32_t> perm = c.int32_constant(c.input(1), rank);
  // TFLM indexes with the entries as they are: each must name a dim once.
  std::vector<bool> named(rank, false);
  for (const int32_t p : perm) {
    if (p < 0 || static_cast<size_t>(p) >= rank || named[static_cast<size_t>(p)]) {
      c.fail(c.tensor_label(c.input(1)) + " is not a permutation of 0 to " + std::to_string(rank - 1));
    }
    named[static_cast<size_t>(p)] = true;
  }
  for (size_t d = 0; d < rank; ++d) {
    if (c.shape(y).size() != rank || c.shape(y)[d] != c.shape(x)[static_cast<size_t>(perm[d])]) {
      c.fail("output shape is not the input's permuted");
    }
  }
  std::vector<int64_t> dims(perm.begin(), perm.end());
  const int32_t gx = c.use(x, Form::Stored);
  const int32_t gy = c.define(y, Form::Stored);
  c.call(cortex_m::kTransposeContract,
         {{"input", GraphArg::of_tensor(gx)}, {"perm", GraphArg::list(dims)}, {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
