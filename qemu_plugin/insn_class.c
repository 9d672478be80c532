#include "qemu_plugin/insn_class.h"

// Field names below follow the Armv8-M Architecture Reference Manual; bit
// numbers are within each halfword (hw1 = first, hw2 = second).

#define ETNS_BIT(c) (1u << (c))

enum {
  kTotal = ETNS_BIT(kEtnsClassTotal),
  kMve = ETNS_BIT(kEtnsClassMve),
  kFp = ETNS_BIT(kEtnsClassFp),
  kLoad = ETNS_BIT(kEtnsClassLoad),
  kStore = ETNS_BIT(kEtnsClassStore),
  kBranch = ETNS_BIT(kEtnsClassBranch),
  kLoop = ETNS_BIT(kEtnsClassLoop),
  kMveLoad = ETNS_BIT(kEtnsClassMveLoad),
  kMveStore = ETNS_BIT(kEtnsClassMveStore),
  kMveGather = ETNS_BIT(kEtnsClassMveGather),
  kMveScatter = ETNS_BIT(kEtnsClassMveScatter),
};

static unsigned bits(unsigned value, unsigned high, unsigned low) {
  return (value >> low) & ((1u << (high - low + 1)) - 1u);
}

uint32_t etns_classify_t16(uint16_t hw) {
  if ((hw >> 11) == 0x09) return kTotal | kLoad;             // LDR (literal)
  if ((hw >> 12) == 0x5) {                                   // load/store, register offset
    return kTotal | (bits(hw, 11, 9) < 3 ? kStore : kLoad);  // opB 0-2: STR, STRH, STRB
  }
  if ((hw >> 13) == 0x3 || (hw >> 12) == 0x8 || (hw >> 12) == 0x9) {
    // LDR/STR(B) immediate, LDRH/STRH immediate, LDR/STR SP-relative: L is bit 11.
    return kTotal | (bits(hw, 11, 11) ? kLoad : kStore);
  }
  if ((hw >> 10) == 0x11) {  // special data processing and branch/exchange
    const unsigned op = bits(hw, 9, 8);
    if (op == 3) return kTotal | kBranch;  // BX, BLX
    const unsigned rd = (bits(hw, 7, 7) << 3) | bits(hw, 2, 0);
    if ((op == 0 || op == 2) && rd == 15) return kTotal | kBranch;  // ADD PC / MOV PC
    return kTotal;
  }
  if ((hw >> 12) == 0xB) {                                 // miscellaneous
    if ((hw & 0xF500) == 0xB100) return kTotal | kBranch;  // CBZ, CBNZ
    if ((hw & 0xFE00) == 0xB400) return kTotal | kStore;   // PUSH
    if ((hw & 0xFE00) == 0xBC00) {                         // POP, with PC if bit 8
      return kTotal | kLoad | (bits(hw, 8, 8) ? kBranch : 0);
    }
    return kTotal;  // IT, hints, BKPT, CPS, extends, REV, SP arithmetic
  }
  if ((hw >> 12) == 0xC) return kTotal | (bits(hw, 11, 11) ? kLoad : kStore);  // LDM/STM
  if ((hw >> 12) == 0xD) {
    return kTotal | (bits(hw, 11, 8) < 0xE ? kBranch : 0);  // B<c>; 0xE UDF, 0xF SVC
  }
  if ((hw >> 11) == 0x1C) return kTotal | kBranch;  // B
  return kTotal;
}

