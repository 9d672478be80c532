#pragma once

// Single-operator programs, one per edge a valid program of each operator can
// hold (operator_programs_test.cpp runs them on the host and the M55; the
// `arguments` fuzz target starts from them, fuzz/seeds/write_argument_seeds.cpp).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "protocol/provider.h"
#include "runtime/core/scalar_type.h"
#include "tests/support/rng.h"
#include "tools/writers/program/quantized_graph.h"

namespace etns::testing {

size_t numel(const std::vector<int32_t>& sizes);

using Body = std::function<void(tools::GraphBuilder&, Rng&, int32_t x, int32_t out)>;

// One single-operator program: input `x` of `in_sizes` (int8 unless
// `in_dtype` says otherwise), the op built by `body` (given the builder, x and
// the out tensor), output of `out_dtype` (int8 unless said otherwise).
struct OpCase {
  OpCase(std::string name_, std::vector<int32_t> in_sizes_, std::vector<uint8_t> in_order_,
         std::vector<int32_t> out_sizes_, std::vector<uint8_t> out_order_, Body body_,
         runtime::ScalarType in_dtype_ = runtime::ScalarType::Char, runtime::ScalarType out_dtype_ = runtime::ScalarType::Char)
      : name(std::move(name_)),
        in_sizes(std::move(in_sizes_)),
        in_order(std::move(in_order_)),
        out_sizes(std::move(out_sizes_)),
        out_order(std::move(out_order_)),
        body(std::move(body_)),
        in_dtype(in_dtype_),
        out_dtype(out_dtype_) {}

  std::string name;
  std::vector<int32_t> in_sizes;
  std::vector<uint8_t> in_order;
  std::vector<int32_t> out_sizes;
  std::vector<uint8_t> out_order;
  Body body;
  runtime::ScalarType in_dtype;
  runtime::ScalarType out_dtype;
  tools::Provider provider = tools::Provider::Arm;  // the kernels that run it

  size_t out_bytes() const { return numel(out_sizes) * runtime::element_size(out_dtype); }
};

// Every case, in a fixed order.
std::vector<OpCase> operator_cases();

// The case's program (its constants drawn from `rng`) and an input for it.
std::vector<uint8_t> case_program(const OpCase& c, Rng& rng);
std::vector<uint8_t> case_input(const OpCase& c, Rng& rng);

}  // namespace etns::testing
