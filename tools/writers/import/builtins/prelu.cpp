#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/etns_ops/channel_lookup/channel_lookup.h"
#include "tools/writers/import/builtins/builtins.h"
#include "tools/writers/import/builtins/unary_table.h"
#include "tools/writers/import/tflm/prelu_table.h"
#include "tools/writers/tflite/tflite_reader.h"

// PRELU on int8 (prelu.cc, prelu_common.cc): every output element is a
// function of its input code and the alpha code broadcast onto it. With a
// constant alpha holding one value everywhere that function is one int8 ->
// int8 map, so the importer runs TFLM's arithmetic (two QuantizeMultiplier
// factors, tflm/prelu_table.h) on all 256 input codes and the program is one
// etns_ops::lookup_table; with one value per channel (the input's last dim)
// it is a table per channel and one etns_ops::channel_lookup.
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
  const tflm::PreluParams p = tflm::prelu_params(u.in.scale, u.in.zero_point, ga.scale, ga.zero_point, u.out.scale,
                                                 u.out.zero_point, c.where());
  bool uniform = true;
  for (const uint8_t code : codes) uniform = uniform && code == codes[0];
  if (uniform) {
    call_lookup_table(c, u, tflm::prelu_table(p, static_cast<int8_t>(codes[0])));
    return;
  }
  // Alpha varying along the channels (the input's last dim) only: a table
  // per channel, etns_ops::channel_lookup.
  const size_t channels = sa.empty() ? 1 : static_cast<size_t>(sa.back());
  bool per_channel = !sa.empty() && sa.back() == sx.back();
  for (size_t i = 0; per_channel && i < codes.size(); ++i) per_channel = codes[i] == codes[i % channels];
  if (!per_channel) {
    c.fail(c.tensor_label(alpha) + " (alpha) varies along other dims than the input's last (one value, or one per "
           "channel, is imported)");
  }
  std::vector<uint8_t> tables;
  tables.reserve(channels * 256);
  for (size_t k = 0; k < channels; ++k) {
    const std::array<int8_t, 256> t = tflm::prelu_table(p, static_cast<int8_t>(codes[k]));
    for (const int8_t v : t) tables.push_back(static_cast<uint8_t>(v));
  }
  const Form form = c.elementwise_form(u.x);
  const int32_t gx = c.use(u.x, form);
  const int32_t gy = c.define(u.y, form);
  const int32_t gt = c.graph().tensor(c.name("tables"), runtime::ScalarType::Char,
                                      {static_cast<int32_t>(channels), 256}, contiguous_order(2),
                                      GraphTensor::Role::Constant, std::move(tables));
  // The channel dim of the graph tensor: logical NCHW's 1 in channels_last
  // form, the last in the stored one.
  const int64_t dim = form == Form::ChannelsLast ? 1 : static_cast<int64_t>(sx.size()) - 1;
  c.call(etns_ops::kChannelLookupContract, {{"self", GraphArg::of_tensor(gx)},
                                            {"tables", GraphArg::of_tensor(gt)},
                                            {"dim", GraphArg::integer(dim)},
                                            {"out", GraphArg::of_tensor(gy)}});
}

}  // namespace etns::tools::builtins
