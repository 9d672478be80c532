// Writes the `arguments` fuzz target's seeds: one program per single-operator
// case of tests/support/operator_cases.h, every registered operator among
// them, as <folder>/<case>.pte.
//   build/bin/etns_write_argument_seeds fuzz/corpus/arguments

#include <cstdio>
#include <exception>
#include <string>

#include "tests/support/operator_cases.h"
#include "tools/common/files.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: etns_write_argument_seeds FOLDER\n");
    return 2;
  }
  try {
    etns::testing::Rng rng(0x73656564);  // "seed"
    int written = 0;
    for (const etns::testing::OpCase& c : etns::testing::operator_cases()) {
      const std::vector<uint8_t> pte = etns::testing::case_program(c, rng);
      etns::tools::write_file_atomic(std::string(argv[1]) + "/" + c.name + ".pte", pte.data(), pte.size());
      ++written;
    }
    std::printf("%d seeds written to %s\n", written, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "etns_write_argument_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
