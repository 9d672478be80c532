#pragma once

// Every operator's row, each compiled in only when its selection macro is
// defined: ETNS_SELECT_<NAME>, the operator name in capitals with each run of
// other characters an underscore ("cortex_m::quantized_conv2d.out" ->
// ETNS_SELECT_CORTEX_M_QUANTIZED_CONV2D_OUT). ETNS_SELECTED_KERNEL_ENTRIES
// expands to the selected rows. The providers define their sets
// (registry_arm_selection.h, registry_ns_selection.h); a selective build
// defines the operators its programs need (`etns kernels --header`,
// registry_selected.cpp), so the linker pulls in exactly those kernels.
// A row's header is included only when it is selected.
#include "runtime/exec/kernel.h"

#ifdef ETNS_SELECT_ATEN_CLAMP_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_CLAMP_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kClampContract, &::etns::portable::clamp_prepare, &::etns::portable::clamp_run),
#else
#define ETNS_ENTRY_ATEN_CLAMP_OUT
#endif
#ifdef ETNS_SELECT_ATEN_CLONE_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_CLONE_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kCloneContract, &::etns::portable::clone_prepare, &::etns::portable::clone_run),
#else
#define ETNS_ENTRY_ATEN_CLONE_OUT
#endif
#ifdef ETNS_SELECT_ATEN_LEAKY_RELU_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_LEAKY_RELU_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kLeakyReluContract, &::etns::portable::leaky_relu_prepare, &::etns::portable::leaky_relu_run),
#else
#define ETNS_ENTRY_ATEN_LEAKY_RELU_OUT
#endif
#ifdef ETNS_SELECT_ATEN_MEAN_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_MEAN_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kMeanContract, &::etns::portable::mean_prepare, &::etns::portable::mean_run),
#else
#define ETNS_ENTRY_ATEN_MEAN_OUT
#endif
#ifdef ETNS_SELECT_ATEN_PERMUTE_COPY_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_PERMUTE_COPY_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kPermuteCopyContract, &::etns::portable::permute_copy_prepare, &::etns::portable::permute_copy_run),
#else
#define ETNS_ENTRY_ATEN_PERMUTE_COPY_OUT
#endif
#ifdef ETNS_SELECT_ATEN_SUB_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_SUB_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kSubContract, &::etns::portable::sub_prepare, &::etns::portable::sub_run),
#else
#define ETNS_ENTRY_ATEN_SUB_OUT
#endif
#ifdef ETNS_SELECT_ATEN_VIEW_COPY_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_VIEW_COPY_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kViewCopyContract, &::etns::portable::view_copy_prepare, &::etns::portable::view_copy_run),
#else
#define ETNS_ENTRY_ATEN_VIEW_COPY_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_DEQUANTIZE_PER_TENSOR_OUT
#include "kernels/cortex_m/dequantize/dequantize.h"
#define ETNS_ENTRY_CORTEX_M_DEQUANTIZE_PER_TENSOR_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kDequantizeContract, &::etns::cortex_m::dequantize_prepare, &::etns::cortex_m::dequantize_run),
#else
#define ETNS_ENTRY_CORTEX_M_DEQUANTIZE_PER_TENSOR_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_MAXIMUM_OUT
#include "kernels/cortex_m/maximum/maximum.h"
#define ETNS_ENTRY_CORTEX_M_MAXIMUM_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kMaximumContract, &::etns::cortex_m::maximum_prepare, &::etns::cortex_m::maximum_run),
#else
#define ETNS_ENTRY_CORTEX_M_MAXIMUM_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_MINIMUM_OUT
#include "kernels/cortex_m/minimum/minimum.h"
#define ETNS_ENTRY_CORTEX_M_MINIMUM_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kMinimumContract, &::etns::cortex_m::minimum_prepare, &::etns::cortex_m::minimum_run),
#else
#define ETNS_ENTRY_CORTEX_M_MINIMUM_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_PAD_OUT
#include "kernels/cortex_m/pad/pad.h"
#define ETNS_ENTRY_CORTEX_M_PAD_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kPadContract, &::etns::cortex_m::pad_prepare, &::etns::cortex_m::pad_run),
#else
#define ETNS_ENTRY_CORTEX_M_PAD_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZE_PER_TENSOR_OUT
#include "kernels/cortex_m/quantize/quantize.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZE_PER_TENSOR_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kQuantizeContract, &::etns::cortex_m::quantize_prepare, &::etns::cortex_m::quantize_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZE_PER_TENSOR_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_ADD_OUT
#include "kernels/cortex_m/add/add.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_ADD_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kAddContract, &::etns::cortex_m::add_prepare, &::etns::cortex_m::add_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_ADD_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_AVG_POOL2D_OUT
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_AVG_POOL2D_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kAvgPool2dContract, &::etns::cortex_m::avg_pool2d_prepare, &::etns::cortex_m::avg_pool2d_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_AVG_POOL2D_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_BATCH_MATMUL_OUT
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_BATCH_MATMUL_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kBatchMatmulContract, &::etns::cortex_m::batch_matmul_prepare, &::etns::cortex_m::batch_matmul_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_BATCH_MATMUL_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_CONV2D_OUT
#include "kernels/cortex_m/conv2d/conv2d.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_CONV2D_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kConv2dContract, &::etns::cortex_m::conv2d_prepare, &::etns::cortex_m::conv2d_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_CONV2D_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_DEPTHWISE_CONV2D_OUT
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_DEPTHWISE_CONV2D_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kDepthwiseConv2dContract, &::etns::cortex_m::depthwise_conv2d_prepare, &::etns::cortex_m::depthwise_conv2d_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_DEPTHWISE_CONV2D_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_LINEAR_OUT
#include "kernels/cortex_m/linear/linear.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_LINEAR_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kLinearContract, &::etns::cortex_m::linear_prepare, &::etns::cortex_m::linear_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_LINEAR_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_MAX_POOL2D_OUT
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_MAX_POOL2D_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kMaxPool2dContract, &::etns::cortex_m::max_pool2d_prepare, &::etns::cortex_m::max_pool2d_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_MAX_POOL2D_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_MUL_OUT
#include "kernels/cortex_m/mul/mul.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_MUL_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kMulContract, &::etns::cortex_m::mul_prepare, &::etns::cortex_m::mul_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_MUL_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_QUANTIZED_TRANSPOSE_CONV2D_OUT
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_TRANSPOSE_CONV2D_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kTransposeConv2dContract, &::etns::cortex_m::transpose_conv2d_prepare, &::etns::cortex_m::transpose_conv2d_run),
#else
#define ETNS_ENTRY_CORTEX_M_QUANTIZED_TRANSPOSE_CONV2D_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_SOFTMAX_OUT
#include "kernels/cortex_m/softmax/softmax.h"
#define ETNS_ENTRY_CORTEX_M_SOFTMAX_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kSoftmaxContract, &::etns::cortex_m::softmax_prepare, &::etns::cortex_m::softmax_run),
#else
#define ETNS_ENTRY_CORTEX_M_SOFTMAX_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_TRANSPOSE_OUT
#include "kernels/cortex_m/transpose/transpose.h"
#define ETNS_ENTRY_CORTEX_M_TRANSPOSE_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m::kTransposeContract, &::etns::cortex_m::transpose_prepare, &::etns::cortex_m::transpose_run),
#else
#define ETNS_ENTRY_CORTEX_M_TRANSPOSE_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_NS_QUANTIZED_HARDSWISH_OUT
#include "kernels/cortex_m_ns/hardswish/hardswish.h"
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_HARDSWISH_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m_ns::kHardswishContract, &::etns::cortex_m_ns::hardswish_prepare, &::etns::cortex_m_ns::hardswish_run),
#else
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_HARDSWISH_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_NS_QUANTIZED_LEAKY_RELU_OUT
#include "kernels/cortex_m_ns/leaky_relu/leaky_relu.h"
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_LEAKY_RELU_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m_ns::kLeakyReluContract, &::etns::cortex_m_ns::leaky_relu_prepare, &::etns::cortex_m_ns::leaky_relu_run),
#else
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_LEAKY_RELU_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_NS_QUANTIZED_MEAN_OUT
#include "kernels/cortex_m_ns/mean/mean.h"
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_MEAN_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m_ns::kMeanContract, &::etns::cortex_m_ns::mean_prepare, &::etns::cortex_m_ns::mean_run),
#else
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_MEAN_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_NS_QUANTIZED_RELU_OUT
#include "kernels/cortex_m_ns/relu/relu.h"
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_RELU_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m_ns::kReluContract, &::etns::cortex_m_ns::relu_prepare, &::etns::cortex_m_ns::relu_run),
#else
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_RELU_OUT
#endif
#ifdef ETNS_SELECT_CORTEX_M_NS_QUANTIZED_SUB_OUT
#include "kernels/cortex_m_ns/sub/sub.h"
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_SUB_OUT \
  ::etns::runtime::kernel_entry(::etns::cortex_m_ns::kSubContract, &::etns::cortex_m_ns::sub_prepare, &::etns::cortex_m_ns::sub_run),
