#pragma once

// Region ids of the counter test image, shared by regions.S, main.c and
// counter_test.cpp (which holds each region's expected counts). Marker 2r
// begins region r and marker 2r+1 ends it; each marker is `bx lr` padded to
// ETNS_TEST_MARKER_STRIDE bytes.

#define ETNS_TEST_MARKER_STRIDE 4
#define ETNS_TEST_MARKER_COUNT 48  // room for 24 regions

#define ETNS_TEST_REGION_EMPTY 0         // begin, then end: the call overhead
#define ETNS_TEST_REGION_SCALAR_LOOP 1   // movs r0, #100; 1: subs; bne 1b
#define ETNS_TEST_REGION_LOAD_STORE 2    // integer loads and stores, 10 iterations
#define ETNS_TEST_REGION_BRANCHES 3      // every kind of branch once
#define ETNS_TEST_REGION_MVE_LOOP 4      // dls/le over vldrw, vadd, vstrw
#define ETNS_TEST_REGION_MVE_TAIL 5      // wlstp/letp over 10 words
#define ETNS_TEST_REGION_MVE_MISC 6      // gathers, scatters, VLD2/VST4, VPT, ...
#define ETNS_TEST_REGION_SCALAR_FP 7     // VFP arithmetic, loads, stores, moves
#define ETNS_TEST_REGION_REPEATED 8      // three visits: loops of 1, 2, 3
#define ETNS_TEST_REGION_OUTER 9         // contains region 10
#define ETNS_TEST_REGION_INNER 10        // nested in region 9
#define ETNS_TEST_REGION_BIG_LOOP 11     // 10 million iterations
#define ETNS_TEST_REGION_END_ONLY 12     // an end without a begin
#define ETNS_TEST_REGION_BEGIN_TWICE 13  // begin, begin, then end: one visit
#define ETNS_TEST_REGION_NEVER_ENDED 14  // still open at exit
#define ETNS_TEST_REGION_PAGE_END 15     // loads that end 2 bytes before a 1 KiB page end
#define ETNS_TEST_REGION_GATHER 16       // every gather and scatter form, predicated ones too
#define ETNS_TEST_REGION_GATHER_TAIL 17  // a tail-predicated loop over a gather
// The cycle estimate's micro-loops (performance-anchors-cycles.md §2), each
// visited twice: 64 and 128 iterations.
#define ETNS_TEST_REGION_MICRO_LOAD2_MAC 18          // 2 VLDRB + VMLADAVA
#define ETNS_TEST_REGION_MICRO_LOAD_MAC4 19          // VLDRB + 4 VMLADAVA
#define ETNS_TEST_REGION_MICRO_ALTERNATE 20          // VLDRB, VMLADAVA, twice
#define ETNS_TEST_REGION_MICRO_LOAD_ADD_STORE 21     // VLDRW + VADD + VSTRW
#define ETNS_TEST_REGION_MICRO_TAIL_PREDICATED 22    // DLSTP/LETP VLDRB + VADD + VSTRB
#define ETNS_TEST_REGION_MICRO_SCALAR 23             // LDR, ADD, SUBS, BNE
#define ETNS_TEST_MICRO_SHORT 64
#define ETNS_TEST_MICRO_LONG 128

#define ETNS_TEST_BIG_LOOP_ITERATIONS 10000000