// Load/store multiple, dual, exclusive, acquire/release, table branch (hw1 =
// 1110 100x xxxx xxxx).
static uint32_t classify_t32_ldst_multiple(uint16_t hw1, uint16_t hw2) {
  const unsigned load = bits(hw1, 4, 4);
  if (!bits(hw1, 6, 6)) {              // LDM/STM; SRS/RFE are A-profile only
    if (hw1 == 0xE89F) return kTotal;  // CLRM (the LDM encoding with Rn = PC)
    if (!load) return kTotal | kStore;
    return kTotal | kLoad | (bits(hw2, 15, 15) ? kBranch : 0);
  }
  const unsigned p = bits(hw1, 8, 8);
  const unsigned w = bits(hw1, 5, 5);
  if (p || w) {                                         // LDRD/STRD (immediate)
    if (hw1 == 0xE97F && hw2 == 0xE97F) return kTotal;  // SG
    return kTotal | (load ? kLoad : kStore);
  }
  const unsigned op1 = bits(hw1, 7, 7);
  if (!op1 && !load && bits(hw2, 15, 12) == 0xF) return kTotal;  // TT* (STREX with Rt = PC)
  if (op1 && load && (hw2 & 0xFFE0) == 0xF000) return kTotal | kLoad | kBranch;  // TBB, TBH
  return kTotal | (load ? kLoad : kStore);  // exclusives, LDA*/STL*
}

// Load/store single (hw1 = 1111 100x xxxx xxxx).
static uint32_t classify_t32_ldst_single(uint16_t hw1, uint16_t hw2) {
  const unsigned size = bits(hw1, 6, 5);
  if (size == 3) return kTotal;  // UNDEFINED
  if (!bits(hw1, 4, 4)) return bits(hw1, 8, 8) ? kTotal : kTotal | kStore;
  if (bits(hw2, 15, 12) == 15) {
    // Rt = PC: LDR is a branch; byte and halfword loads are PLD/PLI hints.
    return size == 2 ? kTotal | kLoad | kBranch : kTotal;
  }
  return kTotal | kLoad;
}

// Branches and miscellaneous control (hw1 = 1111 0xxx xxxx xxxx, hw2[15] = 1).
static uint32_t classify_t32_branch_misc(uint16_t hw1, uint16_t hw2) {
  const unsigned j1 = bits(hw2, 14, 14);
  const unsigned link_or_t4 = bits(hw2, 12, 12);
  if (link_or_t4) return kTotal | kBranch;  // B (T4), BL
  if (!j1) {
    // B<c> (T3), unless cond is 111x: MSR, MRS, hints, barriers, UDF.
    return kTotal | (bits(hw1, 9, 7) == 7 ? 0 : kBranch);
  }
  // hw2 = 11x0: M-profile low-overhead branches (BLX immediate is A-profile).
  if (!bits(hw2, 0, 0)) return kTotal;
  if (bits(hw1, 10, 7) != 0) return kTotal | kLoop;     // BF, BFX, BFL, BFLX, BFCSEL
  if (hw2 == 0xE801) return kTotal | kMve;              // VCTP
  if (hw2 == 0xE001) return kTotal | kLoop;             // DLS, DLSTP, LCTP
  if ((hw2 & 0xF001) == 0xC001) return kTotal | kLoop;  // WLS, WLSTP, LE, LETP
  return kTotal;
}

// True for the 32-bit lane moves that the Floating-point Extension defines
// without MVE (VMOV.32 Dd[x], Rt and VMOV.32 Rt, Dn[x]); the 8- and 16-bit
// forms and VDUP need MVE. hw2 is in coprocessor 11 space with bit 4 set.
static int is_fp_lane_move(uint16_t hw1, uint16_t hw2) {
  const unsigned to_core = bits(hw1, 4, 4);
  if (!to_core && bits(hw1, 7, 7)) return 0;  // VDUP
  // opc1 = hw1[6:5] (bit 5 is the index for .32), opc2 = hw2[6:5]; U = hw1[7].
  return !bits(hw1, 7, 7) && !bits(hw1, 6, 6) && bits(hw2, 6, 5) == 0;
}