#else
#define ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_SUB_OUT
#endif
#ifdef ETNS_SELECT_DIM_ORDER_OPS_TO_DIM_ORDER_COPY_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY_OUT \
  ::etns::runtime::kernel_entry(::etns::portable::kToDimOrderCopyContract, &::etns::portable::to_dim_order_copy_prepare, &::etns::portable::to_dim_order_copy_run),
#else
#define ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY_OUT
#endif
// ExecuTorch defines _to_dim_order_copy in its own dim_order_ops library, not
// aten; the aten:: spelling (as operators-cortex-m.md writes it) names the same kernel.
#ifdef ETNS_SELECT_ATEN_TO_DIM_ORDER_COPY_OUT
#include "kernels/portable/portable.h"
#define ETNS_ENTRY_ATEN_TO_DIM_ORDER_COPY_OUT                                                   \
  ::etns::runtime::KernelEntry{"aten::_to_dim_order_copy.out", &::etns::portable::kToDimOrderCopyContract, \
                               &::etns::portable::to_dim_order_copy_prepare,                    \
                               &::etns::portable::to_dim_order_copy_run},
#else
#define ETNS_ENTRY_ATEN_TO_DIM_ORDER_COPY_OUT
#endif

#define ETNS_SELECTED_KERNEL_ENTRIES \
  ETNS_ENTRY_ATEN_CLAMP_OUT \
  ETNS_ENTRY_ATEN_CLONE_OUT \
  ETNS_ENTRY_ATEN_LEAKY_RELU_OUT \
  ETNS_ENTRY_ATEN_MEAN_OUT \
  ETNS_ENTRY_ATEN_PERMUTE_COPY_OUT \
  ETNS_ENTRY_ATEN_SUB_OUT \
  ETNS_ENTRY_ATEN_VIEW_COPY_OUT \
  ETNS_ENTRY_CORTEX_M_DEQUANTIZE_PER_TENSOR_OUT \
  ETNS_ENTRY_CORTEX_M_MAXIMUM_OUT \
  ETNS_ENTRY_CORTEX_M_MINIMUM_OUT \
  ETNS_ENTRY_CORTEX_M_PAD_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZE_PER_TENSOR_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_ADD_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_AVG_POOL2D_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_BATCH_MATMUL_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_CONV2D_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_DEPTHWISE_CONV2D_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_LINEAR_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_MAX_POOL2D_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_MUL_OUT \
  ETNS_ENTRY_CORTEX_M_QUANTIZED_TRANSPOSE_CONV2D_OUT \
  ETNS_ENTRY_CORTEX_M_SOFTMAX_OUT \
  ETNS_ENTRY_CORTEX_M_TRANSPOSE_OUT \
  ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_HARDSWISH_OUT \
  ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_LEAKY_RELU_OUT \
  ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_MEAN_OUT \
  ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_RELU_OUT \
  ETNS_ENTRY_CORTEX_M_NS_QUANTIZED_SUB_OUT \
  ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY_OUT \
  ETNS_ENTRY_ATEN_TO_DIM_ORDER_COPY_OUT
