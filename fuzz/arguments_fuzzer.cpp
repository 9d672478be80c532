// libFuzzer target `arguments`: valid single-operator programs whose
// arguments are rewritten, not their bytes (argument_mutator.h), through
// load, plan, bind, prepare and execute under the M55 runner's budget
// (bounded_run.h). The corpus holds programs: each one also runs on the
// firmware under QEMU (tests/argument_corpus_test.cpp).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/argument_mutator.h"
#include "fuzz/bounded_run.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  etns::fuzz::run_bounded(data, size);
  return 0;
}

#ifdef ETNS_LIBFUZZER
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  const std::vector<uint8_t> mutated = etns::fuzz::mutate_arguments(data, size, seed, max_size);
  // What the model cannot read (an input that lost its structure) gets
  // libFuzzer's byte mutations, which may bring it back.
  if (mutated.empty()) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}
#endif
