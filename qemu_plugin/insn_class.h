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
//              LSLL, SQRSHR, ...), VLDR/VSTR of VPR and P0.
//   mve_load   MVE instructions that read memory (exactly mve and load):
//              VLDR{B,H,W,D} contiguous, widening and gather forms, VLD2x/
//              VLD4x, VLDR of VPR/P0.
//   mve_store  MVE instructions that write memory (exactly mve and store):
//              VSTR*, narrowing and scatter forms, VST2x/VST4x, VSTR of VPR/P0.
//   fp         an encoding of the Floating-point Extension (scalar S/D/H
//              registers): data processing, conversions, VLDR/VSTR/VLDM/VSTM/
//              VPUSH/VPOP, VMOV between core and FP registers (including the
//              32-bit lane moves, which exist without MVE), VMRS/VMSR,
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

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Indexes into every per-class counter array; the JSON lists classes in this
// order.
enum EtnsInsnClass {
  kEtnsClassTotal = 0,
  kEtnsClassMve,
  kEtnsClassMveLoad,
  kEtnsClassMveStore,
  kEtnsClassFp,
  kEtnsClassLoad,
  kEtnsClassStore,
  kEtnsClassBranch,
  kEtnsClassLoop,
  kEtnsClassCount,
};

// JSON names, indexed by EtnsInsnClass: "total", "mve", "mve_load", ...
extern const char* const kEtnsClassNames[kEtnsClassCount];

// Bit mask of (1u << EtnsInsnClass) for the instruction in `bytes`, memory
// order: a 16-bit instruction is one little-endian halfword; a 32-bit one is
// two, the first holding the high part of the encoding. `size_bytes` is 2 or
// 4; any other size returns total only.
uint32_t etns_classify_thumb(const uint8_t* bytes, size_t size_bytes);

// The same for an already assembled encoding: `hw` is a 16-bit instruction;
// `hw1`/`hw2` the first and second halfwords of a 32-bit one.
uint32_t etns_classify_t16(uint16_t hw);
uint32_t etns_classify_t32(uint16_t hw1, uint16_t hw2);

#ifdef __cplusplus
}  // extern "C"
#endif