// Coprocessor space, hw1 = 111x 11xx xxxx xxxx: FP, MVE and custom coprocessors.
static uint32_t classify_t32_coprocessor(uint16_t hw1, uint16_t hw2) {
  const unsigned op = bits(hw1, 9, 8);  // 00, 01: 110P; 10: 1110; 11: 1111
  const unsigned cp = bits(hw2, 11, 8);
  const int fp_cp = cp == 9 || cp == 10 || cp == 11;  // half, single, double
  const int mve_cp = cp == 14 || cp == 15;
  if (op == 3) return kTotal | kMve;  // 111x 1111: vector data processing
  if (op == 2) {                      // 111x 1110: data processing, core transfers
    if (fp_cp) {
      if (cp == 11 && bits(hw2, 4, 4) && !is_fp_lane_move(hw1, hw2)) return kTotal | kMve;
      // VMRS/VMSR (hw1 = 1110 1110 111L reg, hw2 = Rt 1010 0001 0000) of VPR
      // (reg 1100) and P0 (1101): those registers exist only with MVE.
      if ((hw1 & 0xFFEE) == 0xEEEC && (hw2 & 0x0FFF) == 0x0A10) return kTotal | kMve;
      return kTotal | kFp;
    }
    return kTotal | (mve_cp ? kMve : 0);
  }
  // 111x 110x: extension register loads/stores and 64-bit transfers. P=U=W=0 is
  // the transfer group (VMOV two registers, MCRR); everything else moves memory.
  const unsigned p = bits(hw1, 8, 8);
  const unsigned u = bits(hw1, 7, 7);
  const unsigned w = bits(hw1, 5, 5);
  const unsigned load = bits(hw1, 4, 4);
  const int memory = p || u || w;
  if (fp_cp) {
    if ((hw1 & 0xFFBF) == 0xEC9F) return kTotal | kFp;  // VSCCLRM
    if (!memory) return kTotal | kFp;                   // VMOV Rt, Rt2 <-> Dm / Sm, Sm+1
    return kTotal | kFp | (load ? kLoad : kStore);
  }
  if (mve_cp) {
    if (!memory) return kTotal | kMve;  // VMOV two lanes <-> two core registers
    if ((hw2 & 0x1F80) == 0x0F80 && (p || w)) {
      // VLDR/VSTR (System Register); P=0 W=0 here is a gather/scatter instead.
      const unsigned reg = (bits(hw1, 6, 6) << 3) | bits(hw2, 15, 13);
      const uint32_t ext = (reg == 0xC || reg == 0xD) ? kMve : kFp;  // VPR, P0
      return kTotal | ext | (load ? kLoad : kStore);
    }
    return kTotal | kMve | (load ? kLoad : kStore);
  }
  if (cp == 8 && bits(hw1, 12, 12)) return kTotal | kMve;  // VCADD, VCMLA (float)
  return kTotal;  // custom coprocessors 0-7 (CDE, LDC/STC, MCRR), unallocated
}

// VLDR/VSTR{B,H,W,D} with vector offsets, [Rn, Qm{, UXTW #os}]: hw1 =
// 111U 1100 1D0L Rn (P=0 W=0: not a widening or narrowing form; stores have
// U=0), hw2 = Qd 0111 size msize(bits 6, 4) M Qm os, where size (bits 8:7)
// is the offset and element lane size. With a vector base, [Qm, #imm]{!}:
// hw1 = 1111 1101 AD W L Qm 0, hw2 = Qd 1111 (0 W, 1 D) imm7; the contiguous
// VLDR/VSTR that share this hw2 have hw1 bit 12 clear, and VLD2x/VLD4x have
// hw1 = 1111 1100.
uint32_t etns_gather_scatter_lanes_t32(uint16_t hw1, uint16_t hw2) {
  const int load = bits(hw1, 4, 4);
  if ((hw1 & 0xEFA0) == 0xEC80 && (hw2 & 0x1E00) == 0x0E00 && (load || !bits(hw1, 12, 12))) {
    return 16u >> bits(hw2, 8, 7);
  }
  if ((hw1 & 0xFF01) == 0xFD00 && (hw2 & 0x1E00) == 0x1E00) return bits(hw2, 8, 8) ? 2u : 4u;
  return 0;
}

