#pragma once

#include <cstddef>
#include <cstdint>

// What every program-reading fuzz target does with a candidate program: what a
// device does with a program it was given, within the QEMU runner's budget.
namespace etns::fuzz {

// Verifies `size` bytes as a program (copied to 16-byte aligned memory, as
// loaders provide it), plans "forward" into fixed memory, binds it (the
// runtime's load_within_budget, as the firmware runner does) to each
// provider's kernels in turn until one binds (ns only when arm lacks an
// operator: ns is arm plus its own), prepares and executes it once on a fixed
// input pattern.
// Every refusal is a normal outcome; only a crash, a sanitizer report or a
// hang is a finding.
void run_bounded(const uint8_t* data, size_t size);

}  // namespace etns::fuzz
