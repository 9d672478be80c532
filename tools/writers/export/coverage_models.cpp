#include "tools/writers/export/coverage_models.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/mean/mean.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "kernels/cortex_m_ns/sub/sub.h"
#include "kernels/portable/portable.h"
#include "tools/common/failure.h"
#include "tools/writers/export/seeded_random.h"

namespace etns::tools {

using runtime::ScalarType;

namespace {

constexpr int32_t kCalibrationSamples = 16;
constexpr const runtime::OperatorContract& kQuantize = cortex_m::kQuantizeContract;
constexpr const runtime::OperatorContract& kDequantize = cortex_m::kDequantizeContract;

enum class Kind : uint8_t { Clamp, LeakyRelu, SubChannel, Mean };

// How one model computes, beside its public description.
struct Recipe {
  Kind kind = Kind::Clamp;
  float input_scale = 1.0f;                   // standard normals times this
  std::optional<float> bound_min, bound_max;  // Clamp
  double slope = 0.0;                         // LeakyRelu (as the Python float)
  std::vector<int64_t> dims;                  // Mean (as written, may be negative)
  bool keepdim = false;                       // Mean
};

const std::vector<int32_t> kTrunk{1, 16, 16, 16};

struct Entry {
  CoverageModel model;
  Recipe recipe;
};

Recipe clamp_recipe(float scale, std::optional<float> lo, std::optional<float> hi) {
  Recipe r;
  r.kind = Kind::Clamp;
  r.input_scale = scale;
  r.bound_min = lo;
  r.bound_max = hi;
  return r;
}
Recipe leaky_recipe(double slope) {
  Recipe r;
  r.kind = Kind::LeakyRelu;
  r.input_scale = 2.0f;
  r.slope = slope;
  return r;
}
Recipe mean_recipe(std::vector<int64_t> dims, bool keepdim) {
  Recipe r;
  r.kind = Kind::Mean;
  r.input_scale = 1.0f;
  r.dims = std::move(dims);
  r.keepdim = keepdim;
  return r;
}
Recipe sub_recipe() {
  Recipe r;
  r.kind = Kind::SubChannel;
  r.input_scale = 1.0f;
  return r;
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = [] {
    const char* relu = "cortex_m_ns::quantized_relu";
    const char* leaky = "cortex_m_ns::quantized_leaky_relu";
    const char* mean = "cortex_m_ns::quantized_mean";
    std::vector<Entry> e;
    e.push_back({{"relu6", "hardtanh(x, 0, 6) (torch.nn.ReLU6)", relu, kTrunk, kTrunk, true},
                 clamp_recipe(4.0f, 0.0f, 6.0f)});
    e.push_back({{"hardtanh", "hardtanh(x, -2, 3)", relu, kTrunk, kTrunk, true},
                 clamp_recipe(2.0f, -2.0f, 3.0f)});
    e.push_back({{"clamp", "clamp(x, -1, 2)", relu, kTrunk, kTrunk, true}, clamp_recipe(2.0f, -1.0f, 2.0f)});
    e.push_back({{"clamp_min", "clamp(x, min=-0.5)", relu, kTrunk, kTrunk, true},
                 clamp_recipe(2.0f, -0.5f, std::nullopt)});
    e.push_back({{"leaky_relu_0p01", "leaky_relu(x, 0.01)", leaky, kTrunk, kTrunk, true}, leaky_recipe(0.01)});
    e.push_back({{"leaky_relu_0p2", "leaky_relu(x, 0.2)", leaky, kTrunk, kTrunk, true}, leaky_recipe(0.2)});
    e.push_back({{"sub_channel", "x - c, c a per-channel constant of shape [1, 16, 1, 1]",
                  "cortex_m_ns::quantized_sub", kTrunk, kTrunk, true},
                 sub_recipe()});
    e.push_back({{"mean_c", "mean(x, dim=1, keepdim=True)", mean, kTrunk, {1, 1, 16, 16}, false},
                 mean_recipe({1}, true)});
    e.push_back({{"mean_last", "mean(x, dim=-1) on a [2, 12, 40] input", mean, {2, 12, 40}, {2, 12}, false},
                 mean_recipe({-1}, false)});
    return e;
  }();
  return all;
}

size_t index_of(const std::string& name) {
  const std::vector<Entry>& all = entries();
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k].model.name == name) return k;
  }
  std::string known;
  for (const Entry& e : all) known += (known.empty() ? "" : ", ") + e.model.name;
  throw Failure("unknown coverage model '" + name + "', expected one of " + known, 2);
}

