#pragma once

#include <string>
#include <vector>

#include "tools/evidence/runner/qemu_session.h"

// The evidence page's bit-exactness line: every golden tensor of a golden
// folder (../shared/golden: the upstream ExecuTorch + CMSIS-NN stack's output
// of every instruction of the arm programs, on three inputs) reproduced by the
// arm firmware under QEMU.
namespace etns::tools {

struct GoldenCheck {
  size_t programs = 0;  // distinct programs
  size_t runs = 0;      // (program, input) pairs
  size_t tensors = 0;   // instruction outputs and final outputs compared
  size_t equal = 0;     // of those, byte for byte equal
  std::vector<std::string> differences;  // "tier1_arm.pte input A c0i3 (cortex_m::quantized_conv2d.out)"
};

// Reads `golden_dir`/golden.json, runs each (program, input) once on the arm
// firmware (`qemu`) with every instruction's output dumped, and compares
// every tensor. Programs are found in `shared_dir` (golden.json names them
// "shared/models/..."). Throws Failure naming a missing or malformed file.
GoldenCheck check_goldens(const std::string& golden_dir, const std::string& shared_dir, const QemuTools& qemu);

}  // namespace etns::tools