// The MVE long shifts take the ORR (shifted register) encodings with Rm = SP
// or PC, which are UNPREDICTABLE as ORR (QEMU's t32.decode). hw1 = 1110 1010
// 0101 xxxx with hw2 bit 8 set; bits 11:9 = 111 are the one-register forms
// (SQRSHR, UQRSHL, SQSHL, ...), anything else a register pair (ASRL, LSLL,
// ...). A shift amount in a register (Rm = hw2 bits 15:12, any register) ends
// in 1101; an immediate one ends in 1111 and keeps ORR's hw2 bit 15 = 0.
static int is_mve_long_shift(uint16_t hw1, uint16_t hw2) {
  if ((hw1 & 0xFFF0) != 0xEA50 || !bits(hw2, 8, 8)) return 0;
  const int one_register = bits(hw2, 11, 9) == 7;
  const int saturating_pair = bits(hw1, 0, 0);  // UQSHLL, SQRSHRL, ... (RdaLo is even)
  const unsigned op = bits(hw2, 7, 4);
  if (bits(hw2, 3, 0) == 0xF) {  // ASRL, LSLL, LSRL, UQSHLL, ..., UQSHL, SQSHL, URSHR, SRSHR
    if (bits(hw2, 15, 15)) return 0;
    return one_register || saturating_pair || bits(op, 1, 0) != 3;
  }
  if (bits(hw2, 3, 0) == 0xD) {  // LSLL, ASRL, UQRSHLL, SQRSHRL (64 and 48), UQRSHL, SQRSHR
    if (op == 0x0 || op == 0x2) return 1;
    return (op == 0x8 || op == 0xA) && saturating_pair;
  }
  return 0;
}

uint32_t etns_classify_t32(uint16_t hw1, uint16_t hw2) {
  if ((hw1 & 0xEC00) == 0xEC00) {
    // mve_load and mve_store are exactly the MVE loads and stores.
    const uint32_t mask = classify_t32_coprocessor(hw1, hw2);
    if (!(mask & kMve)) return mask;
    const int gather_or_scatter = etns_gather_scatter_lanes_t32(hw1, hw2) != 0;
    if (mask & kLoad) return mask | kMveLoad | (gather_or_scatter ? kMveGather : 0);
    if (mask & kStore) return mask | kMveStore | (gather_or_scatter ? kMveScatter : 0);
    return mask;
  }
  if ((hw1 & 0xFE00) == 0xE800) return classify_t32_ldst_multiple(hw1, hw2);
  if ((hw1 & 0xFE00) == 0xF800) return classify_t32_ldst_single(hw1, hw2);
  if ((hw1 & 0xF800) == 0xF000 && bits(hw2, 15, 15)) return classify_t32_branch_misc(hw1, hw2);
  if (is_mve_long_shift(hw1, hw2)) return kTotal | kMve;
  return kTotal;  // data processing, multiply, divide, CSEL and friends
}

static uint16_t halfword_at(const uint8_t* bytes) { return (uint16_t)(bytes[0] | (bytes[1] << 8)); }

size_t etns_thumb_length(const uint8_t* bytes, size_t size_bytes) {
  if (size_bytes < 2) return 0;
  // 11101, 11110 and 11111 in the top bits of the first halfword open a 32-bit instruction.
  const size_t length = (halfword_at(bytes) >> 11) >= 0x1D ? 4 : 2;
  return size_bytes >= length ? length : 0;
}

uint32_t etns_classify_thumb(const uint8_t* bytes, size_t size_bytes) {
  switch (etns_thumb_length(bytes, size_bytes)) {
    case 2: return etns_classify_t16(halfword_at(bytes));
    case 4: return etns_classify_t32(halfword_at(bytes), halfword_at(bytes + 2));
    default: return kTotal;
  }
}

uint32_t etns_weight_thumb(const uint8_t* bytes, size_t size_bytes) {
  if (etns_thumb_length(bytes, size_bytes) != 4) return 1;
  const uint32_t lanes = etns_gather_scatter_lanes_t32(halfword_at(bytes), halfword_at(bytes + 2));
  return lanes ? lanes : 1;
}