size_t numel(const std::vector<int32_t>& sizes) {
  size_t n = 1;
  for (int32_t s : sizes) n *= static_cast<size_t>(s);
  return n;
}

std::vector<float> scaled_normals(uint64_t seed, size_t n, float scale) {
  SeededRandom rng(seed);
  std::vector<float> values(n);
  for (float& v : values) v = rng.normal_float() * scale;
  return values;
}

uint64_t base_seed(uint64_t seed, size_t index) { return seed + 100 + 10 * static_cast<uint64_t>(index); }

// sub_channel's constant, one value per channel.
std::vector<float> channel_constant(uint64_t seed, size_t index) {
  return scaled_normals(base_seed(seed, index) + 2, static_cast<size_t>(kTrunk[1]), 1.0f);
}

std::vector<float> forward(const Entry& e, const std::vector<float>& x, uint64_t seed, size_t index) {
  const Recipe& r = e.recipe;
  std::vector<float> y;
  switch (r.kind) {
    case Kind::Clamp:
      y = x;
      for (float& v : y) {
        if (r.bound_min) v = std::max(v, *r.bound_min);
        if (r.bound_max) v = std::min(v, *r.bound_max);
      }
      return y;
    case Kind::LeakyRelu:
      y = x;
      for (float& v : y) v = v >= 0.0f ? v : v * static_cast<float>(r.slope);
      return y;
    case Kind::SubChannel: {
      const std::vector<float> c = channel_constant(seed, index);
      const size_t plane = numel(e.model.input_sizes) / c.size();
      y = x;
      for (size_t i = 0; i < y.size(); ++i) y[i] = y[i] - c[i / plane];
      return y;
    }
    case Kind::Mean: {
      // Row-major over the reduced dims: acc = first, then sequential float32 adds.
      const std::vector<int32_t>& sizes = e.model.input_sizes;
      const size_t rank = sizes.size();
      std::vector<bool> reduced(rank, false);
      for (int64_t d : r.dims) reduced[static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d)] = true;
      std::vector<size_t> stride(rank, 1);
      for (size_t d = rank - 1; d > 0; --d) stride[d - 1] = stride[d] * static_cast<size_t>(sizes[d]);
      std::vector<size_t> kept_dims, reduced_dims;
      for (size_t d = 0; d < rank; ++d) (reduced[d] ? reduced_dims : kept_dims).push_back(d);
      auto walk = [&](const std::vector<size_t>& dims, size_t flat) {  // flat index over dims → offset
        size_t offset = 0;
        for (size_t k = dims.size(); k-- > 0;) {
          const size_t n = static_cast<size_t>(sizes[dims[k]]);
          offset += (flat % n) * stride[dims[k]];
          flat /= n;
        }
        return offset;
      };
      size_t outputs = 1, count = 1;
      for (size_t d : kept_dims) outputs *= static_cast<size_t>(sizes[d]);
      for (size_t d : reduced_dims) count *= static_cast<size_t>(sizes[d]);
      y.resize(outputs);
      for (size_t o = 0; o < outputs; ++o) {
        const size_t base = walk(kept_dims, o);
        float acc = x[base + walk(reduced_dims, 0)];
        for (size_t k = 1; k < count; ++k) acc += x[base + walk(reduced_dims, k)];
        y[o] = acc / static_cast<float>(count);
      }
      return y;
    }
  }
  return y;
}

// The int8 bytes of `values` on the grid `q`.
std::vector<uint8_t> quantized_bytes(const std::vector<float>& values, const Qparams& q) {
  std::vector<uint8_t> bytes;
  for (float v : values) bytes.push_back(static_cast<uint8_t>(static_cast<int8_t>(quantize_value(v, q))));
  return bytes;
}

GraphArg optional_bound(const std::optional<float>& bound, const Qparams& q) {
  return bound ? GraphArg::integer(quantize_value(*bound, q)) : GraphArg::null();
}

