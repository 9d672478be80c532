#pragma once

#include "kernels/common/memory_order.h"

// The memory-order checks of the elementwise kernels, shared with etns_ops
// from kernels/common/memory_order.h under the names cortex_m_ns uses.
namespace etns::cortex_m_ns {

using kernels::check_same_memory_order;
using kernels::check_unary_layout;
using kernels::same_memory_order;

}  // namespace etns::cortex_m_ns
