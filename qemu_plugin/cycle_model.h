#pragma once

// An estimate of the Cortex-M55's core cycles from the blocks QEMU executes.
// It is an estimate, never a measurement: QEMU has no timing, so each
// executed translation block is timed with LLVM 19's Cortex-M55 scheduling
// model (the MCA library: beats, pipes, overlap, latencies) in the context of
// the block executed before it:
//   - a block after a different block costs MCA(before + block) - MCA(before),
//     both one pass, so the overlap across the boundary is counted once;
//   - a block after itself (a loop body) costs its steady state, the cycles
//     per pass of MCA over many passes;
//   - a taken branch (the next block does not start where the last ended)
//     adds kEtnsTakenBranchCycles; a low-overhead loop's back edge (LE, LETP)
//     adds them only at its first LE after a loop start (DLS, WLS, DLSTP,
//     WLSTP), when the core learns the loop;
//   - the model has no timing for the low-overhead loop instructions: a loop
//     start costs 1 cycle, a loop end none (the core folds it into the loop);
//     an instruction neither LLVM nor MCA knows costs 1 and is counted;
//   - no memory wait states (an547's TCM and SRAM): every access costs what
//     the scheduling model says.
// Costs are kept in thousandths of a cycle (steady states are fractional) and
// cached per pair of blocks, so a pair is timed once per run. Without the
// cache every execution is timed again; the totals are the same (a test
// checks it), only slower.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ETNS_CYCLE_MODEL_NAME "LLVM 19 MCA, Cortex-M55 scheduling model"
enum { kEtnsTakenBranchCycles = 3, kEtnsMilliCycles = 1000 };

typedef struct EtnsCycleModel EtnsCycleModel;
typedef struct EtnsCycleBlock EtnsCycleBlock;

typedef struct EtnsCycleStats {
  uint64_t blocks;                    // distinct blocks seen
  uint64_t pairs;                     // distinct (before, block) pairs timed
  uint64_t unmodelled_instructions;   // decoded by neither LLVM nor MCA: 1 cycle each
} EtnsCycleStats;

// cpu: "cortex-m55". cache: 0 times every execution again. Returns NULL and
// writes one line into error (NUL-terminated, at most error_size bytes).
EtnsCycleModel* etns_cycle_model_create(const char* cpu, int cache, char* error, size_t error_size);
void etns_cycle_model_destroy(EtnsCycleModel* model);

// At translation: the block's code, copied. The same address and bytes give
// the same block, however often QEMU translates them.
EtnsCycleBlock* etns_cycle_block(EtnsCycleModel* model, uint64_t vaddr, const uint8_t* bytes,
                                 size_t size);

// At each execution: the block's estimated cost in thousandths of a cycle,
// after the block last passed to this function.
uint64_t etns_cycle_execute(EtnsCycleModel* model, EtnsCycleBlock* block);

EtnsCycleStats etns_cycle_model_stats(const EtnsCycleModel* model);

#ifdef __cplusplus
}  // extern "C"
#endif
