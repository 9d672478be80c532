#pragma once

// The arm provider's rows, shared by registry_arm.cpp and registry_ns.cpp so that
// ns is exactly arm plus the cortex_m_ns operators. Sorted by name.
#include "kernels/cortex_m/add/add.h"
#include "kernels/cortex_m/avg_pool2d/avg_pool2d.h"
#include "kernels/cortex_m/batch_matmul/batch_matmul.h"
#include "kernels/cortex_m/conv2d/conv2d.h"
#include "kernels/cortex_m/depthwise_conv2d/depthwise_conv2d.h"
#include "kernels/cortex_m/transpose_conv2d/transpose_conv2d.h"
#include "kernels/cortex_m/dequantize/dequantize.h"
#include "kernels/cortex_m/linear/linear.h"
#include "kernels/cortex_m/max_pool2d/max_pool2d.h"
#include "kernels/cortex_m/maximum/maximum.h"
#include "kernels/cortex_m/minimum/minimum.h"
#include "kernels/cortex_m/mul/mul.h"
#include "kernels/cortex_m/pad/pad.h"
#include "kernels/cortex_m/quantize/quantize.h"
#include "kernels/cortex_m/softmax/softmax.h"
#include "kernels/cortex_m/transpose/transpose.h"
#include "kernels/portable/portable.h"
#include "kernels/portable_selection.h"

#ifdef ETNS_PORTABLE_ATEN_CLAMP_OUT
#define ETNS_ENTRY_ATEN_CLAMP \
  runtime::kernel_entry(portable::kClampContract, &portable::clamp_prepare, \
                        &portable::clamp_run),
#else
#define ETNS_ENTRY_ATEN_CLAMP
#endif
#ifdef ETNS_PORTABLE_ATEN_LEAKY_RELU_OUT
#define ETNS_ENTRY_ATEN_LEAKY_RELU \
  runtime::kernel_entry(portable::kLeakyReluContract, &portable::leaky_relu_prepare, \
                        &portable::leaky_relu_run),
#else
#define ETNS_ENTRY_ATEN_LEAKY_RELU
#endif
#ifdef ETNS_PORTABLE_ATEN_MEAN_OUT
#define ETNS_ENTRY_ATEN_MEAN \
  runtime::kernel_entry(portable::kMeanContract, &portable::mean_prepare, \
                        &portable::mean_run),
#else
#define ETNS_ENTRY_ATEN_MEAN
#endif
#ifdef ETNS_PORTABLE_ATEN_SUB_OUT
#define ETNS_ENTRY_ATEN_SUB \
  runtime::kernel_entry(portable::kSubContract, &portable::sub_prepare, \
                        &portable::sub_run),
#else
#define ETNS_ENTRY_ATEN_SUB
#endif
#ifdef ETNS_PORTABLE_ATEN_CLONE_OUT
#define ETNS_ENTRY_ATEN_CLONE \
  runtime::kernel_entry(portable::kCloneContract, &portable::clone_prepare, \
                        &portable::clone_run),
#else
#define ETNS_ENTRY_ATEN_CLONE
#endif
#ifdef ETNS_PORTABLE_ATEN_PERMUTE_COPY_OUT
#define ETNS_ENTRY_ATEN_PERMUTE_COPY \
  runtime::kernel_entry(portable::kPermuteCopyContract, &portable::permute_copy_prepare, \
                        &portable::permute_copy_run),
#else
#define ETNS_ENTRY_ATEN_PERMUTE_COPY
#endif
#ifdef ETNS_PORTABLE_ATEN_VIEW_COPY_OUT
#define ETNS_ENTRY_ATEN_VIEW_COPY \
  runtime::kernel_entry(portable::kViewCopyContract, &portable::view_copy_prepare, \
                        &portable::view_copy_run),
#else
#define ETNS_ENTRY_ATEN_VIEW_COPY
#endif
// ExecuTorch defines _to_dim_order_copy in its own dim_order_ops library, not aten;
// the aten:: spelling (as operators-cortex-m.md writes it) names the same kernel.
#if defined(ETNS_PORTABLE_DIM_ORDER_OPS_TO_DIM_ORDER_COPY_OUT) || \
    defined(ETNS_PORTABLE_ATEN_TO_DIM_ORDER_COPY_OUT)
