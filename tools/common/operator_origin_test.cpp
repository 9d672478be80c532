#include "tools/common/operator_origin.h"

#include <gtest/gtest.h>

namespace etns::tools {
namespace {

TEST(OperatorOrigin, StockExecuTorchHasCortexMAndPortableButNotEtnsOwn) {
  EXPECT_TRUE(stock_executorch_has("cortex_m::quantized_conv2d.out"));
  EXPECT_TRUE(stock_executorch_has("aten::view_copy.out"));
  EXPECT_TRUE(stock_executorch_has("dim_order_ops::_to_dim_order_copy.out"));
  EXPECT_TRUE(stock_executorch_has("aten::upsample_nearest2d.out")) << "an aten operator etns lacks is still stock";
  EXPECT_FALSE(stock_executorch_has("etns_ops::lookup_table.out"));
  EXPECT_FALSE(stock_executorch_has("cortex_m_ns::quantized_relu.out"));
  EXPECT_FALSE(stock_executorch_has("my_ops::thing.out"));
  EXPECT_FALSE(stock_executorch_has("cortex_m::no_such_operator.out")) << "only the listed cortex_m:: operators";
}

}  // namespace
}  // namespace etns::tools
