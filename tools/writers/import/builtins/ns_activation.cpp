#include "tools/writers/import/builtins/ns_activation.h"

#include <cmath>

#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#include "kernels/cortex_m_ns/relu/relu.h"
#include "tools/common/failure.h"
#include "tools/writers/import/tflm/multipliers.h"

namespace etns::tools::builtins {
namespace {

std::array<int8_t, 256> every_code() {
  std::array<int8_t, 256> codes{};
  for (int32_t q = -128; q <= 127; ++q) codes[static_cast<uint8_t>(q)] = static_cast<int8_t>(q);
  return codes;
}

// The factor range the cortex_m_ns:: kernels' prepare functions accept (zero
// points and clamp bounds are int8 already).
bool is_factor(const kernels::Requant& r) { return r.multiplier >= 0 && r.shift >= -31 && r.shift <= 30; }

std::string factor_text(const char* name, const kernels::Requant& r) {
  return std::string(name) + " (" + std::to_string(r.multiplier) + ", " + std::to_string(r.shift) + ")";
}

NsCandidate relu_call(int32_t zp_in, int32_t zp_out, kernels::Requant factor, int32_t lo, int32_t hi) {
  NsCandidate n;
  n.contract = &cortex_m_ns::kReluContract;
  n.arguments = {{"input_zero_point", zp_in},   {"output_zero_point", zp_out}, {"output_multiplier", factor.multiplier},
                 {"output_shift", factor.shift}, {"activation_min", lo},       {"activation_max", hi}};
  if (!is_factor(factor)) {
    n.refusal = std::string(n.contract->name) + " takes no " + factor_text("factor", factor);
    return n;
  }
  cortex_m_ns::ReluParams p;
  p.in_zero_point = zp_in;
  p.out_zero_point = zp_out;
  p.out = factor;
  p.act_min = lo;
  p.act_max = hi;
  // As relu_prepare decides it.
  p.identity = zp_in == zp_out && factor.multiplier == cortex_m_ns::kIdentityRequant.multiplier &&
               factor.shift == cortex_m_ns::kIdentityRequant.shift;
  const std::array<int8_t, 256> codes = every_code();
  cortex_m_ns::relu_s8_ref(p, codes.data(), n.bytes.data(), codes.size());
  return n;
}

}  // namespace

int32_t differing_codes(const std::array<int8_t, 256>& a, const std::array<int8_t, 256>& b) {
  int32_t count = 0;
  for (size_t i = 0; i < a.size(); ++i) count += a[i] != b[i] ? 1 : 0;
  return count;
}

NsCandidate ns_relu(const tflm::ReluParams& p) {
  return relu_call(p.input_zero_point, p.output_zero_point, kernels::Requant{p.factor.multiplier, p.factor.shift},
                   p.range.min, p.range.max);
}

NsCandidate ns_relu6(const tflm::Relu6Params& p) {
  return relu_call(p.zero, p.zero, cortex_m_ns::kIdentityRequant, p.zero, p.six);
}

NsCandidate ns_leaky_relu(const tflm::LeakyReluParams& p) {
  NsCandidate n;
  n.contract = &cortex_m_ns::kLeakyReluContract;
  const kernels::Requant alpha{p.alpha.multiplier, p.alpha.shift}, identity{p.identity.multiplier, p.identity.shift};
  n.arguments = {{"input_zero_point", p.input_zero_point}, {"output_zero_point", p.output_zero_point},
                 {"alpha_multiplier", alpha.multiplier},   {"alpha_shift", alpha.shift},
                 {"identity_multiplier", identity.multiplier}, {"identity_shift", identity.shift}};
  if (!is_factor(alpha) || !is_factor(identity)) {
    n.refusal = std::string(n.contract->name) + " takes no " +
                (is_factor(alpha) ? factor_text("identity factor", identity) : factor_text("alpha factor", alpha)) +
                (alpha.multiplier < 0 ? " (a negative alpha)" : "");
    return n;
  }
  cortex_m_ns::LeakyReluParams k;
  k.in_zero_point = p.input_zero_point;
  k.out_zero_point = p.output_zero_point;
  k.alpha = alpha;
  k.identity = identity;
  const std::array<int8_t, 256> codes = every_code();
  cortex_m_ns::leaky_relu_s8_ref(k, codes.data(), n.bytes.data(), codes.size());
  return n;
}

NsCandidate ns_hard_swish(float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                          const std::array<int8_t, 256>& tflm) {
  NsCandidate n;
  n.contract = &cortex_m_ns::kHardswishContract;
  const double s = static_cast<double>(s_in);
  const double q3 = std::nearbyint(3.0 / s), q6 = std::nearbyint(6.0 / s);
  Requant factor;
  try {
    factor = tflm::quantize_multiplier(s * s / (6.0 * static_cast<double>(s_out)), "factor");
  } catch (const Failure&) {
    factor = {0, 31};  // outside the kernel's range: refused below
  }
  const kernels::Requant out{factor.multiplier, factor.shift};
  const auto arguments = [&](int64_t relu_q3, int64_t relu_q6) {
    return std::vector<std::pair<const char*, int64_t>>{
        {"input_zero_point", zp_in}, {"output_zero_point", zp_out}, {"output_multiplier", out.multiplier},
        {"output_shift", out.shift}, {"relu_q3", relu_q3},         {"relu_q6", relu_q6},
        {"prescale", 0}};
  };
  n.arguments = arguments(static_cast<int64_t>(q3), static_cast<int64_t>(q6));
  const auto valid = [](double relu_q3, double relu_q6) {
    return relu_q6 >= 1.0 && relu_q6 <= double(1 << 22) && relu_q3 >= 0.0 && relu_q3 <= relu_q6;
  };
  if (!is_factor(out) || !valid(q3, q6)) {
    n.refusal = std::string(n.contract->name) + " takes no " + factor_text("factor", out) + " with relu_q6 " +
                std::to_string(q6) + " (it needs relu_q6 in [1, 2^22])";
    return n;
  }
  const std::array<int8_t, 256> codes = every_code();
  const auto run = [&](int64_t relu_q3, int64_t relu_q6) {
    cortex_m_ns::HardswishParams p;
    p.in_zero_point = zp_in;
    p.out_zero_point = zp_out;
    p.out = out;
    p.relu_q3 = static_cast<int32_t>(relu_q3);
    p.relu_q6 = static_cast<int32_t>(relu_q6);
    std::array<int8_t, 256> bytes{};
    cortex_m_ns::hardswish_s8_ref(p, codes.data(), bytes.data(), codes.size());
    return bytes;
  };
  n.bytes = run(static_cast<int64_t>(q3), static_cast<int64_t>(q6));
  if (n.bytes == tflm) return n;
  constexpr int kSteps[] = {0, -1, 1};
  for (const int d3 : kSteps) {
    for (const int d6 : kSteps) {
      if ((d3 == 0 && d6 == 0) || !valid(q3 + d3, q6 + d6)) continue;
      const auto relu_q3 = static_cast<int64_t>(q3) + d3, relu_q6 = static_cast<int64_t>(q6) + d6;
      const std::array<int8_t, 256> bytes = run(relu_q3, relu_q6);
      if (bytes == tflm) {
        n.arguments = arguments(relu_q3, relu_q6);
        n.bytes = bytes;
        return n;
      }
    }
  }
  return n;
}

void call_activation(OperatorImport& c, const UnaryInt8& u, const std::array<int8_t, 256>& tflm,
                     const NsCandidate& candidate) {
  if (c.provider() != protocol::Provider::Ns) {
    call_lookup_table(c, u, tflm);
    return;
  }
  std::string why = candidate.refusal;
  if (why.empty()) {
    const int32_t differ = differing_codes(candidate.bytes, tflm);
    if (differ == 0) {
      const Form form = c.elementwise_form(u.x);
      const int32_t gx = c.use(u.x, form);
      const int32_t gy = c.define(u.y, form);
      std::vector<NamedArg> args{{"self", GraphArg::of_tensor(gx)}};
      for (const auto& [name, value] : candidate.arguments) args.push_back({name, GraphArg::integer(value)});
      args.push_back({"out", GraphArg::of_tensor(gy)});
      c.call(*candidate.contract, args);
      c.note_provider(protocol::Provider::Ns, "");
      return;
    }
    size_t first = 0;
    while (candidate.bytes[first] == tflm[first]) ++first;
    const auto code = static_cast<int8_t>(first);
    why = std::string(candidate.contract->name) + " differs from TFLM on " + std::to_string(differ) +
          " of 256 codes (first: code " + std::to_string(code) + " gives " +
          std::to_string(candidate.bytes[first]) + ", TFLM " + std::to_string(tflm[first]) + ")";
  }
  call_lookup_table(c, u, tflm);
  c.note_provider(protocol::Provider::Arm, why);
}

}  // namespace etns::tools::builtins