// One coverage program under construction: its model, its quantisation and
// the int8 tensors around the op the steps below add.
struct CoverageBuild {
  const Entry& e;
  size_t index;
  uint64_t seed;
  const std::string& where;  // "export <name>/<provider>: ", what requantizations are named after
  const Qparams& q_x;
  const Qparams& q_y;
  const std::vector<uint8_t>& in_order;
  const std::vector<uint8_t>& out_order;
  const std::vector<uint8_t>& constant_order;
  GraphBuilder& g;
  const int32_t xq, yq;  // input_q and <name>_out
};

// The input's grid and the op's output grid, observed over 16 samples.
std::pair<Qparams, Qparams> calibrate(const Entry& e, Provider provider, uint64_t seed, size_t index) {
  const Recipe& r = e.recipe;
  MinMax x_range, y_range;
  SeededRandom rng(base_seed(seed, index));
  for (int32_t s = 0; s < kCalibrationSamples; ++s) {
    std::vector<float> sample(numel(e.model.input_sizes));
    for (float& v : sample) v = rng.normal_float() * r.input_scale;
    x_range.add(sample);
    y_range.add(forward(e, sample, seed, index));
  }
  const Qparams q_x = x_range.qparams();
  // An int8 clamp keeps its input's grid; every other output is observed.
  const Qparams q_y = (r.kind == Kind::Clamp && provider == Provider::Arm) ? q_x : y_range.qparams();
  return {q_x, q_y};
}

// sub_channel's constant: int8 on its own observed grid (round half even).
std::pair<int32_t, Qparams> add_channel_constant(const CoverageBuild& b) {
  const std::vector<float> c = channel_constant(b.seed, b.index);
  MinMax c_range;
  c_range.add(c);
  const Qparams q_c = c_range.qparams();
  const int32_t cq = b.g.tensor("constant_q", ScalarType::Char, {1, b.e.model.input_sizes[1], 1, 1},
                                b.constant_order, GraphTensor::Role::Constant, quantized_bytes(c, q_c));
  return {cq, q_c};
}

void add_arm_clamp(const CoverageBuild& b) {
  const Recipe& r = b.e.recipe;
  b.g.call(portable::kClampContract, {{"self", GraphArg::of_tensor(b.xq)},
                                      {"min", optional_bound(r.bound_min, b.q_x)},
                                      {"max", optional_bound(r.bound_max, b.q_x)},
                                      {"out", GraphArg::of_tensor(b.yq)}});
}

// The float island: dequantize → op → quantize.
void add_arm_float_island(const CoverageBuild& b) {
  const Recipe& r = b.e.recipe;
  const CoverageModel& m = b.e.model;
  GraphBuilder& g = b.g;
  const int32_t x_f = g.f32("input_dq", m.input_sizes, b.in_order);
  g.per_tensor(kDequantize, b.xq, b.q_x, x_f);
  const int32_t y_f = g.f32(m.name + "_out_f", m.output_sizes, b.out_order);
  if (r.kind == Kind::LeakyRelu) {
    g.call(portable::kLeakyReluContract, {{"self", GraphArg::of_tensor(x_f)},
                                          {"negative_slope", GraphArg::real(r.slope)},
                                          {"out", GraphArg::of_tensor(y_f)}});
  } else if (r.kind == Kind::SubChannel) {
    const auto [cq, q_c] = add_channel_constant(b);
    const std::vector<int32_t> c_sizes{1, m.input_sizes[1], 1, 1};
    const int32_t c_f = g.f32("constant_dq", c_sizes, b.constant_order);
    g.per_tensor(kDequantize, cq, q_c, c_f);
    g.call(portable::kSubContract, {{"self", GraphArg::of_tensor(x_f)},
                                    {"other", GraphArg::of_tensor(c_f)},
                                    {"alpha", GraphArg::integer(1)},
                                    {"out", GraphArg::of_tensor(y_f)}});
  } else {
    g.call(portable::kMeanContract, {{"self", GraphArg::of_tensor(x_f)},
                                     {"dim", GraphArg::list(r.dims)},
                                     {"keepdim", GraphArg::boolean(r.keepdim)},
                                     {"dtype", GraphArg::null()},
                                     {"out", GraphArg::of_tensor(y_f)}});
  }
  g.per_tensor(kQuantize, y_f, b.q_y, b.yq);
}

