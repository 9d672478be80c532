// The marker table and the measured regions of the counter test image. Each
// region is hand-written so that its instruction counts are known exactly;
// the comment before it gives them, and counter_test.cpp asserts them. A
// visit counts everything after the begin marker's `bx lr` up to and
// including the `bl` into the end marker (see etns_counter.c).

#include "qemu_plugin/test/regions.h"

  .syntax unified
  .thumb

// Marker i is at etns_marker_table + i * ETNS_TEST_MARKER_STRIDE.
  .section .etns_markers, "ax", %progbits
  .balign ETNS_TEST_MARKER_STRIDE
  .global etns_marker_table
  .type etns_marker_table, %function
  .thumb_func
etns_marker_table:
  .rept ETNS_TEST_MARKER_COUNT
  bx lr
  .balign ETNS_TEST_MARKER_STRIDE
  .endr
  .size etns_marker_table, . - etns_marker_table
  .global etns_marker_table_end
etns_marker_table_end:

// One `bl` each; the caller saves lr.
.macro REGION_BEGIN id
  bl etns_marker_table + (2 * (\id)) * ETNS_TEST_MARKER_STRIDE
.endm
.macro REGION_END id
  bl etns_marker_table + (2 * (\id) + 1) * ETNS_TEST_MARKER_STRIDE
.endm

.macro FUNCTION name
  .text
  .balign 4
  .global \name
  .type \name, %function
  .thumb_func
\name:
.endm

// total 1, branch 1: the bl into the end marker.
FUNCTION etns_test_empty
  push {r4, lr}
  REGION_BEGIN ETNS_TEST_REGION_EMPTY
  REGION_END ETNS_TEST_REGION_EMPTY
  pop {r4, pc}

// total 1 + 2 * 100 + 1 = 202, branch 100 + 1 = 101.
FUNCTION etns_test_scalar_loop
  push {r4, lr}
  REGION_BEGIN ETNS_TEST_REGION_SCALAR_LOOP
  movs r0, #100
1:
  subs r0, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_SCALAR_LOOP
  pop {r4, pc}

// r0 = a 64-byte buffer. 10 iterations of 14 instructions (6 loads, 5
// stores, 1 branch, and a PLD hint that is neither):
// total 1 + 140 + 1 = 142, load 60, store 50, branch 10 + 1 = 11.
FUNCTION etns_test_load_store
  push {r4-r6, lr}
  mov r1, r0
  REGION_BEGIN ETNS_TEST_REGION_LOAD_STORE
  movs r0, #10
