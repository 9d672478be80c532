#include <cstdint>
#include <string>
#include <vector>

#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/prelu_table.h"
#include "tools/writers/tflite/tflite_reader.h"

// PRELU on int8 (prelu.cc, prelu_common.cc): every output element is a
// function of its input code and the alpha code broadcast onto it. With a
// constant alpha holding one value everywhere that function is one int8 ->
// int8 map, so the importer runs TFLM's arithmetic (two QuantizeMultiplier
// factors, tflm/prelu_table.h) on all 256 input codes and the program is one
// etns_ops::lookup_table.
namespace etns::tools::builtins {

void import_prelu(OperatorImport& c) {
  const UnaryInt8 u = unary_int8(c);
  const int32_t alpha = c.input(1);
  if (c.tensor(alpha).type != tflite::TensorType::Int8) {
    c.fail(c.tensor_label(alpha) + " (alpha) is " + tflite::to_string(c.tensor(alpha).type) +
           ", TFLM reads int8 alpha for int8 PRELU");
  }
  if (!c.is_constant(alpha)) {
    c.fail(c.tensor_label(alpha) + " (alpha) is not a constant (a constant alpha is imported, as a table)");
  }
  const tflite::Tensor& a = c.tensor(alpha);
  if (a.quantization.scales.size() > 1) {
    c.fail(c.tensor_label(alpha) + " (alpha) has " + std::to_string(a.quantization.scales.size()) +
           " scales (per-tensor alpha is imported)");
  }
  const Grid ga = c.per_tensor_grid(alpha);
  // BroadcastPrelu4DSlow: alpha broadcast onto the input gives the output
  // (right-aligned, each alpha dim 1 or the input's).
  const std::vector<int32_t>& sx = c.shape(u.x);
  const std::vector<int32_t>& sa = c.shape(alpha);
  bool onto = sa.size() <= sx.size() && sx.size() <= 4;
  for (size_t k = 0; onto && k < sa.size(); ++k) {
    const int32_t d = sa[sa.size() - 1 - k];
    onto = d == 1 || d == sx[sx.size() - 1 - k];
  }
  if (!onto) {
    c.fail(c.tensor_label(alpha) + " (alpha) " + tflite::shape_text(c.shape(alpha)) +
           " does not broadcast onto the input " + tflite::shape_text(sx) + " (ranks up to 4)");
  }
  const std::vector<uint8_t>& codes = *c.constant_bytes(alpha);
  if (codes.empty()) c.fail(c.tensor_label(alpha) + " (alpha) has no elements");
  for (const uint8_t code : codes) {
    if (code != codes[0]) {
      c.fail(c.tensor_label(alpha) + " (alpha) holds different values (one alpha value is imported, as one table)");
    }
  }
  const tflm::PreluParams p = tflm::prelu_params(u.in.scale, u.in.zero_point, ga.scale, ga.zero_point, u.out.scale,
                                                 u.out.zero_point, c.where());
  call_lookup_table(c, u, tflm::prelu_table(p, static_cast<int8_t>(codes[0])));
}

}  // namespace etns::tools::builtins