void add_ns_relu(const CoverageBuild& b) {
  const Recipe& r = b.e.recipe;
  const Qparams& q_x = b.q_x;
  const Qparams& q_y = b.q_y;
  const Requant rq = same_qparams(q_x, q_y) ? kIdentityRequant : quantize_multiplier(q_x.scale / q_y.scale, b.where + "relu");
  const int32_t lo = r.bound_min ? quantize_activation_bound(*r.bound_min, q_y) : -128;
  const int32_t hi = r.bound_max ? quantize_activation_bound(*r.bound_max, q_y) : 127;
  b.g.call(cortex_m_ns::kReluContract, {{"self", GraphArg::of_tensor(b.xq)},
                                        {"input_zero_point", GraphArg::integer(q_x.zero_point)},
                                        {"output_zero_point", GraphArg::integer(q_y.zero_point)},
                                        {"output_multiplier", GraphArg::integer(rq.multiplier)},
                                        {"output_shift", GraphArg::integer(rq.shift)},
                                        {"activation_min", GraphArg::integer(lo)},
                                        {"activation_max", GraphArg::integer(hi)},
                                        {"out", GraphArg::of_tensor(b.yq)}});
}

void add_ns_leaky_relu(const CoverageBuild& b) {
  const Qparams& q_x = b.q_x;
  const Qparams& q_y = b.q_y;
  const Requant alpha = quantize_multiplier(q_x.scale * b.e.recipe.slope / q_y.scale, b.where + "alpha");
  const Requant identity =
      same_qparams(q_x, q_y) ? kIdentityRequant : quantize_multiplier(q_x.scale / q_y.scale, b.where + "identity");
  b.g.call(cortex_m_ns::kLeakyReluContract, {{"self", GraphArg::of_tensor(b.xq)},
                                             {"input_zero_point", GraphArg::integer(q_x.zero_point)},
                                             {"output_zero_point", GraphArg::integer(q_y.zero_point)},
                                             {"alpha_multiplier", GraphArg::integer(alpha.multiplier)},
                                             {"alpha_shift", GraphArg::integer(alpha.shift)},
                                             {"identity_multiplier", GraphArg::integer(identity.multiplier)},
                                             {"identity_shift", GraphArg::integer(identity.shift)},
                                             {"out", GraphArg::of_tensor(b.yq)}});
}

void add_ns_sub_channel(const CoverageBuild& b) {
  const Qparams& q_x = b.q_x;
  const Qparams& q_y = b.q_y;
  const auto [cq, q_c] = add_channel_constant(b);
  // Stock quantized_add's recipe (operators.md §3.3).
  const double m2 = 2.0 * std::max(q_x.scale, q_c.scale);
  const Requant self_r = quantize_multiplier(q_x.scale / m2, b.where + "self");
  const Requant other_r = quantize_multiplier(q_c.scale / m2, b.where + "other");
  const Requant out_r = quantize_multiplier(m2 / (q_y.scale * 1048576.0), b.where + "output");
  b.g.call(cortex_m_ns::kSubContract, {{"self", GraphArg::of_tensor(b.xq)},
                                       {"self_zero_point", GraphArg::integer(q_x.zero_point)},
                                       {"self_multiplier", GraphArg::integer(self_r.multiplier)},
                                       {"self_shift", GraphArg::integer(self_r.shift)},
                                       {"other", GraphArg::of_tensor(cq)},
                                       {"other_zero_point", GraphArg::integer(q_c.zero_point)},
                                       {"other_multiplier", GraphArg::integer(other_r.multiplier)},
                                       {"other_shift", GraphArg::integer(other_r.shift)},
                                       {"output_zero_point", GraphArg::integer(q_y.zero_point)},
                                       {"output_multiplier", GraphArg::integer(out_r.multiplier)},
                                       {"output_shift", GraphArg::integer(out_r.shift)},
                                       {"activation_min", GraphArg::integer(-128)},
                                       {"activation_max", GraphArg::integer(127)},
                                       {"out", GraphArg::of_tensor(b.yq)}});
}

