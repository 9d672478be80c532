// Helium variant "mve_3x3" of cortex_m::quantized_conv2d.out (conv2d.h) for
// 3x3 filters at stride 1 without dilation, one group, 16 to 64 input channels
// in whole vectors and at most 64 output channels (the Tier-1 convolution,
// ResNet-8's 3x3 stride-1 layers), bit-exact with conv2d_s8_ref
// (docs/numerics.md#conv2d). Any other shape goes to conv2d_s8_mve_gemm.
//
// Blocking: four adjacent output pixels of one row times two output channels,
// eight accumulators held in general registers (VMLADAVA's must be even:
// r0, r2, ..., r12 and lr) across all 9 taps and every 16-channel slice. Per
// filter row and slice the six input columns the four pixels' taps cover are
// loaded once and each serves up to three (pixel, tap) pairs of both channels:
// 6 input loads + 6 weight loads + 24 VMLADAVA, each load placed between two
// VMLADAVA so the multiply pipe never waits, and a channel pair's first
// step reuses the previous pair's last columns (pairs alternate direction).
// Input rows are copied into three zero-point-padded row slots, so the inner
// loop has no bounds checks; accumulators go through a small int32 buffer
// and are requantised four channels per vector with per-call tables.
#include "kernels/cortex_m/conv2d/conv2d.h"

#if ETNS_HAVE_MVE
#include <arm_mve.h>
#endif

#include "kernels/common/requantize.h"
#include "kernels/common/requantize_mve.h"

namespace etns::cortex_m {
namespace {

constexpr int32_t kPixels = 4;       // output pixels per block (one row)
constexpr int32_t kMaxChannels = 64;  // input and output channels handled
// Above this the shape goes to the fallback, so scratch stays a few KiB.
constexpr size_t kMaxScratchBytes = 8192;
// Accumulators of a run of blocks: [pixel][channel] int32, the pixel stride a
// constant of the inner loop (64, 128 or 256 bytes: 16, 32 or 64 channels);
// 32, 16 or 8 pixels, so that the requantisation's set-up is shared.
constexpr size_t kAccBytes = 2048;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }

// Scratch, carved at 16-byte offsets from a 16-byte aligned base:
//   tables  int32[4][round4(output_c)]: corrected bias (bias + input_offset *
//           sum(w), per call), multiplier, max(shift, 0), min(shift, 0)
//   acc     kAccBytes: a run of blocks' accumulators, [pixel][channel]
//   ring    three row slots of [padded_w][input_c] int8 (NHWC): input rows
//           padded with the input zero point; row t (from the top padding)
//           lives in slot t % 3, so an output row copies one new row.
// A padded tap reads the zero point, which with the offset folded into the
// bias contributes (zp + input_offset) * w = 0, as in the reference.
struct Layout {
  int32_t slices = 0;    // input_c / 16
  int32_t padded_w = 0;  // columns per row slot: the outputs rounded up to 4, plus 2
  size_t slot = 0;       // bytes of one slot: padded_w * input_c
  size_t channels4 = 0;  // output_c rounded up to 4
  size_t tables = 0, acc = 0, ring = 0, total = 0;
};

Layout layout(const Conv2dParams& p) {
  Layout l;
  l.slices = p.input_c / 16;
  l.padded_w = (p.output_w + kPixels - 1) / kPixels * kPixels + 2;
  l.slot = static_cast<size_t>(l.padded_w) * static_cast<size_t>(p.input_c);
  l.channels4 = (static_cast<size_t>(p.output_c) + 3) & ~size_t{3};
  l.tables = 0;
  l.acc = round16(4 * sizeof(int32_t) * l.channels4);
  l.ring = l.acc + kAccBytes;
  l.total = l.ring + 3 * l.slot + 15;  // room to align the base
  return l;
}

}  // namespace

bool conv2d_3x3_handles(const Conv2dParams& p) {
  if (p.filter_h != 3 || p.filter_w != 3 || p.stride_h != 1 || p.stride_w != 1 ||
      p.dilation_h != 1 || p.dilation_w != 1 || p.filter_c != p.input_c) {
    return false;
  }
  if (p.input_c % 16 != 0 || p.input_c < 16 || p.input_c > kMaxChannels) return false;
  if (p.output_c < 1 || p.output_c > kMaxChannels || p.output_w < 1 || p.output_h < 1) {
    return false;
  }
  if (p.pad_h < 0 || p.pad_h > 2 || p.pad_w < 0 || p.pad_w > 2) return false;
  // Widths are bounded first so that the layout's arithmetic cannot overflow.
  if (p.output_w > 4096) return false;
  return layout(p).total <= kMaxScratchBytes;
}

size_t conv2d_s8_mve_3x3_scratch_bytes(const Conv2dParams& p) {
  const size_t fallback = conv2d_s8_mve_gemm_scratch_bytes(p);
  if (!conv2d_3x3_handles(p)) return fallback;
  const size_t own = layout(p).total;
  return own > fallback ? own : fallback;
}

