// libFuzzer target 1: any bytes as a .pte, through load, plan, bind, prepare
// and execute on both providers (bounded_run.h).

#include <cstddef>
#include <cstdint>

#include "fuzz/bounded_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  etns::fuzz::run_bounded(data, size);
  return 0;
}
