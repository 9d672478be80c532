#pragma once

#include <string>

// Which operators a stock ExecuTorch runtime has a kernel for, so that a user
// shipping a program to one knows what it would lack (`etns inspect`, the
// import report).
namespace etns::tools {

// True for the rows of kernels/operators.inc in the cortex_m and portable
// namespaces (upstream's cortex_m backend and portable kernels), and for any
// other aten:: or dim_order_ops:: name; false for etns_ops:: and cortex_m_ns::
// (etns's own) and for names of no known namespace.
bool stock_executorch_has(const std::string& name);

}  // namespace etns::tools
