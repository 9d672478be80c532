#pragma once

// Classifies one Armv8.1-M Thumb instruction (Cortex-M55: Thumb-2, FPv5 with
// FP16, MVE integer and float, low-overhead branches) from its encoding.
// Pure function, no state, C and C++; the QEMU counter calls it once per
// instruction at translation time.
//
// An instruction is in `total` and in every other class that applies:
//   mve        an encoding that exists only with MVE (Helium): vector data
//              processing, vector loads/stores, VPT/VPST/VCTP, VDUP, 8- and
//              16-bit lane moves, two-lane moves, the MVE long shifts (ASRL,
//              LSLL, SQRSHR, ...), VLDR/VSTR and VMRS/VMSR of VPR and P0.
//   mve_load   MVE instructions that read memory (exactly mve and load):
//              VLDR{B,H,W,D} contiguous, widening and gather forms, VLD2x/
//              VLD4x, VLDR of VPR/P0.
//   mve_store  MVE instructions that write memory (exactly mve and store):
//              VSTR*, narrowing and scatter forms, VST2x/VST4x, VSTR of VPR/P0.
//   mve_gather the MVE loads that read each lane from its own address (a
//              subset of mve_load): VLDR{B,H,W,D} with vector offsets
//              ([Rn, Qm]) or a vector base ([Qm, #imm]).
//   mve_scatter the MVE stores that write each lane to its own address (a
//              subset of mve_store): VSTR{B,H,W,D} [Rn, Qm] and [Qm, #imm].
//   fp         an encoding of the Floating-point Extension (scalar S/D/H
//              registers): data processing, conversions, VLDR/VSTR/VLDM/VSTM/
//              VPUSH/VPOP, VMOV between core and FP registers (including the
//              32-bit lane moves, which exist without MVE), VMRS/VMSR
//              (except of VPR and P0, which are mve),
//              VLDR/VSTR of FPSCR/FPCXT, VSCCLRM, VLLDM/VLSTM. When both
//              extensions define an encoding it counts as fp, never mve.
//   load       every instruction that reads data memory: integer LDR*/LDM/POP/
//              LDRD/LDREX/LDA*, TBB/TBH (they read the table), and the fp and
//              mve loads. Preload hints (PLD, PLI) are not loads.
//   store      every instruction that writes data memory: STR*/STM/PUSH/STRD/
//              STREX/STL*, and the fp and mve stores.
//   branch     B, B<c>, BL, BX, BLX, CBZ/CBNZ, TBB/TBH, and writes to the PC
//              (POP/LDM with PC, LDR PC, MOV PC/ADD PC). Conditional ones
//              count whether or not they are taken.
//   loop       the low-overhead-branch extension: WLS, DLS, WLSTP, DLSTP, LE,
//              LETP, LCTP and the branch-future instructions (BF, BFX, BFL,
//              BFLX, BFCSEL). These are never in `branch`.
// Instructions outside all classes (integer arithmetic, IT, hints, SVC, BKPT,
// custom-coprocessor and CDE encodings) count only in total.
//
// Encodings follow QEMU's own Armv8.1-M decoders (t16/t32/vfp/mve.decode),
// so the counts describe what the emulator executes.
//
// Besides the classes, each instruction has a weight (etns_weight_thumb): the
// lanes of a gather or scatter, 1 for everything else. A gather or scatter
// makes one memory access per lane where a contiguous VLDR/VSTR makes one
// for the whole vector, so the summed weight shows what they cost that an
// instruction count hides. Lanes = 128 bits / the lane size of the vector
// register (the offset lanes of [Rn, Qm], the base lanes of [Qm, #imm]):
// VLDRB.U32 4, VLDRB.U16 8, VLDRB.U8 16, VLDRH.32 4, VLDRH.16 8, VLDRW 4,
// VLDRD 2, and the same for VSTR. Every lane counts, whether or not VPT
// or tail predication disables it: like the classes, the weight is a
// property of the encoding, and QEMU, like a core, issues the instruction
// whatever the predicate. It is a count, not cycles.

#include <stddef.h>
#include <stdint.h>

#include "protocol/counter_classes.h"

#ifdef __cplusplus
extern "C" {
#endif

// The classes and their JSON names: protocol/counter_classes.h.

// The length of the instruction that starts at `bytes` (2 or 4, from its
// first halfword), or 0 when `size_bytes` does not hold all of it.
size_t etns_thumb_length(const uint8_t* bytes, size_t size_bytes);

// Bit mask of (1u << EtnsInsnClass) for the instruction that starts at
// `bytes`, memory order: a 16-bit instruction is one little-endian halfword;
// a 32-bit one is two, the first holding the high part of the encoding.
// Bytes past the instruction are ignored: QEMU 7.2 appends the next halfword
// to an instruction that ends 2 bytes before a page end (it reads it to decide
// whether the next instruction crosses the page), so its plugin API reports
// 4 or 6 bytes for a 2- or 4-byte instruction there. Too few bytes for the
// instruction: total only.
uint32_t etns_classify_thumb(const uint8_t* bytes, size_t size_bytes);

// The instruction's weight (see above): the lanes of a gather or scatter,
// otherwise 1. Same bytes as etns_classify_thumb.
uint32_t etns_weight_thumb(const uint8_t* bytes, size_t size_bytes);

// The same for an already assembled encoding: `hw` is a 16-bit instruction;
// `hw1`/`hw2` the first and second halfwords of a 32-bit one.
uint32_t etns_classify_t16(uint16_t hw);
uint32_t etns_classify_t32(uint16_t hw1, uint16_t hw2);

// The lanes of a gather or scatter (2, 4, 8 or 16); 0 for any other encoding.
uint32_t etns_gather_scatter_lanes_t32(uint16_t hw1, uint16_t hw2);

#ifdef __cplusplus
}  // extern "C"
#endif