// The mask right-aligned into four positions (operators.md §3.5).
void add_ns_mean(const CoverageBuild& b) {
  const Recipe& r = b.e.recipe;
  const std::vector<int32_t>& input_sizes = b.e.model.input_sizes;
  const size_t rank = input_sizes.size();
  std::vector<int64_t> mask(4, 0);
  int64_t count = 1;
  for (int64_t d : r.dims) {
    const size_t dim = static_cast<size_t>(d < 0 ? d + static_cast<int64_t>(rank) : d);
    mask[dim + 4 - rank] = 1;
    count *= input_sizes[dim];
  }
  const Requant rq =
      quantize_multiplier(b.q_x.scale / (b.q_y.scale * static_cast<double>(count)), b.where + "mean");
  b.g.call(cortex_m_ns::kMeanContract, {{"self", GraphArg::of_tensor(b.xq)},
                                        {"input_zero_point", GraphArg::integer(b.q_x.zero_point)},
                                        {"axis_mask", GraphArg::list(mask)},
                                        {"keepdim", GraphArg::boolean(r.keepdim)},
                                        {"output_zero_point", GraphArg::integer(b.q_y.zero_point)},
                                        {"output_multiplier", GraphArg::integer(rq.multiplier)},
                                        {"output_shift", GraphArg::integer(rq.shift)},
                                        {"out", GraphArg::of_tensor(b.yq)}});
}

// The op between input_q and <name>_out, by provider and kind.
void add_op(const CoverageBuild& b, Provider provider) {
  const Kind kind = b.e.recipe.kind;
  if (provider == Provider::Arm && kind == Kind::Clamp) {
    add_arm_clamp(b);
  } else if (provider == Provider::Arm) {
    add_arm_float_island(b);
  } else if (kind == Kind::Clamp) {
    add_ns_relu(b);
  } else if (kind == Kind::LeakyRelu) {
    add_ns_leaky_relu(b);
  } else if (kind == Kind::SubChannel) {
    add_ns_sub_channel(b);
  } else {
    add_ns_mean(b);
  }
}

}  // namespace

const std::vector<CoverageModel>& coverage_models() {
  static const std::vector<CoverageModel> models = [] {
    std::vector<CoverageModel> m;
    for (const Entry& e : entries()) m.push_back(e.model);
    return m;
  }();
  return models;
}

const CoverageModel& coverage_model(const std::string& name) { return entries()[index_of(name)].model; }

std::vector<float> coverage_example_input(const std::string& name, uint64_t seed) {
  const size_t k = index_of(name);
  const Entry& e = entries()[k];
  return scaled_normals(base_seed(seed, k) + 1, numel(e.model.input_sizes), e.recipe.input_scale);
}

std::vector<float> coverage_float_forward(const std::string& name, const std::vector<float>& input,
                                          uint64_t seed) {
  const size_t k = index_of(name);
  const Entry& e = entries()[k];
  if (input.size() != numel(e.model.input_sizes)) {
    throw Failure("coverage_float_forward: " + name + " takes " + std::to_string(numel(e.model.input_sizes)) +
                  " values, got " + std::to_string(input.size()));
  }
  return forward(e, input, seed, k);
}

QuantizedGraph build_coverage_graph(const std::string& name, Provider provider, uint64_t seed) {
  const size_t k = index_of(name);
  const Entry& e = entries()[k];
  const CoverageModel& m = e.model;
  const std::string where = "export " + name + "/" + to_string(provider) + ": ";
  const auto [q_x, q_y] = calibrate(e, provider, seed, k);

  // sub_channel's arm program is contiguous: portable sub broadcasts only
  // contiguous tensors (etns and upstream agree there), while
  // quantized_sub's channel broadcast needs channels_last.
  const bool channels_last = m.channels_last && !(e.recipe.kind == Kind::SubChannel && provider == Provider::Arm);
  const std::vector<uint8_t> in_order = channels_last ? kChannelsLastOrder : contiguous_order(m.input_sizes.size());
  const std::vector<uint8_t> out_order = channels_last ? kChannelsLastOrder : contiguous_order(m.output_sizes.size());
  const std::vector<uint8_t> constant_order = channels_last ? kChannelsLastOrder : contiguous_order(4);
  using Role = GraphTensor::Role;
  GraphBuilder g(name, provider);
  const int32_t input = g.f32("input", m.input_sizes, in_order, Role::Input);
  const int32_t xq = g.s8("input_q", m.input_sizes, in_order);
  g.per_tensor(kQuantize, input, q_x, xq);
  const int32_t yq = g.s8(name + "_out", m.output_sizes, out_order);
  CoverageBuild b{e, k, seed, where, q_x, q_y, in_order, out_order, constant_order, g, xq, yq};
  add_op(b, provider);
  const int32_t out = g.f32("output", m.output_sizes, out_order, Role::Output);
  g.per_tensor(kDequantize, yq, q_y, out);
  return g.take();
}

}  // namespace etns::tools
