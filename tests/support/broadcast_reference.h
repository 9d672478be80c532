#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// The definition a broadcast-walked kernel (minimum, maximum) must reproduce:
// op over the broadcast shape by logical index, contiguous tensors, sizes
// right-aligned.
namespace etns::testing {

template <typename Op>
std::vector<int8_t> broadcast_apply(const std::vector<int32_t>& a_sizes,
                                    const std::vector<int8_t>& a,
                                    const std::vector<int32_t>& b_sizes,
                                    const std::vector<int8_t>& b,
                                    const std::vector<int32_t>& out_sizes, Op op) {
  const size_t rank = out_sizes.size();
  auto aligned = [rank](const std::vector<int32_t>& sizes, size_t k) -> size_t {
    const size_t lead = rank - sizes.size();
    return k < lead ? 1 : static_cast<size_t>(sizes[k - lead]);
  };
  size_t numel = 1;
  for (int32_t s : out_sizes) numel *= static_cast<size_t>(s);
  std::vector<int8_t> out(numel);
  for (size_t i = 0; i < numel; ++i) {
    size_t rest = i;
    size_t a_index = 0;
    size_t b_index = 0;
    size_t a_step = 1;
    size_t b_step = 1;
    for (size_t k = rank; k-- > 0;) {
      const size_t index = rest % static_cast<size_t>(out_sizes[k]);
      rest /= static_cast<size_t>(out_sizes[k]);
      if (aligned(a_sizes, k) != 1) a_index += index * a_step;
      if (aligned(b_sizes, k) != 1) b_index += index * b_step;
      a_step *= aligned(a_sizes, k);
      b_step *= aligned(b_sizes, k);
    }
    out[i] = op(a[a_index], b[b_index]);
  }
  return out;
}

inline std::string format_sizes(const std::vector<int32_t>& sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "]";
}

}  // namespace etns::testing
