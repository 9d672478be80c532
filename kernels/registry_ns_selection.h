#pragma once

// The ns provider: exactly arm plus the cortex_m_ns:: Tier-1 operators
// (quantized_relu also serves relu6, hardtanh and clamp through its bounds).
#include "kernels/registry_arm_selection.h"

#define ETNS_SELECT_CORTEX_M_NS_QUANTIZED_HARDSWISH_OUT 1
#define ETNS_SELECT_CORTEX_M_NS_QUANTIZED_LEAKY_RELU_OUT 1
#define ETNS_SELECT_CORTEX_M_NS_QUANTIZED_MEAN_OUT 1
#define ETNS_SELECT_CORTEX_M_NS_QUANTIZED_RELU_OUT 1
#define ETNS_SELECT_CORTEX_M_NS_QUANTIZED_SUB_OUT 1