1:
  ldr r2, [r1]
  ldrb r3, [r1, #1]
  str r2, [r1, #4]
  strh r3, [r1, #8]
  ldrd r4, r5, [r1, #16]
  strd r4, r5, [r1, #24]
  ldm r1, {r2, r3}
  stm r1, {r2, r3}
  push {r2, r3}
  pop {r2, r3}
  ldr.w r2, [r1, r0, lsl #2]
  pld [r1]
  subs r0, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_LOAD_STORE
  pop {r4-r6, pc}

// Leaf functions called from the branches region.
FUNCTION etns_test_leaf_bx
  bx lr
FUNCTION etns_test_leaf_pop_pc
  push {lr}
  pop {pc}
FUNCTION etns_test_leaf_ldr_pc
  push {lr}
  ldr pc, [sp], #4

// 22 instructions, marked B (branch), L (load), S (store):
// total 22, branch 13, load 4, store 2.
FUNCTION etns_test_branches
  push {r4-r6, lr}
  REGION_BEGIN ETNS_TEST_REGION_BRANCHES
  movs r0, #0
  cbz r0, 1f                      // B, taken
  nop                             // skipped
1:
  movs r0, #1
  tbb [pc, r0]                    // B L; its table follows
2:
  .byte (3f - 2b) / 2
  .byte (3f - 2b) / 2
  .balign 2
3:
  ldr r2, =etns_test_leaf_bx      // L (literal)
  blx r2                          // B, then the leaf's bx lr: B
  bl etns_test_leaf_pop_pc        // B, then push (S) and pop {pc} (L B)
  bl etns_test_leaf_ldr_pc        // B, then push (S) and ldr pc (L B)
  adr r3, 4f
  mov pc, r3                      // B
  .balign 4
4:
  b 5f                            // B
  nop                             // skipped
5:
  cmp r0, #1
  beq 6f                          // B, taken
6:
  bne 7f                          // B, not taken
7:
  it eq
  moveq r4, #0
  REGION_END ETNS_TEST_REGION_BRANCHES  // B
  pop {r4-r6, pc}
  .ltorg

// r0 = 32 source words, r1 = 32 destination words (16-byte aligned); each
// destination word becomes twice its source. 8 iterations of 4 instructions:
// total 1 + 1 + 32 + 1 = 35, mve 24, mve_load 8, mve_store 8, load 8,
// store 8, loop 1 + 8 = 9 (DLS, LE per iteration), branch 1.
FUNCTION etns_test_mve_loop
  push {r4-r6, lr}
  mov r2, r0
  mov r3, r1
  REGION_BEGIN ETNS_TEST_REGION_MVE_LOOP
  movs r0, #8
  dls lr, r0
1:
  vldrw.u32 q0, [r2], #16
  vadd.i32 q1, q0, q0
  vstrw.32 q1, [r3], #16
  le lr, 1b
  REGION_END ETNS_TEST_REGION_MVE_LOOP
  pop {r4-r6, pc}

// Copies 10 words from r0 to r1 with a tail-predicated loop: 3 iterations,
// the last with 2 active lanes, so destination words 10 and 11 stay as they
// were. total 1 + 1 + 9 + 1 = 12, mve 6, mve_load 3, mve_store 3, load 3,
// store 3, loop 1 + 3 = 4 (WLSTP, LETP per iteration), branch 1.
FUNCTION etns_test_mve_tail
  push {r4-r6, lr}
  mov r2, r0
  mov r3, r1
  REGION_BEGIN ETNS_TEST_REGION_MVE_TAIL
  movs r0, #10
  wlstp.32 lr, r0, 2f
1:
  vldrw.u32 q0, [r2], #16
  vstrw.32 q0, [r3], #16
  letp lr, 1b
2:
  REGION_END ETNS_TEST_REGION_MVE_TAIL
  pop {r4-r6, pc}

// r0 = a 256-byte buffer, 16-byte aligned. 24 instructions plus the bl:
// total 25, mve 21, mve_load 6, mve_store 4, fp 3, load 7, store 4, branch 1.
FUNCTION etns_test_mve_misc
  push {r4-r6, lr}
  mov r1, r0
  add r2, r0, #128
  REGION_BEGIN ETNS_TEST_REGION_MVE_MISC
  vmov.i32 q0, #0                  // mve
  vldrb.u8 q1, [r1]                // mve load
  vldrb.s32 q2, [r1]               // mve load, widening
  vstrh.32 q2, [r2]                // mve store, narrowing
  vld20.32 {q2, q3}, [r1]          // mve load, deinterleaving
  vld21.32 {q2, q3}, [r1]          // mve load
  vst40.8 {q4, q5, q6, q7}, [r2]   // mve store, interleaving
  vldrw.u32 q1, [r1, q0]           // mve load, gather (offsets 0)
  vstrw.32 q1, [r2, q0]            // mve store, scatter
  vdup.32 q3, r1                   // mve
  vldrw.u32 q4, [q3, #8]           // mve load, gather from vector base
  vstrw.32 q4, [q3, #16]           // mve store, scatter to vector base
  vpt.i32 eq, q0, q0               // mve
  vaddt.i32 q1, q1, q1             // mve
  vmladav.s32 r4, q1, q1           // mve
  asrl r4, r5, #3                  // mve (long shift)
  vctp.32 r4                       // mve
  vmov.16 q0[1], r4                // mve (16-bit lane)
  vmov r4, r5, q0[2], q0[0]        // mve (two lanes)
  vmrs r6, p0                      // mve (P0 and VPR exist only with MVE)
  vmsr p0, r6                      // mve
  vmov.32 q0[1], r4                // fp (32-bit lane move exists without MVE)
  vmov r6, s1                      // fp
  vldr s4, [r1]                    // fp load
  REGION_END ETNS_TEST_REGION_MVE_MISC
  pop {r4-r6, pc}

// r0 = a 128-byte buffer. 20 instructions plus the bl:
// total 21, fp 20, load 5, store 4, branch 1.
FUNCTION etns_test_scalar_fp
  push {r4-r6, lr}
  mov r1, r0
  add r2, r0, #64
  REGION_BEGIN ETNS_TEST_REGION_SCALAR_FP
  vmov.f32 s0, #1.0
  vadd.f32 s1, s0, s0
  vmul.f32 s2, s1, s0
  vadd.f16 s3, s0, s0
  vcvt.s32.f32 s4, s2
  vcmp.f32 s0, s1
  vmrs APSR_nzcv, fpscr
  vmaxnm.f32 s5, s0, s1
  vldr s6, [r1]                    // load
  vstr s2, [r2]                    // store
  vldr d4, [r1, #8]                // load
  vstr d4, [r2, #8]                // store
  vldr.16 s7, [r1]                 // load
  vpush {s0-s3}                    // store
  vpop {s0-s3}                     // load
  vldmia r1, {s8-s11}              // load
  vstmia r2, {s8-s11}              // store
  vmov r4, r5, d0
  vmov s12, r4
  vadd.f64 d7, d4, d4
  REGION_END ETNS_TEST_REGION_SCALAR_FP
  pop {r4-r6, pc}

// r0 = n >= 1 iterations: total 2n + 1, branch n + 1.
FUNCTION etns_test_repeated
  push {r4, lr}
  mov r4, r0
  REGION_BEGIN ETNS_TEST_REGION_REPEATED
1:
  subs r4, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_REPEATED
  pop {r4, pc}

// Inner: 3 iterations, total 6 + 1 = 7, branch 3 + 1 = 4. Outer adds the movs,
// the inner markers' bl and bx lr pairs, and its own bl: total 12, branch 8.
FUNCTION etns_test_nested
  push {r4, lr}
  REGION_BEGIN ETNS_TEST_REGION_OUTER
  movs r0, #3
  REGION_BEGIN ETNS_TEST_REGION_INNER
1:
  subs r0, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_INNER
  REGION_END ETNS_TEST_REGION_OUTER
  pop {r4, pc}

// total 2 + 2 * N + 1, branch N + 1, for N = ETNS_TEST_BIG_LOOP_ITERATIONS.
FUNCTION etns_test_big_loop
  push {r4, lr}
  REGION_BEGIN ETNS_TEST_REGION_BIG_LOOP
  movw r0, #:lower16:ETNS_TEST_BIG_LOOP_ITERATIONS
  movt r0, #:upper16:ETNS_TEST_BIG_LOOP_ITERATIONS
1:
  subs r0, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_BIG_LOOP
  pop {r4, pc}

// Unbalanced markers: an end alone (no visit), a begin repeated before its
// end (one visit from the second begin: total 2, branch 1), and a begin
// never ended (no visit). Each counts once in "unbalanced".
FUNCTION etns_test_unbalanced
  push {r4, lr}
  REGION_END ETNS_TEST_REGION_END_ONLY
  REGION_BEGIN ETNS_TEST_REGION_BEGIN_TWICE
  REGION_BEGIN ETNS_TEST_REGION_BEGIN_TWICE
  nop
  REGION_END ETNS_TEST_REGION_BEGIN_TWICE
  REGION_BEGIN ETNS_TEST_REGION_NEVER_ENDED
  pop {r4, pc}

// Loads that end 2 bytes before a page end (QEMU's M-profile pages are
// 1 KiB). There QEMU 7.2 reads the page's last halfword to see whether the
// next instruction crosses the page, and hands it to the plugin as part of
// the instruction before: 6 bytes for a 32-bit one, 4 for a 16-bit one. Each
// load is inside a translation block; the branches skip the padding.
// r0 = a 64-byte buffer. Marked B (branch), L (load), M (mve):
// total 13, load 6, branch 4, mve 2, mve_load 1, mve_gather 1, and weighted
// 13 + (4 - 1) = 16 for the 4-lane gather.
FUNCTION etns_test_page_end
  push {r4, lr}
  mov r1, r0
  REGION_BEGIN ETNS_TEST_REGION_PAGE_END
  b 1f                            // B
  .balign 1024
  .space 1024 - 8                 // never executed
1:
  movs r2, #0                     // page end - 8
  ldr.w r2, [r1, #4]              // L, 32-bit, ends at page end - 2: 6 bytes
  ldr r3, [r1]                    // L, the page's last halfword, last in its block
  b 2f                            // B
  .balign 1024
  .space 1024 - 6
2:
  movs r2, #0                     // page end - 6
  ldr r2, [r1]                    // L, 16-bit, ends at page end - 2: 4 bytes
  ldr.w r3, [r1, #8]              // L, across the page end: opens a block
  b 3f                            // B
  .balign 1024
  .space 1024 - 10
3:
  vmov.i32 q0, #0                 // M, page end - 10
  vldrw.u32 q1, [r1, q0]          // M L, gather of 4 lanes, ends at page end - 2
  ldr r3, [r1]                    // L
  REGION_END ETNS_TEST_REGION_PAGE_END  // B
  pop {r4, pc}

// Every gather and scatter form once, with offsets 0 (every lane of a gather
// reads the first element, every lane of a scatter writes it) and then from
// a vector base. Each counts once in total and once per lane in weighted,
// predicated lanes included (the VPT below disables every lane of its gather).
// r0 = a 256-byte buffer, 16-byte aligned; the stores go to its second half.
// 24 instructions plus the bl: total 25, mve 24, mve_load 10, mve_store 10,
// mve_gather 10, mve_scatter 10, load 10, store 10, branch 1. Gather lanes
// 16+8+4+8+4+4+2 + 4+2 + 4 = 56, scatter lanes the same: weighted
// 25 + (56 - 10) + (56 - 10) = 117.
FUNCTION etns_test_gather
  push {r4-r6, lr}
  mov r1, r0
  add r2, r0, #128
  REGION_BEGIN ETNS_TEST_REGION_GATHER
  vmov.i32 q0, #0                  // mve
  vldrb.u8 q1, [r1, q0]            // gather, 16 lanes
  vldrb.s16 q1, [r1, q0]           // 8
  vldrb.u32 q1, [r1, q0]           // 4
  vldrh.u16 q1, [r1, q0, uxtw #1]  // 8
  vldrh.s32 q1, [r1, q0]           // 4
  vldrw.u32 q1, [r1, q0, uxtw #2]  // 4
  vldrd.u64 q1, [r1, q0]           // 2
  vstrb.8 q1, [r2, q0]             // scatter, 16 lanes
  vstrb.16 q1, [r2, q0]            // 8
  vstrb.32 q1, [r2, q0]            // 4
  vstrh.16 q1, [r2, q0]            // 8
  vstrh.32 q1, [r2, q0, uxtw #1]   // 4
  vstrw.32 q1, [r2, q0]            // 4
  vstrd.64 q1, [r2, q0, uxtw #3]   // 2
  vdup.32 q3, r2                   // mve: every lane holds the base r2
  vldrw.u32 q4, [q3, #8]           // gather, 4 lanes
  vldrd.u64 q4, [q3, #16]          // 2
  vstrw.32 q4, [q3, #24]           // scatter, 4 lanes
  vstrd.64 q4, [q3, #32]!          // 2, and q3 += 32
  vpt.i32 ne, q0, q0               // mve: every lane false
  vldrwt.u32 q1, [r1, q0]          // gather, 4 lanes, all predicated off
  vpst                             // mve
  vstrwt.32 q1, [r2, q0]           // scatter, 4 lanes
  REGION_END ETNS_TEST_REGION_GATHER
  pop {r4-r6, pc}

// A tail-predicated loop over 6 words: 2 iterations, the second with 2
// active lanes, whose gather and scatter still weigh 4 lanes each.
// r0 = a 256-byte buffer. total 1 + 2 + 2 * 3 + 1 = 10, mve 1 + 2 * 2 = 5,
// mve_load, mve_store, mve_gather, mve_scatter, load, store 2 each, loop
// 1 + 2 = 3 (DLSTP, LETP per iteration), branch 1; weighted 10 + 4 * 3 = 22.
FUNCTION etns_test_gather_tail
  push {r4-r6, lr}
  mov r1, r0
  add r2, r0, #128
  REGION_BEGIN ETNS_TEST_REGION_GATHER_TAIL
  vmov.i32 q0, #0
  movs r3, #6
  dlstp.32 lr, r3
1:
  vldrw.u32 q1, [r1, q0]
  vstrw.32 q1, [r2, q0]
  letp lr, 1b
  REGION_END ETNS_TEST_REGION_GATHER_TAIL
  pop {r4-r6, pc}

// The micro-loops of the cycle estimate's validation
// (shared/spec/performance-anchors-cycles.md §2), each a function of
// (r0 = iterations, r1 = a 16-byte-aligned buffer of at least 16 bytes per
// iteration), called with 64 and with 128 iterations: the cycles the second
// visit adds are 64 times the loop's cycles per iteration, which the M55's
// timing facts give by hand (comment before each). Instruction counts per
// visit, for n iterations, are in the comments too (the `bl` into the end
// marker included; DLS/DLSTP and LE/LETP count as loop, LE not as branch).

// 2 VLDRB + VMLADAVA: 4 cycles (two loads on the load/store pipe, 2 beats
// each; the MAC overlaps the second load's beats).
// total 4n + 2, mve 3n, mve_load 2n, load 2n, loop n + 1, branch 1.
FUNCTION etns_test_micro_load2_mac
  push {r4-r6, lr}
  mov r4, r0
  mov r5, r1
  add r6, r1, #16
  REGION_BEGIN ETNS_TEST_REGION_MICRO_LOAD2_MAC
  dls lr, r4
1:
  vldrb.u8 q0, [r5], #16
  vldrb.u8 q1, [r6]
  vmladava.s8 r2, q0, q1
  le lr, 1b
  REGION_END ETNS_TEST_REGION_MICRO_LOAD2_MAC
  pop {r4-r6, pc}

// VLDRB + 4 VMLADAVA into one accumulator: 8 cycles (four MACs in a row on
// the multiply pipe cannot overlap: 2 cycles each).
// total 6n + 2, mve 5n, mve_load n, load n, loop n + 1, branch 1.
FUNCTION etns_test_micro_load_mac4
  push {r4-r6, lr}
  mov r4, r0
  mov r5, r1
  REGION_BEGIN ETNS_TEST_REGION_MICRO_LOAD_MAC4
  dls lr, r4
1:
  vldrb.u8 q0, [r5], #16
  vmladava.s8 r2, q0, q1
  vmladava.s8 r2, q0, q1
  vmladava.s8 r2, q0, q1
  vmladava.s8 r2, q0, q1
  le lr, 1b
  REGION_END ETNS_TEST_REGION_MICRO_LOAD_MAC4
  pop {r4-r6, pc}

// VLDRB, VMLADAVA, VLDRB, VMLADAVA: 4 cycles (load and MAC alternate pipes,
// one instruction per cycle).
// total 5n + 2, mve 4n, mve_load 2n, load 2n, loop n + 1, branch 1.
FUNCTION etns_test_micro_alternate
  push {r4-r6, lr}
  mov r4, r0
  mov r5, r1
  add r6, r1, #16
  REGION_BEGIN ETNS_TEST_REGION_MICRO_ALTERNATE
  dls lr, r4
1:
  vldrb.u8 q0, [r5], #16
  vmladava.s8 r2, q0, q1
  vldrb.u8 q2, [r6]
  vmladava.s8 r2, q2, q1
  le lr, 1b
  REGION_END ETNS_TEST_REGION_MICRO_ALTERNATE
  pop {r4-r6, pc}

// VLDRW + VADD + VSTRW, in place: 4 cycles (load and store share a pipe).
// total 4n + 2, mve 3n, mve_load n, mve_store n, load n, store n,
// loop n + 1, branch 1.
FUNCTION etns_test_micro_load_add_store
  push {r4-r6, lr}
  mov r4, r0
  mov r5, r1
  REGION_BEGIN ETNS_TEST_REGION_MICRO_LOAD_ADD_STORE
  dls lr, r4
1:
  vldrw.u32 q0, [r5]
  vadd.i32 q1, q0, q0
  vstrw.32 q1, [r5], #16
  le lr, 1b
  REGION_END ETNS_TEST_REGION_MICRO_LOAD_ADD_STORE
  pop {r4-r6, pc}

// DLSTP/LETP over 16 n bytes, VLDRB + VADD + VSTRB: 4 cycles.
// total 4n + 2, mve 3n, mve_load n, mve_store n, load n, store n,
// loop n + 1, branch 1.
FUNCTION etns_test_micro_tail_predicated
  push {r4-r6, lr}
  lsls r4, r0, #4
  mov r5, r1
  REGION_BEGIN ETNS_TEST_REGION_MICRO_TAIL_PREDICATED
  dlstp.8 lr, r4
1:
  vldrb.u8 q0, [r5]
  vadd.i8 q1, q0, q0
  vstrb.8 q1, [r5], #16
  letp lr, 1b
  REGION_END ETNS_TEST_REGION_MICRO_TAIL_PREDICATED
  pop {r4-r6, pc}

// LDR, ADD, SUBS, BNE: 5 cycles (the load's result feeds the add, and the
// taken BNE is not folded) plus the taken branch's 3.
// total 4n + 1, load n, branch n + 1.
FUNCTION etns_test_micro_scalar
  push {r4-r6, lr}
  mov r4, r0
  mov r5, r1
  movs r3, #0
  REGION_BEGIN ETNS_TEST_REGION_MICRO_SCALAR
1:
  ldr r2, [r5], #4
  adds r3, r3, r2
  subs r4, r4, #1
  bne 1b
  REGION_END ETNS_TEST_REGION_MICRO_SCALAR
  pop {r4-r6, pc}