#define ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY                                        \
  runtime::kernel_entry(portable::kToDimOrderCopyContract, &portable::to_dim_order_copy_prepare, \
                        &portable::to_dim_order_copy_run),                                \
  runtime::KernelEntry{"aten::_to_dim_order_copy.out", &portable::kToDimOrderCopyContract,  \
                       &portable::to_dim_order_copy_prepare, &portable::to_dim_order_copy_run},
#else
#define ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY
#endif

#define ETNS_ARM_KERNEL_ENTRIES                                                                  \
  ETNS_ENTRY_ATEN_CLAMP                                                                          \
  ETNS_ENTRY_ATEN_CLONE                                                                          \
  ETNS_ENTRY_ATEN_LEAKY_RELU                                                                     \
  ETNS_ENTRY_ATEN_MEAN                                                                           \
  ETNS_ENTRY_ATEN_PERMUTE_COPY                                                                   \
  ETNS_ENTRY_ATEN_SUB                                                                            \
  ETNS_ENTRY_ATEN_VIEW_COPY                                                                      \
  runtime::kernel_entry(cortex_m::kDequantizeContract, &cortex_m::dequantize_prepare,            \
                        &cortex_m::dequantize_run),                                              \
  runtime::kernel_entry(cortex_m::kMaximumContract, &cortex_m::maximum_prepare,                  \
                        &cortex_m::maximum_run),                                                 \
  runtime::kernel_entry(cortex_m::kMinimumContract, &cortex_m::minimum_prepare,                  \
                        &cortex_m::minimum_run),                                                 \
  runtime::kernel_entry(cortex_m::kPadContract, &cortex_m::pad_prepare,                          \
                        &cortex_m::pad_run),                                                     \
  runtime::kernel_entry(cortex_m::kQuantizeContract, &cortex_m::quantize_prepare,                \
                        &cortex_m::quantize_run),                                                \
  runtime::kernel_entry(cortex_m::kAddContract, &cortex_m::add_prepare,                          \
                        &cortex_m::add_run),                                                     \
  runtime::kernel_entry(cortex_m::kAvgPool2dContract, &cortex_m::avg_pool2d_prepare,             \
                        &cortex_m::avg_pool2d_run),                                              \
  runtime::kernel_entry(cortex_m::kBatchMatmulContract, &cortex_m::batch_matmul_prepare,         \
                        &cortex_m::batch_matmul_run),                                            \
  runtime::kernel_entry(cortex_m::kConv2dContract, &cortex_m::conv2d_prepare,                    \
                        &cortex_m::conv2d_run),                                                  \
  runtime::kernel_entry(cortex_m::kDepthwiseConv2dContract, &cortex_m::depthwise_conv2d_prepare, \
                        &cortex_m::depthwise_conv2d_run),                                        \
  runtime::kernel_entry(cortex_m::kLinearContract, &cortex_m::linear_prepare,                    \
                        &cortex_m::linear_run),                                                  \
  runtime::kernel_entry(cortex_m::kMaxPool2dContract, &cortex_m::max_pool2d_prepare,             \
                        &cortex_m::max_pool2d_run),                                              \
  runtime::kernel_entry(cortex_m::kMulContract, &cortex_m::mul_prepare,                          \
                        &cortex_m::mul_run),                                                     \
  runtime::kernel_entry(cortex_m::kTransposeConv2dContract, &cortex_m::transpose_conv2d_prepare, \
                        &cortex_m::transpose_conv2d_run),                                        \
  runtime::kernel_entry(cortex_m::kSoftmaxContract, &cortex_m::softmax_prepare,                  \
                        &cortex_m::softmax_run),                                                 \
  runtime::kernel_entry(cortex_m::kTransposeContract, &cortex_m::transpose_prepare,              \
                        &cortex_m::transpose_run),                                               \
  ETNS_ENTRY_DIM_ORDER_OPS_TO_DIM_ORDER_COPY