#if ETNS_HAVE_MVE
namespace {

// One step: one filter row and one 16-channel slice for both channels of a
// pair, 24 VMLADAVA over q0..q5, the six input columns the four pixels' taps
// cover. The multiply pipe is kept busy by interleaving every load with the
// VMLADAVAs (one load per two), which two things allow:
//  - the taps go tap-major (tap 0 of channel a, of b, tap 1 ...), so a
//    column is free once its last tap is done: the step loads its own later
//    columns while its first taps run and the next step's first two columns
//    while its last taps run (forward: q2..q5 own, q0 q1 next; backward,
//    the mirror: q3..q0 own, q5 q4 next);
//  - the weights alternate between q6 (channel a) and q7 (channel b), each
//    loaded one group of four VMLADAVA before it is used; the next step's
//    first weight of channel a is loaded during this step's last group.
// A channel's three taps load with writeback, so the weight pointers walk
// the filter without separate adds. Forward (pair P): taps 0, 1, 2, the
// first stepping T0 (16 bytes at a row's first slice, back from the
// previous slice's third tap at a later one), then IC each; after a row's
// last slice the pointer is 16 bytes before the next row. Backward (pair Q,
// the steps in reverse order): taps 2, 1, 0, the first stepping T2 (0 at the
// start, the filter's last byte; back 16 bytes to the previous row's last
// slice; on 2 * IC - 16 to the previous slice), then -IC each.
// The six columns are IC bytes apart in an NHWC row slot: VLDRW reaches
// 5 * 64 + 48 bytes with an immediate (its offsets scale by 4; the slots are
// 16-byte aligned, and the little-endian words hold the bytes in order), so
// XR, the filter row's slot pointer, never moves; SLICE is the 16-channel
// slice. A and B name the pointers to the pair's first and second channel's
// weights.
#define ETNS_C3_X(q, j, XR, SLICE) \
  "vldrw.u32 " q ", [%[" XR "], #(" j "*%c[ic]+16*" SLICE ")]\n\t"
#define ETNS_C3_LOAD(XR, SLICE)                                                  \
  ETNS_C3_X("q0", "0", XR, SLICE) ETNS_C3_X("q1", "1", XR, SLICE)                 \
  ETNS_C3_X("q2", "2", XR, SLICE) ETNS_C3_X("q3", "3", XR, SLICE)                 \
  ETNS_C3_X("q4", "4", XR, SLICE) ETNS_C3_X("q5", "5", XR, SLICE)
#define ETNS_C3_W(q, PTR, STEP) "vldrb.8 " q ", [%[" PTR "], " STEP "]!\n\t"
#define ETNS_C3_MAC(op, acc, x, w) op " %[" acc "], " x ", " w "\n\t"
#define ETNS_C3_MLA(acc, x, w) ETNS_C3_MAC("vmladava.s8", acc, x, w)
#define ETNS_C3_NEG_IC "#(-%c[ic])"

// A forward step. OP starts (VMLADAV) or continues (VMLADAVA) the
// accumulators at tap 0; W0 loads channel a's tap-0 weight when the previous
// step did not; L2..L5 load this step's columns q2..q5 (nothing when they
// are loaded); N0, N1 and NW load the next step's q0, q1 and channel a's
// weight (nothing at the pair's last step).
#define ETNS_C3_STEP_F(OP, W0, L2, L3, L4, L5, N0, N1, NW, T0, A, B)                           \
  W0                                                                                          \
  ETNS_C3_MAC(OP, "a0", "q0", "q6") L2 ETNS_C3_MAC(OP, "a1", "q1", "q6") L3                    \
  ETNS_C3_MAC(OP, "a2", "q2", "q6") ETNS_C3_W("q7", B, T0) ETNS_C3_MAC(OP, "a3", "q3", "q6")   \
  ETNS_C3_MAC(OP, "b0", "q0", "q7") L4 ETNS_C3_MAC(OP, "b1", "q1", "q7")                       \
  ETNS_C3_W("q6", A, "%[ic]") ETNS_C3_MAC(OP, "b2", "q2", "q7") ETNS_C3_MAC(OP, "b3", "q3", "q7") \
  ETNS_C3_MLA("a0", "q1", "q6") L5 ETNS_C3_MLA("a1", "q2", "q6") ETNS_C3_W("q7", B, "%[ic]")   \
  ETNS_C3_MLA("a2", "q3", "q6") ETNS_C3_MLA("a3", "q4", "q6")                                 \
  ETNS_C3_MLA("b0", "q1", "q7") ETNS_C3_W("q6", A, "%[ic]") ETNS_C3_MLA("b1", "q2", "q7")      \
  ETNS_C3_MLA("b2", "q3", "q7") ETNS_C3_MLA("b3", "q4", "q7")                                 \
  ETNS_C3_MLA("a0", "q2", "q6") N0 ETNS_C3_MLA("a1", "q3", "q6") ETNS_C3_W("q7", B, "%[ic]")   \
  ETNS_C3_MLA("a2", "q4", "q6") ETNS_C3_MLA("a3", "q5", "q6")                                 \
  ETNS_C3_MLA("b0", "q2", "q7") N1 ETNS_C3_MLA("b1", "q3", "q7") NW                           \
  ETNS_C3_MLA("b2", "q4", "q7") ETNS_C3_MLA("b3", "q5", "q7")
// A backward step, the mirror: taps 2, 1, 0; L3..L0 this step's columns
// q3..q0, N5 and N4 the next step's q5 and q4.
#define ETNS_C3_STEP_B(OP, W0, L3, L2, L1, L0, N5, N4, NW, T2, A, B)                           \
  W0                                                                                          \
  ETNS_C3_MAC(OP, "a3", "q5", "q6") L3 ETNS_C3_MAC(OP, "a2", "q4", "q6") L2                    \
  ETNS_C3_MAC(OP, "a1", "q3", "q6") ETNS_C3_W("q7", B, T2) ETNS_C3_MAC(OP, "a0", "q2", "q6")   \
  ETNS_C3_MAC(OP, "b3", "q5", "q7") L1 ETNS_C3_MAC(OP, "b2", "q4", "q7")                       \
  ETNS_C3_W("q6", A, ETNS_C3_NEG_IC) ETNS_C3_MAC(OP, "b1", "q3", "q7")                        \
  ETNS_C3_MAC(OP, "b0", "q2", "q7")                                                           \
  ETNS_C3_MLA("a3", "q4", "q6") L0 ETNS_C3_MLA("a2", "q3", "q6")                              \
  ETNS_C3_W("q7", B, ETNS_C3_NEG_IC) ETNS_C3_MLA("a1", "q2", "q6") ETNS_C3_MLA("a0", "q1", "q6") \
  ETNS_C3_MLA("b3", "q4", "q7") ETNS_C3_W("q6", A, ETNS_C3_NEG_IC)                            \
  ETNS_C3_MLA("b2", "q3", "q7") ETNS_C3_MLA("b1", "q2", "q7") ETNS_C3_MLA("b0", "q1", "q7")    \
  ETNS_C3_MLA("a3", "q3", "q6") N5 ETNS_C3_MLA("a2", "q2", "q6")                              \
  ETNS_C3_W("q7", B, ETNS_C3_NEG_IC) ETNS_C3_MLA("a1", "q1", "q6") ETNS_C3_MLA("a0", "q0", "q6") \
  ETNS_C3_MLA("b3", "q3", "q7") N4 ETNS_C3_MLA("b2", "q2", "q7") NW                           \
  ETNS_C3_MLA("b1", "q1", "q7") ETNS_C3_MLA("b0", "q0", "q7")

// A pair's first step finds its columns loaded (the other pair's last step,
// or the block's start), loads its first weight and starts the accumulators
// (VMLADAV; the bias is added when requantising). Then the middle steps, and
// the last, which leaves the columns for the next pair. NXR, NS and NT: the
// next step's row, slice and first weight step.
#define ETNS_C3_F_FIRST(T0, NXR, NS, NT, A, B)                                          \
  ETNS_C3_STEP_F("vmladav.s8", ETNS_C3_W("q6", A, T0), "", "", "", "",                  \
                 ETNS_C3_X("q0", "0", NXR, NS), ETNS_C3_X("q1", "1", NXR, NS),           \
                 ETNS_C3_W("q6", A, NT), T0, A, B)
#define ETNS_C3_F_MID(XR, S, T0, NXR, NS, NT, A, B)                                     \
  ETNS_C3_STEP_F("vmladava.s8", "", ETNS_C3_X("q2", "2", XR, S), ETNS_C3_X("q3", "3", XR, S), \
                 ETNS_C3_X("q4", "4", XR, S), ETNS_C3_X("q5", "5", XR, S),               \
                 ETNS_C3_X("q0", "0", NXR, NS), ETNS_C3_X("q1", "1", NXR, NS),           \
                 ETNS_C3_W("q6", A, NT), T0, A, B)
#define ETNS_C3_F_LAST(XR, S, T0, A, B)                                                 \
  ETNS_C3_STEP_F("vmladava.s8", "", ETNS_C3_X("q2", "2", XR, S), ETNS_C3_X("q3", "3", XR, S), \
                 ETNS_C3_X("q4", "4", XR, S), ETNS_C3_X("q5", "5", XR, S), "", "", "", T0, A, B)
#define ETNS_C3_B_FIRST(T2, NXR, NS, NT, A, B)                                          \
  ETNS_C3_STEP_B("vmladav.s8", ETNS_C3_W("q6", A, T2), "", "", "", "",                  \
                 ETNS_C3_X("q5", "5", NXR, NS), ETNS_C3_X("q4", "4", NXR, NS),           \
                 ETNS_C3_W("q6", A, NT), T2, A, B)
#define ETNS_C3_B_MID(XR, S, T2, NXR, NS, NT, A, B)                                     \
  ETNS_C3_STEP_B("vmladava.s8", "", ETNS_C3_X("q3", "3", XR, S), ETNS_C3_X("q2", "2", XR, S), \
                 ETNS_C3_X("q1", "1", XR, S), ETNS_C3_X("q0", "0", XR, S),               \
                 ETNS_C3_X("q5", "5", NXR, NS), ETNS_C3_X("q4", "4", NXR, NS),           \
                 ETNS_C3_W("q6", A, NT), T2, A, B)
#define ETNS_C3_B_LAST(XR, S, T2, A, B)                                                 \
  ETNS_C3_STEP_B("vmladava.s8", "", ETNS_C3_X("q3", "3", XR, S), ETNS_C3_X("q2", "2", XR, S), \
                 ETNS_C3_X("q1", "1", XR, S), ETNS_C3_X("q0", "0", XR, S), "", "", "", T2, A, B)
// A step's first weight load: forward 16 bytes on at a row's first slice
// (the pair's first step included), back from the previous slice's third tap
// at a later one; backward from the filter's last byte at the start, 16 bytes
// back to the previous row's last slice, 2 * IC - 16 on to the previous slice.
#define ETNS_C3_ROW_ON "#16"
#define ETNS_C3_SLICE_ON "%[back]"
#define ETNS_C3_START_BACK "#0"
#define ETNS_C3_ROW_BACK "#-16"
#define ETNS_C3_SLICE_BACK "#(2*%c[ic]-16)"
// Pair P forward: (row 0, slice 0) ... (row 2, last slice); pair Q backward.
#define ETNS_C3_P1(A, B) \
  ETNS_C3_F_FIRST(ETNS_C3_ROW_ON, "x1", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x1", "0", ETNS_C3_ROW_ON, "x2", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_LAST("x2", "0", ETNS_C3_ROW_ON, A, B)
#define ETNS_C3_Q1(A, B) \
  ETNS_C3_B_FIRST(ETNS_C3_START_BACK, "x1", "0", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x1", "0", ETNS_C3_ROW_BACK, "x0", "0", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_LAST("x0", "0", ETNS_C3_ROW_BACK, A, B)
#define ETNS_C3_P2(A, B) \
  ETNS_C3_F_FIRST(ETNS_C3_ROW_ON, "x0", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "1", ETNS_C3_SLICE_ON, "x1", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x1", "0", ETNS_C3_ROW_ON, "x1", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "1", ETNS_C3_SLICE_ON, "x2", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x2", "0", ETNS_C3_ROW_ON, "x2", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_LAST("x2", "1", ETNS_C3_SLICE_ON, A, B)
#define ETNS_C3_Q2(A, B) \
  ETNS_C3_B_FIRST(ETNS_C3_START_BACK, "x2", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "0", ETNS_C3_SLICE_BACK, "x1", "1", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x1", "1", ETNS_C3_ROW_BACK, "x1", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "0", ETNS_C3_SLICE_BACK, "x0", "1", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x0", "1", ETNS_C3_ROW_BACK, "x0", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_LAST("x0", "0", ETNS_C3_SLICE_BACK, A, B)
#define ETNS_C3_P3(A, B) \
  ETNS_C3_F_FIRST(ETNS_C3_ROW_ON, "x0", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "1", ETNS_C3_SLICE_ON, "x0", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "2", ETNS_C3_SLICE_ON, "x1", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x1", "0", ETNS_C3_ROW_ON, "x1", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "1", ETNS_C3_SLICE_ON, "x1", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "2", ETNS_C3_SLICE_ON, "x2", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x2", "0", ETNS_C3_ROW_ON, "x2", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x2", "1", ETNS_C3_SLICE_ON, "x2", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_LAST("x2", "2", ETNS_C3_SLICE_ON, A, B)
#define ETNS_C3_Q3(A, B) \
  ETNS_C3_B_FIRST(ETNS_C3_START_BACK, "x2", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "1", ETNS_C3_SLICE_BACK, "x2", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "0", ETNS_C3_SLICE_BACK, "x1", "2", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x1", "2", ETNS_C3_ROW_BACK, "x1", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "1", ETNS_C3_SLICE_BACK, "x1", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "0", ETNS_C3_SLICE_BACK, "x0", "2", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x0", "2", ETNS_C3_ROW_BACK, "x0", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x0", "1", ETNS_C3_SLICE_BACK, "x0", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_LAST("x0", "0", ETNS_C3_SLICE_BACK, A, B)
#define ETNS_C3_P4(A, B) \
  ETNS_C3_F_FIRST(ETNS_C3_ROW_ON, "x0", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "1", ETNS_C3_SLICE_ON, "x0", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "2", ETNS_C3_SLICE_ON, "x0", "3", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x0", "3", ETNS_C3_SLICE_ON, "x1", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x1", "0", ETNS_C3_ROW_ON, "x1", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "1", ETNS_C3_SLICE_ON, "x1", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "2", ETNS_C3_SLICE_ON, "x1", "3", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x1", "3", ETNS_C3_SLICE_ON, "x2", "0", ETNS_C3_ROW_ON, A, B) \
  ETNS_C3_F_MID("x2", "0", ETNS_C3_ROW_ON, "x2", "1", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x2", "1", ETNS_C3_SLICE_ON, "x2", "2", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_MID("x2", "2", ETNS_C3_SLICE_ON, "x2", "3", ETNS_C3_SLICE_ON, A, B) \
  ETNS_C3_F_LAST("x2", "3", ETNS_C3_SLICE_ON, A, B)
#define ETNS_C3_Q4(A, B) \
  ETNS_C3_B_FIRST(ETNS_C3_START_BACK, "x2", "2", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "2", ETNS_C3_SLICE_BACK, "x2", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "1", ETNS_C3_SLICE_BACK, "x2", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x2", "0", ETNS_C3_SLICE_BACK, "x1", "3", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x1", "3", ETNS_C3_ROW_BACK, "x1", "2", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "2", ETNS_C3_SLICE_BACK, "x1", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "1", ETNS_C3_SLICE_BACK, "x1", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x1", "0", ETNS_C3_SLICE_BACK, "x0", "3", ETNS_C3_ROW_BACK, A, B) \
  ETNS_C3_B_MID("x0", "3", ETNS_C3_ROW_BACK, "x0", "2", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x0", "2", ETNS_C3_SLICE_BACK, "x0", "1", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_MID("x0", "1", ETNS_C3_SLICE_BACK, "x0", "0", ETNS_C3_SLICE_BACK, A, B) \
  ETNS_C3_B_LAST("x0", "0", ETNS_C3_SLICE_BACK, A, B)
// The pair's accumulators to acc[pixel][c], c the pair's first channel,
// pixels kStride bytes apart; acc then steps to the next pair.
#define ETNS_C3_STORE                                                              \
  "strd %[a1], %[b1], [%[acc], %[o1]]\n\t"                                        \
  "strd %[a2], %[b2], [%[acc], %[o2]]\n\t"                                        \
  "strd %[a3], %[b3], [%[acc], %[o3]]\n\t"                                        \
  "strd %[a0], %[b0], [%[acc]], #8\n\t"

// Written as one asm loop because the eight accumulators and six pointers
// leave no register for the compiler: GCC 12 spills them. Between pairs the
// accumulators are free, so a0 serves as the loop's scratch.
// Two pairs per iteration: P (channels k, k + 1: wa, wb) walks its steps
// forward, Q (k + 2, k + 3: wb, wa) backward, so each starts on the input
// columns the other ended with (six loads fewer per pair). P leaves wa at
// k + 1 and wb at k + 2 (16 bytes early); Q starts at the last bytes of
// k + 2 (wb) and k + 3 (wa) and leaves both at their channels' first bytes.
// An odd count of pairs enters at Q. Then the next block: four columns on.
#define ETNS_C3_LOOP(P, Q, LAST_SLICE)                                            \
  asm volatile(                                                                   \
      "3:\n\t"                                                                    \
      "ldr %[wa], %[wa0]\n\t"                                                     \
      "ldr %[wb], %[wb0]\n\t"                                                     \
      "ldr %[a0], %[enter_q]\n\t"                                                 \
      "cmp %[a0], #0\n\t"                                                         \
      "bne 4f\n\t" ETNS_C3_LOAD("x0", "0")                                        \
      "1:\n\t" P("wa", "wb")                                                      \
      "add %[wb], %[wb], #(9*%c[ic])\n\t"                                         \
      "add %[wa], %[wa], #(27*%c[ic])\n\t" ETNS_C3_STORE                          \
      "5:\n\t" Q("wb", "wa")                                                      \
      "add %[wa], %[wa], #(9*%c[ic]-16)\n\t"                                      \
      "add %[wb], %[wb], #(27*%c[ic]-16)\n\t" ETNS_C3_STORE                       \
      "ldr %[a0], %[end]\n\t"                                                     \
      "cmp %[wa], %[a0]\n\t"                                                      \
      "bne 1b\n\t"                                                                \
      "add %[x0], %[x0], #(4*%c[ic])\n\t"                                         \
      "add %[x1], %[x1], #(4*%c[ic])\n\t"                                         \
      "add %[x2], %[x2], #(4*%c[ic])\n\t"                                         \
      "ldr %[a0], %[acc_step]\n\t"                                                \
      "add %[acc], %[acc], %[a0]\n\t"                                             \
      "ldr %[a0], %[blocks]\n\t"                                                  \
      "subs %[a0], %[a0], #1\n\t"                                                 \
      "str %[a0], %[blocks]\n\t"                                                  \
      "bne 3b\n\t"                                                                \
      "b 6f\n"                                                                    \
      "4:\n\t" ETNS_C3_LOAD("x2", LAST_SLICE)                                     \
      "b 5b\n"                                                                    \
      "6:\n"                                                                      \
      : [a0] "=&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),       \
        [b0] "=&Te"(b0), [b1] "=&Te"(b1), [b2] "=&Te"(b2), [b3] "=&Te"(b3),       \
        [wa] "=&r"(wa), [wb] "=&r"(wb), [acc] "+r"(acc), [x0] "+r"(x0),           \
        [x1] "+r"(x1), [x2] "+r"(x2), [blocks] "+m"(blocks)                       \
      : [wa0] "m"(wa0), [wb0] "m"(wb0), [end] "m"(end), [enter_q] "m"(enter_q),   \
        [acc_step] "m"(acc_step), [ic] "n"(16 * kSlices),                         \
        [back] "n"(16 - 32 * kSlices), [o1] "n"(kStride), [o2] "n"(2 * kStride),  \
        [o3] "n"(3 * kStride)                                                     \
      : "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "cc", "memory")

// `blocks` >= 1 blocks of four pixels times `count` >= 1 channel pairs: x0
// the first block's first column in the filter's first row's slot, x1 and
// x2 in the next rows' slots; first the weights of the first pair's first
// channel, second of its second; acc the first block's first pair's
// accumulators. Its own function: the asm takes every register but sp and
// pc, so the caller's loop state cannot stay around it.
template <int32_t kSlices, int32_t kStride>
__attribute__((noinline)) void mac_pairs(const int8_t* x0, const int8_t* x1, const int8_t* x2,
                                         const int8_t* first, const int8_t* second,
                                         int32_t count, int32_t blocks, int32_t* acc) {
  constexpr ptrdiff_t kFilterBytes = 9 * 16 * kSlices;
  int32_t a0, a1, a2, a3, b0, b1, b2, b3;
  const int8_t* wa;
  const int8_t* wb;
  // P's walks start 16 bytes early (its first load steps 16 on), Q's at the
  // filters' last bytes; an odd count starts with Q.
  const int32_t enter_q = count % 2;
  const int8_t* const wa0 = enter_q != 0 ? second + kFilterBytes - 16 : first - 16;
  const int8_t* const wb0 = enter_q != 0 ? first + kFilterBytes - 16 : second - 16;
  // After Q, wa is 16 bytes before the next pair's first channel: the pair
  // loop ends on it.
  const int8_t* const end = first - 16 + count * 2 * kFilterBytes;
  // From past a block's last pair to the next block's first.
  const int32_t acc_step = kPixels * kStride - 8 * count;
  if constexpr (kSlices == 1) {
    ETNS_C3_LOOP(ETNS_C3_P1, ETNS_C3_Q1, "0");
  } else if constexpr (kSlices == 2) {
    ETNS_C3_LOOP(ETNS_C3_P2, ETNS_C3_Q2, "1");
  } else if constexpr (kSlices == 3) {
    ETNS_C3_LOOP(ETNS_C3_P3, ETNS_C3_Q3, "2");
  } else {
    static_assert(kSlices == 4, "16 to 64 input channels");
    ETNS_C3_LOOP(ETNS_C3_P4, ETNS_C3_Q4, "3");
  }
  static_cast<void>(a0);
}

// A lone last output channel for one block (odd output_c): plain
// intrinsics, its four accumulators to acc[pixel][0].
template <int32_t kSlices, int32_t kStride>
void mac_lone(const int8_t* const x[3], ptrdiff_t column, const int8_t* w, int32_t* acc) {
  constexpr int32_t kChannels = 16 * kSlices;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t ky = 0; ky < 3; ++ky) {
    for (int32_t kx = 0; kx < 3; ++kx) {
      for (int32_t s = 0; s < kSlices; ++s, w += 16) {
        const int8x16_t wv = vld1q_s8(w);
        const int8_t* tap = x[ky] + column + kx * kChannels + 16 * s;
        a0 = vmladavaq_s8(a0, vld1q_s8(tap), wv);
        a1 = vmladavaq_s8(a1, vld1q_s8(tap + kChannels), wv);
        a2 = vmladavaq_s8(a2, vld1q_s8(tap + 2 * kChannels), wv);
        a3 = vmladavaq_s8(a3, vld1q_s8(tap + 3 * kChannels), wv);
      }
    }
  }
  acc[0] = a0;
  acc[kStride / 4] = a1;
  acc[kStride / 2] = a2;
  acc[3 * kStride / 4] = a3;
}

// `blocks` blocks of four pixels, every output channel: rows the filter
// rows' slots, first the first block's first column, acc its accumulators.
// Channels go in pairs, then a lone last channel on its own.
template <int32_t kSlices, int32_t kStride>
void mac_blocks(const int8_t* const rows[3], ptrdiff_t first, const int8_t* weight,
                int32_t output_c, int32_t blocks, int32_t* block_acc) {
  constexpr ptrdiff_t kFilterBytes = 9 * 16 * kSlices;
  const int32_t pairs = output_c / 2;
  if (pairs > 0) {
    mac_pairs<kSlices, kStride>(rows[0] + first, rows[1] + first, rows[2] + first, weight,
                                weight + kFilterBytes, pairs, blocks, block_acc);
  }
  if (output_c % 2 != 0) {
    const int8_t* const lone = weight + 2 * static_cast<ptrdiff_t>(pairs) * kFilterBytes;
    for (int32_t b = 0; b < blocks; ++b, first += kPixels * 16 * kSlices,
                 block_acc += kPixels * (kStride / 4)) {
      mac_lone<kSlices, kStride>(rows, first, lone, block_acc + 2 * pairs);
    }
  }
}

#undef ETNS_C3_LOOP
#undef ETNS_C3_STORE
#undef ETNS_C3_Q4
#undef ETNS_C3_P4
#undef ETNS_C3_Q3
#undef ETNS_C3_P3
#undef ETNS_C3_Q2
#undef ETNS_C3_P2
#undef ETNS_C3_Q1
#undef ETNS_C3_P1
#undef ETNS_C3_SLICE_BACK
#undef ETNS_C3_ROW_BACK
#undef ETNS_C3_START_BACK
#undef ETNS_C3_SLICE_ON
#undef ETNS_C3_ROW_ON
#undef ETNS_C3_B_LAST
#undef ETNS_C3_B_MID
#undef ETNS_C3_B_FIRST
#undef ETNS_C3_F_LAST
#undef ETNS_C3_F_MID
#undef ETNS_C3_F_FIRST
#undef ETNS_C3_STEP_B
#undef ETNS_C3_STEP_F
#undef ETNS_C3_NEG_IC
#undef ETNS_C3_MLA
#undef ETNS_C3_MAC
#undef ETNS_C3_W
#undef ETNS_C3_LOAD
#undef ETNS_C3_X

// Per-call tables: bias + input_offset * sum(w) (mod 2^32, like the
// reference's int32 sum: sum((x + io) * w) = sum(x * w) + io * sum(w)), so
// raw int8 input feeds VMLADAVA; and each channel's shift split into its left
// and (negated) right parts. Channels up to a multiple of 4 are zero.
// Returns whether every shift is negative (requantize_run's kRight).
bool fill_tables(const Conv2dParams& p, const Layout& l, const int8_t* weight,
                 const int32_t* bias, int32_t* tables) {
  const size_t n = l.channels4;
  int32_t* corrected = tables;
  int32_t* multipliers = tables + n;
  int32_t* lefts = tables + 2 * n;
  int32_t* neg_rights = tables + 3 * n;
  const int32_t filter_bytes = 9 * p.input_c;
  bool right = true;
  const int8_t* w = weight;
  for (int32_t oc = 0; oc < p.output_c; ++oc) {
    int32_t sum = 0;
    // 9 * slices vectors, nine at a time (one loop step per slice).
    for (int32_t k = 0; k < filter_bytes; k += 9 * 16, w += 9 * 16) {
#pragma GCC unroll 9
      for (int32_t j = 0; j < 9; ++j) sum = vaddvaq_s8(sum, vld1q_s8(w + 16 * j));
    }
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    corrected[oc] = static_cast<int32_t>(b + static_cast<uint32_t>(p.input_offset) *
                                                 static_cast<uint32_t>(sum));
    const int32_t shift = p.shifts[oc];
    multipliers[oc] = p.multipliers[oc];
    lefts[oc] = shift > 0 ? shift : 0;
    neg_rights[oc] = shift < 0 ? shift : 0;
    right = right && shift < 0;
  }
  for (size_t oc = static_cast<size_t>(p.output_c); oc < n; ++oc) {
    corrected[oc] = multipliers[oc] = lefts[oc] = neg_rights[oc] = 0;
  }
  return right;
}

// Copies padded row t (input row t - pad_h, or padding) into its ring slot:
// column j holds input column j - pad_w.
void fill_row(const Conv2dParams& p, const Layout& l, const int8_t* image, int32_t t,
              int8_t* ring) {
  int8_t* d = ring + static_cast<size_t>(t % 3) * l.slot;
  const int32_t iy = t - p.pad_h;
  int32_t begin = 0, end = 0;  // columns holding image columns
  if (iy >= 0 && iy < p.input_h) {
    begin = p.pad_w < l.padded_w ? p.pad_w : l.padded_w;
    end = p.pad_w + p.input_w < l.padded_w ? p.pad_w + p.input_w : l.padded_w;
  }
  const int8x16_t padding = vdupq_n_s8(static_cast<int8_t>(-p.input_offset));
  const int32_t vectors = p.input_c / 16;  // per column
  int32_t n = begin * vectors;
  for (; n > 0; --n, d += 16) vst1q_s8(d, padding);
  if (begin < end) {
    const int8_t* src =
        image + (static_cast<ptrdiff_t>(iy) * p.input_w + (begin - p.pad_w)) * p.input_c;
    for (n = (end - begin) * vectors; n > 0; --n, d += 16, src += 16) vst1q_s8(d, vld1q_s8(src));
  }
  for (n = (l.padded_w - end) * vectors; n > 0; --n, d += 16) vst1q_s8(d, padding);
}

// What requantising shares, per call.
struct Output {
  int32_t offset;
  int32x4_t lo, hi;
};

// RQ of one quad of channels for `pixels` pixels (accumulators kStride bytes
// apart) with the quad's tables, plus the output offset (mod 2^32) and the
// activation clamp; stored to out, pixels out_step bytes apart (kOutStep when
// a constant: the pointer then steps by writeback). kRight: every shift is
// negative, so the left shift is 0 and the general form's step down
// (v & neg_right) >> 31 is v >> 31: the same values, two instructions fewer
// (kernels/common/requantize_mve.h). kTail: only the first `channels` (< 4)
// lanes are output channels.
template <bool kRight, int32_t kStride, int32_t kOutStep, bool kTail>
inline __attribute__((always_inline)) void requantize_quad(const int32_t* tables, size_t n,
                                                           const int32_t* acc, int32_t pixels,
                                                           int8_t* out, ptrdiff_t out_step,
                                                           const Output& o, int32_t channels) {
  const mve_pred16_t live = vctp32q(static_cast<uint32_t>(channels));
  const int32x4_t bias = vld1q_s32(tables);
  const int32x4_t multiplier = vld1q_s32(tables + n);
  const int32x4_t neg_right = vld1q_s32(tables + 3 * n);
  int32x4_t left = vdupq_n_s32(0);
  if constexpr (!kRight) left = vld1q_s32(tables + 2 * n);
  const ptrdiff_t step = kOutStep != 0 ? kOutStep : out_step;
  int32_t q = 0;
  if constexpr (kRight && !kTail && kOutStep != 0) {
    // The exporters' case, written out: GCC 12 spends a loop counter and
    // compare per two pixels; here four pixels per low-overhead loop step,
    // every pointer stepping by writeback. Eight Q registers: the tables,
    // the clamp and three temporaries.
    const int32_t quads = pixels / 4;
    if (quads > 0) {
      int32x4_t v, u, t;
      asm volatile(
          "dls lr, %[quads]\n"
          "1:\n\t"
#define ETNS_C3_RQ(r)                                                 \
          "vldrw.u32 %q[" r "], [%[acc]], %[stride]\n\t"            \
          "vadd.i32 %q[" r "], %q[" r "], %q[bias]\n\t"              \
          "vqrdmulh.s32 %q[" r "], %q[" r "], %q[multiplier]\n\t"    \
          "vshr.s32 %q[t], %q[" r "], #31\n\t"                       \
          "vqadd.s32 %q[" r "], %q[" r "], %q[t]\n\t"                \
          "vrshl.s32 %q[" r "], %q[" r "], %q[neg_right]\n\t"        \
          "vadd.i32 %q[" r "], %q[" r "], %[offset]\n\t"             \
          "vmax.s32 %q[" r "], %q[" r "], %q[lo]\n\t"                \
          "vmin.s32 %q[" r "], %q[" r "], %q[hi]\n\t"                \
          "vstrb.32 %q[" r "], [%[out]], %[step]\n\t"
          ETNS_C3_RQ("v") ETNS_C3_RQ("u") ETNS_C3_RQ("v") ETNS_C3_RQ("u")
#undef ETNS_C3_RQ
          "le lr, 1b\n"
          : [v] "=&w"(v), [u] "=&w"(u), [t] "=&w"(t), [acc] "+r"(acc), [out] "+r"(out)
          : [quads] "r"(quads), [bias] "w"(bias), [multiplier] "w"(multiplier),
            [neg_right] "w"(neg_right), [lo] "w"(o.lo), [hi] "w"(o.hi), [offset] "r"(o.offset),
            [stride] "n"(kStride), [step] "n"(kOutStep)
          : "lr", "memory");
      q = 4 * quads;
    }
  }
#pragma GCC unroll 2
  for (; q < pixels; ++q, acc += kStride / 4, out += step) {
    int32x4_t v = vaddq_s32(vld1q_s32(acc), bias);
    if constexpr (kRight) {
      v = vqrdmulhq_s32(v, multiplier);
      v = vrshlq_s32(vqaddq_s32(v, vshrq_n_s32(v, 31)), neg_right);
    } else {
      v = kernels::mve::requantize_lanes(v, multiplier, left, neg_right);
    }
    v = vaddq_n_s32(v, o.offset);
    v = vminq_s32(vmaxq_s32(v, o.lo), o.hi);
    if constexpr (kTail) {
      vstrbq_p_s32(out, v, live);
    } else {
      vstrbq_s32(out, v);
    }
  }
}

template <bool kRight, int32_t kStride, int32_t kOutStep>
void requantize_quads(const Conv2dParams& p, const Layout& l, const int32_t* tables,
                      const int32_t* acc, int32_t pixels, int8_t* out, const Output& o) {
  const int32_t output_c = p.output_c;
  int32_t c = 0;
  for (; c + 4 <= output_c; c += 4) {
    requantize_quad<kRight, kStride, kOutStep, false>(tables + c, l.channels4, acc + c, pixels,
                                                      out + c, output_c, o, 4);
  }
  if (c < output_c) {
    requantize_quad<kRight, kStride, kOutStep, true>(
        tables + c, l.channels4, acc + c, pixels, out + c, output_c, o, output_c - c);
  }
}

// The run's accumulators (acc[pixel][channel], pixels kStride bytes apart)
// to `pixels` output pixels at out.
template <bool kRight, int32_t kStride>
void requantize_run(const Conv2dParams& p, const Layout& l, const int32_t* tables,
                    const int32_t* acc, int32_t pixels, int8_t* out) {
  Output o;
  o.offset = p.output_offset;
  o.lo = vdupq_n_s32(p.activation_min);
  o.hi = vdupq_n_s32(p.activation_max);
  if (p.output_c == kStride / 4) {
    requantize_quads<kRight, kStride, kStride / 4>(p, l, tables, acc, pixels, out, o);
  } else {
    requantize_quads<kRight, kStride, 0>(p, l, tables, acc, pixels, out, o);
  }
}

template <int32_t kSlices, int32_t kStride, bool kRight>
void run(const Conv2dParams& p, const Layout& l, const int8_t* input, const int8_t* weight,
         const int32_t* tables, int32_t* acc, int8_t* ring, int8_t* out) {
  constexpr int32_t kRunPixels = static_cast<int32_t>(kAccBytes) / kStride;
  const size_t image_bytes = static_cast<size_t>(p.input_h) * p.input_w * p.input_c;
  const size_t out_row_bytes = static_cast<size_t>(p.output_w) * p.output_c;
  for (int32_t n = 0; n < p.batches; ++n) {
    const int8_t* image = input + static_cast<size_t>(n) * image_bytes;
    for (int32_t oy = 0; oy < p.output_h; ++oy) {
      if (oy == 0) {
        for (int32_t t = 0; t < 3; ++t) fill_row(p, l, image, t, ring);
      } else {
        fill_row(p, l, image, oy + 2, ring);
      }
      const int8_t* const rows[3] = {ring + static_cast<size_t>(oy % 3) * l.slot,
                                     ring + static_cast<size_t>((oy + 1) % 3) * l.slot,
                                     ring + static_cast<size_t>((oy + 2) % 3) * l.slot};
      int8_t* out_row = out + (static_cast<size_t>(n) * p.output_h + oy) * out_row_bytes;
      for (int32_t first = 0; first < p.output_w; first += kRunPixels) {
        const int32_t count = p.output_w - first < kRunPixels ? p.output_w - first : kRunPixels;
        mac_blocks<kSlices, kStride>(rows, static_cast<ptrdiff_t>(first) * p.input_c, weight,
                                     p.output_c, (count + kPixels - 1) / kPixels, acc);
        requantize_run<kRight, kStride>(p, l, tables, acc, count,
                                        out_row + static_cast<size_t>(first) * p.output_c);
      }
    }
  }
}

template <int32_t kSlices, int32_t kStride>
void run_stride(const Conv2dParams& p, const Layout& l, bool right, const int8_t* input,
                const int8_t* weight, const int32_t* tables, int32_t* acc, int8_t* ring,
                int8_t* out) {
  if (right) {
    run<kSlices, kStride, true>(p, l, input, weight, tables, acc, ring, out);
  } else {
    run<kSlices, kStride, false>(p, l, input, weight, tables, acc, ring, out);
  }
}

template <int32_t kSlices>
void run_slices(const Conv2dParams& p, const Layout& l, bool right, const int8_t* input,
                const int8_t* weight, const int32_t* tables, int32_t* acc, int8_t* ring,
                int8_t* out) {
  // An accumulator row holds every output channel (64, 128 or 256 bytes).
  if (p.output_c <= 16) {
    run_stride<kSlices, 64>(p, l, right, input, weight, tables, acc, ring, out);
  } else if (p.output_c <= 32) {
    run_stride<kSlices, 128>(p, l, right, input, weight, tables, acc, ring, out);
  } else {
    run_stride<kSlices, 256>(p, l, right, input, weight, tables, acc, ring, out);
  }
}

}  // namespace

void conv2d_s8_mve_3x3(const Conv2dParams& p, const int8_t* input, const int8_t* weight,
                       const int32_t* bias, int8_t* out, uint8_t* scratch) {
  if (!conv2d_3x3_handles(p)) {
    conv2d_s8_mve_gemm(p, input, weight, bias, out, scratch);
    return;
  }
  const Layout l = layout(p);
  uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(scratch) + 15) &
                                             ~uintptr_t{15});
  int32_t* tables = reinterpret_cast<int32_t*>(base + l.tables);
  int32_t* acc = reinterpret_cast<int32_t*>(base + l.acc);
  int8_t* ring = reinterpret_cast<int8_t*>(base + l.ring);
  const bool right = fill_tables(p, l, weight, bias, tables);
  switch (l.slices) {
    case 1:
      run_slices<1>(p, l, right, input, weight, tables, acc, ring, out);
      break;
    case 2:
      run_slices<2>(p, l, right, input, weight, tables, acc, ring, out);
      break;
    case 3:
      run_slices<3>(p, l, right, input, weight, tables, acc, ring, out);
      break;
    default:
      run_slices<4>(p, l, right, input, weight, tables, acc, ring, out);
      break;
  }
}

#endif  // ETNS_HAVE_MVE

}  // namespace etns::cortex_m
