// etns_classify_thumb against encodings assembled by arm-none-eabi-gcc 12.2
// for -mcpu=cortex-m55 (checked with objdump -marmv8.1-m.main), and class
// invariants over the whole 16-bit space and a fixed sample of 32-bit ones.

#include "qemu_plugin/insn_class.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace etns {
namespace {

constexpr uint32_t bit(EtnsInsnClass c) { return 1u << c; }

constexpr uint32_t kNone = 0;
constexpr uint32_t kTotal = bit(kEtnsClassTotal);
constexpr uint32_t kLoad = bit(kEtnsClassLoad);
constexpr uint32_t kStore = bit(kEtnsClassStore);
constexpr uint32_t kBranch = bit(kEtnsClassBranch);
constexpr uint32_t kLoop = bit(kEtnsClassLoop);
constexpr uint32_t kFp = bit(kEtnsClassFp);
constexpr uint32_t kMve = bit(kEtnsClassMve);
constexpr uint32_t kMveLoad = kMve | kLoad | bit(kEtnsClassMveLoad);
constexpr uint32_t kMveStore = kMve | kStore | bit(kEtnsClassMveStore);
constexpr uint32_t kMveGather = kMveLoad | bit(kEtnsClassMveGather);
constexpr uint32_t kMveScatter = kMveStore | bit(kEtnsClassMveScatter);

struct Case {
  uint32_t encoding;  // 16-bit: the halfword; 32-bit: first halfword << 16 | second
  int size_bytes;
  const char* assembly;
  uint32_t classes;  // besides total
};

// Labels are placeholders; .inst.w lines are system-register forms that
// binutils 2.40 cannot assemble (disassembled to the names given).
constexpr Case kCases[] = {
    {0x2001, 2, "movs r0, #1", kNone},
    {0x1888, 2, "adds r0, r1, r2", kNone},
    {0x46C8, 2, "mov r8, r9", kNone},
    {0x4478, 2, "add r0, pc", kNone},
    {0x45C8, 2, "cmp r8, r9", kNone},
    {0x46F7, 2, "mov pc, lr", kBranch},
    {0x4487, 2, "add pc, r0", kBranch},
    {0x4770, 2, "bx lr", kBranch},
    {0x4798, 2, "blx r3", kBranch},
    {0x4801, 2, "ldr r0, [pc, #4]", kLoad},
    {0x5888, 2, "ldr r0, [r1, r2]", kLoad},
    {0x5E88, 2, "ldrsh r0, [r1, r2]", kLoad},
    {0x5088, 2, "str r0, [r1, r2]", kStore},
    {0x5488, 2, "strb r0, [r1, r2]", kStore},
    {0x7848, 2, "ldrb r0, [r1, #1]", kLoad},
    {0x6048, 2, "str r0, [r1, #4]", kStore},
    {0x8848, 2, "ldrh r0, [r1, #2]", kLoad},
    {0x8048, 2, "strh r0, [r1, #2]", kStore},
    {0x9801, 2, "ldr r0, [sp, #4]", kLoad},
    {0x9001, 2, "str r0, [sp, #4]", kStore},
    {0xA801, 2, "add r0, sp, #4", kNone},
    {0xB108, 2, "cbz r0, label", kBranch},
    {0xB908, 2, "cbnz r0, label", kBranch},
    {0xB510, 2, "push {r4, lr}", kStore},
    {0xBD10, 2, "pop {r4, pc}", kLoad | kBranch},
    {0xBC30, 2, "pop {r4, r5}", kLoad},
    {0xC806, 2, "ldm r0!, {r1, r2}", kLoad},
    {0xC006, 2, "stm r0!, {r1, r2}", kStore},
    {0xD001, 2, "beq label", kBranch},
    {0xE001, 2, "b label", kBranch},
    {0xDF00, 2, "svc #0", kNone},
    {0xBEAB, 2, "bkpt #0xab", kNone},
    {0xDE00, 2, "udf #0", kNone},
    {0xBF08, 2, "it eq", kNone},
    {0xBF00, 2, "nop", kNone},
    {0xBF30, 2, "wfi", kNone},
    {0xB208, 2, "sxth r0, r1", kNone},
    {0xF04F0001, 4, "mov.w r0, #1", kNone},
    {0xEB010082, 4, "add.w r0, r1, r2, lsl #2", kNone},
    {0xEA510002, 4, "orrs.w r0, r1, r2", kNone},
    {0xFB01F002, 4, "mul r0, r1, r2", kNone},
    {0xFB91F0F2, 4, "sdiv r0, r1, r2", kNone},
    {0xEA518002, 4, "csel r0, r1, r2, eq", kNone},
    {0xEA519012, 4, "csinc r0, r1, r2, ne", kNone},
    {0xF2412034, 4, "movw r0, #0x1234", kNone},
    {0xF361100B, 4, "bfi r0, r1, #4, #8", kNone},
    {0xF3810008, 4, "usat r0, #8, r1", kNone},
    {0xF3EF8005, 4, "mrs r0, ipsr", kNone},
    {0xF3808811, 4, "msr basepri, r0", kNone},
    {0xF3BF8F4F, 4, "dsb", kNone},
    {0xF3BF8F6F, 4, "isb", kNone},
    {0xF000B802, 4, "b.w label", kBranch},
    {0xF0008002, 4, "beq.w label", kBranch},
    {0xF000F802, 4, "bl label", kBranch},
    {0xF8D10004, 4, "ldr.w r0, [r1, #4]", kLoad},
    {0xF8510C04, 4, "ldr r0, [r1, #-4]", kLoad},
    {0xF8510B04, 4, "ldr r0, [r1], #4", kLoad},
    {0xF8510022, 4, "ldr.w r0, [r1, r2, lsl #2]", kLoad},
    {0xF8910004, 4, "ldrb.w r0, [r1, #4]", kLoad},
    {0xF9910004, 4, "ldrsb.w r0, [r1, #4]", kLoad},
    {0xF8B10004, 4, "ldrh.w r0, [r1, #4]", kLoad},
    {0xF9B10004, 4, "ldrsh.w r0, [r1, #4]", kLoad},
    {0xF8DF0008, 4, "ldr.w r0, [pc, #8]", kLoad},
    {0xF8510E04, 4, "ldrt r0, [r1, #4]", kLoad},
    {0xF8D1F004, 4, "ldr.w pc, [r1, #4]", kLoad | kBranch},
    {0xF85DFB04, 4, "ldr pc, [sp], #4", kLoad | kBranch},
    {0xF890F000, 4, "pld [r0]", kNone},
    {0xF810FC04, 4, "pld [r0, #-4]", kNone},
    {0xF990F000, 4, "pli [r0]", kNone},
    {0xF8C10004, 4, "str.w r0, [r1, #4]", kStore},
    {0xF8810004, 4, "strb.w r0, [r1, #4]", kStore},
    {0xF8210C02, 4, "strh r0, [r1, #-2]", kStore},
    {0xF8410F04, 4, "str r0, [r1, #4]!", kStore},
    {0xF8410002, 4, "str.w r0, [r1, r2]", kStore},
    {0xE9D20100, 4, "ldrd r0, r1, [r2]", kLoad},
    {0xE8F20102, 4, "ldrd r0, r1, [r2], #8", kLoad},
    {0xE9E20102, 4, "strd r0, r1, [r2, #8]!", kStore},
    {0xE8510F00, 4, "ldrex r0, [r1]", kLoad},
    {0xE8410200, 4, "strex r2, r0, [r1]", kStore},
    {0xE8D10F4F, 4, "ldrexb r0, [r1]", kLoad},
    {0xE8C10F52, 4, "strexh r2, r0, [r1]", kStore},
    {0xE8D10FAF, 4, "lda r0, [r1]", kLoad},
    {0xE8C10FAF, 4, "stl r0, [r1]", kStore},
    {0xE8D10FEF, 4, "ldaex r0, [r1]", kLoad},
    {0xE8C10FE2, 4, "stlex r2, r0, [r1]", kStore},
    {0xE8D0F001, 4, "tbb [r0, r1]", kBranch | kLoad},
    {0xE8D0F011, 4, "tbh [r0, r1, lsl #1]", kBranch | kLoad},
    {0xE841F000, 4, "tt r0, r1", kNone},
    {0xE841F0C0, 4, "ttat r0, r1", kNone},
    {0xE97FE97F, 4, "sg", kNone},
    {0xE89F8003, 4, "clrm {r0, r1, apsr}", kNone},
    {0xE8B08006, 4, "ldmia.w r0!, {r1, r2, pc}", kLoad | kBranch},
    {0xE9100006, 4, "ldmdb r0, {r1, r2}", kLoad},
    {0xE8BD8FF0, 4, "pop.w {r4-r11, pc}", kLoad | kBranch},
    {0xE92D4FF0, 4, "push.w {r4-r11, lr}", kStore},
    {0xE9200006, 4, "stmdb r0!, {r1, r2}", kStore},
    {0xEA5405EF, 4, "asrl r4, r5, #3", kMve},
    {0xEA54252D, 4, "asrl r4, r5, r2", kMve},
    {0xEA50C12D, 4, "asrl r0, r1, r12", kMve},
    {0xEA52932D, 4, "asrl r2, r3, r9", kMve},
    {0xEA54E52D, 4, "asrl r4, r5, lr", kMve},
    {0xEA5A2B2D, 4, "asrl r10, r11, r2", kMve},
    {0xEA5405CF, 4, "lsll r4, r5, #3", kMve},
    {0xEA5A0B4F, 4, "lsll r10, r11, #1", kMve},
    {0xEA54250D, 4, "lsll r4, r5, r2", kMve},
    {0xEA52730D, 4, "lsll r2, r3, r7", kMve},
    {0xEA50810D, 4, "lsll r0, r1, r8", kMve},
    {0xEA5415DF, 4, "lsrl r4, r5, #7", kMve},
    {0xEA54051F, 4, "lsrl r4, r5, #32", kMve},
    {0xEA5505CF, 4, "uqshll r4, r5, #3", kMve},
    {0xEA5505DF, 4, "urshrl r4, r5, #3", kMve},
    {0xEA5505EF, 4, "srshrl r4, r5, #3", kMve},
    {0xEA55152F, 4, "srshrl r4, r5, #4", kMve},
    {0xEA5505FF, 4, "sqshll r4, r5, #3", kMve},
    {0xEA55250D, 4, "uqrshll r4, r5, #64, r2", kMve},
    {0xEA59A90D, 4, "uqrshll r8, r9, #64, r10", kMve},
    {0xEA55258D, 4, "uqrshll r4, r5, #48, r2", kMve},
    {0xEA55958D, 4, "uqrshll r4, r5, #48, r9", kMve},
    {0xEA55252D, 4, "sqrshrl r4, r5, #64, r2", kMve},
    {0xEA53C32D, 4, "sqrshrl r2, r3, #64, r12", kMve},
    {0xEA5525AD, 4, "sqrshrl r4, r5, #48, r2", kMve},
    {0xEA57E7AD, 4, "sqrshrl r6, r7, #48, lr", kMve},
    {0xEA532F2D, 4, "sqrshr r3, r2", kMve},
    {0xEA53AF2D, 4, "sqrshr r3, r10", kMve},
    {0xEA532F0D, 4, "uqrshl r3, r2", kMve},
    {0xEA58BF0D, 4, "uqrshl r8, r11", kMve},
    {0xEA531F0F, 4, "uqshl r3, #4", kMve},
    {0xEA531F1F, 4, "urshr r3, #4", kMve},
    {0xEA531F2F, 4, "srshr r3, #4", kMve},
    {0xEA531F3F, 4, "sqshl r3, #4", kMve},
    {0xF040E001, 4, "dls lr, r0", kLoop},
    {0xF040C003, 4, "wls lr, r0, label", kLoop},
    {0xF020E001, 4, "dlstp.32 lr, r0", kLoop},
    {0xF000C003, 4, "wlstp.8 lr, r0, label", kLoop},
    {0xF00FC803, 4, "le lr, label", kLoop},
    {0xF02FC803, 4, "le label", kLoop},
    {0xF01FC803, 4, "letp lr, label", kLoop},
    {0xF00FE001, 4, "lctp", kLoop},
    {0xF140E003, 4, "bf label, label", kLoop},
    {0xF100C003, 4, "bfl label, label", kLoop},
    {0xF163E001, 4, "bfx label, r3", kLoop},
    {0xF173E001, 4, "bflx label, r3", kLoop},
    {0xF100E003, 4, "bfcsel label, label, label, eq", kLoop},
    {0xF020E801, 4, "vctp.32 r0", kMve},
    {0xF003E801, 4, "vctp.8 r3", kMve},
    {0xECB11F04, 4, "vldrw.u32 q0, [r1], #16", kMveLoad},
    {0xED311F04, 4, "vldrw.u32 q0, [r1, #-16]!", kMveLoad},
    {0xED911E80, 4, "vldrh.u16 q0, [r1]", kMveLoad},
    {0xED111E10, 4, "vldrb.u8 q0, [r1, #-16]", kMveLoad},
    {0xED910E80, 4, "vldrb.s16 q0, [r1]", kMveLoad},
    {0xFC310F04, 4, "vldrb.u32 q0, [r1], #-4", kMveLoad},
    {0xEDB90F01, 4, "vldrh.s32 q0, [r1, #2]!", kMveLoad},
    {0xECA23F04, 4, "vstrw.32 q1, [r2], #16", kMveStore},
    {0xED823E01, 4, "vstrb.8 q1, [r2, #1]", kMveStore},
    {0xED822E80, 4, "vstrb.16 q1, [r2]", kMveStore},
    {0xEC2A2F01, 4, "vstrh.32 q1, [r2], #-2", kMveStore},
    {0xFC915F00, 4, "vld20.32 {q2, q3}, [r1]", kMveLoad},
    {0xFCB15F20, 4, "vld21.32 {q2, q3}, [r1]!", kMveLoad},
    {0xFC911E01, 4, "vld40.8 {q0, q1, q2, q3}, [r1]", kMveLoad},
    {0xFCB11EE1, 4, "vld43.16 {q0, q1, q2, q3}, [r1]!", kMveLoad},
    {0xFC825E80, 4, "vst20.16 {q2, q3}, [r2]", kMveStore},
    {0xFCA29E61, 4, "vst43.8 {q4, q5, q6, q7}, [r2]!", kMveStore},
    {0xFC911E00, 4, "vld20.8 {q0, q1}, [r1]", kMveLoad},
    {0xFCB19F61, 4, "vld43.32 {q4, q5, q6, q7}, [r1]!", kMveLoad},
    {0xFC811EA0, 4, "vst21.16 {q0, q1}, [r1]", kMveStore},
    {0xED911F00, 4, "vldrw.u32 q0, [r1]", kMveLoad},
    {0xED311F01, 4, "vldrw.u32 q0, [r1, #-4]!", kMveLoad},
    {0xFD910E84, 4, "vldrb.u16 q0, [r1, #4]", kMveLoad},
    {0xFCB90F01, 4, "vldrh.u32 q0, [r1], #2", kMveLoad},
    {0xED010F03, 4, "vstrb.32 q0, [r1, #-3]", kMveStore},
    {0xEDA90F02, 4, "vstrh.32 q0, [r1, #4]!", kMveStore},
    {0xEF202840, 4, "vadd.i32 q1, q0, q0", kMve},
    {0xEF002D40, 4, "vadd.f32 q1, q0, q0", kMve},
    {0xEF142956, 4, "vmul.i16 q1, q2, q3", kMve},
    {0xFF142D56, 4, "vmul.f16 q1, q2, q3", kMve},
    {0xEF042C56, 4, "vfma.f32 q1, q2, q3", kMve},
    {0xEF020154, 4, "vand q0, q1, q2", kMve},
    {0xFF020154, 4, "veor q0, q1, q2", kMve},
    {0xEF800050, 4, "vmov.i32 q0, #0", kMve},
    {0xEF220152, 4, "vmov q0, q1", kMve},
    {0xEFBD0052, 4, "vshr.s32 q0, q1, #3", kMve},
    {0xEE9D0F43, 4, "vqrshrnb.s32 q0, q1, #3", kMve},
    {0xFFBB0642, 4, "vcvt.f32.s32 q0, q1", kMve},
    {0xFFBA0542, 4, "vrinta.f32 q0, q1", kMve},
    {0xFFB10342, 4, "vabs.s8 q0, q1", kMve},
    {0xFFB00042, 4, "vrev64.8 q0, q1", kMve},
    {0xEE230F42, 4, "vadd.i32 q0, q1, r2", kMve},
    {0xEE230E62, 4, "vqdmulh.s32 q0, q1, r2", kMve},
    {0xFE230E42, 4, "vmla.u32 q0, q1, r2", kMve},
    {0xEE330E42, 4, "vfma.f32 q0, q1, r2", kMve},
    {0xEEF30E04, 4, "vmladav.s32 r0, q1, q2", kMve},
    {0xEE820E24, 4, "vmlaldava.s16 r0, r1, q1, q2", kMve},
    {0xFEF10F02, 4, "vaddv.u8 r0, q1", kMve},
    {0xEE890F02, 4, "vaddlv.s32 r0, r1, q1", kMve},
    {0xEEE20F02, 4, "vmaxv.s8 r0, q1", kMve},
    {0xEEEE0F82, 4, "vminnmv.f32 r0, q1", kMve},
    {0xEE820F05, 4, "vabav.s8 r0, q1, q2", kMve},
    {0xFE210F02, 4, "vcmp.i32 eq, q0, q1", kMve},
    {0xEE311F62, 4, "vcmp.f32 gt, q0, r2", kMve},
    {0xFE610F00, 4, "vpt.i32 eq, q0, q0", kMve},
    {0xFE710F4D, 4, "vpst", kMve},
    {0xFE310F4D, 4, "vpnot", kMve},
    {0xFE330F05, 4, "vpsel q0, q1, q2", kMve},
    {0xEE210FEE, 4, "vidup.u32 q0, r0, #4", kMve},
    {0xEEA40FC0, 4, "vshlc q0, r0, #4", kMve},
    {0xEE230E05, 4, "vmulh.s32 q0, q1, q2", kMve},
    {0xEE130E04, 4, "vmullb.s16 q0, q1, q2", kMve},
    {0xEE220E04, 4, "vqdmladh.s32 q0, q1, q2", kMve},
    {0xEE320F04, 4, "vadc.i32 q0, q1, q2", kMve},
    {0xFE220F04, 4, "vcadd.i32 q0, q1, q2, #90", kMve},
    {0xFE320E05, 4, "vcmul.f32 q0, q1, q2, #90", kMve},
    {0xFC920844, 4, "vcadd.f32 q0, q1, q2, #90", kMve},
    {0xFCB20844, 4, "vcmla.f32 q0, q1, q2, #90", kMve},
    {0xEEA01B10, 4, "vdup.32 q0, r1", kMve},
    {0xEEE01B10, 4, "vdup.8 q0, r1", kMve},
    {0xEE200B10, 4, "vmov.32 q0[1], r0", kFp},
    {0xEE310B10, 4, "vmov.32 r0, q0[3]", kFp},
    {0xEE000B70, 4, "vmov.16 q0[1], r0", kMve},
    {0xEE600B30, 4, "vmov.8 q0[5], r0", kMve},
    {0xEED00B70, 4, "vmov.u8 r0, q0[3]", kMve},
    {0xEE300B30, 4, "vmov.s16 r0, q0[2]", kMve},
    {0xEC010F00, 4, "vmov r0, r1, q0[2], q0[0]", kMve},
    {0xEC110F10, 4, "vmov q0[3], q0[1], r0, r1", kMve},
    {0xEEB70A00, 4, "vmov.f32 s0, #1.0", kFp},
    {0xEEB70B00, 4, "vmov.f64 d0, #1.0", kFp},
    {0xEEB70900, 4, "vmov.f16 s0, #1.0", kFp},
    {0xEE700A00, 4, "vadd.f32 s1, s0, s0", kFp},
    {0xEE700900, 4, "vadd.f16 s1, s0, s0", kFp},
    {0xEE301B00, 4, "vadd.f64 d1, d0, d0", kFp},
    {0xEEE10A21, 4, "vfma.f32 s1, s2, s3", kFp},
    {0xEEC10A21, 4, "vdiv.f32 s1, s2, s3", kFp},
    {0xEEB11BC2, 4, "vsqrt.f64 d1, d2", kFp},
    {0xEEB10A60, 4, "vneg.f32 s0, s1", kFp},
    {0xEEB00A60, 4, "vmov.f32 s0, s1", kFp},
    {0xEEB50A40, 4, "vcmp.f32 s0, #0", kFp},
    {0xEEB40BC1, 4, "vcmpe.f64 d0, d1", kFp},
    {0xEEBD0AE0, 4, "vcvt.s32.f32 s0, s1", kFp},
    {0xEEB70AE0, 4, "vcvt.f64.f32 d0, s1", kFp},
    {0xEEB30A60, 4, "vcvtb.f16.f32 s0, s1", kFp},
    {0xEEBA0AC8, 4, "vcvt.f32.s32 s0, s0, #16", kFp},
    {0xEEB60AE0, 4, "vrintz.f32 s0, s1", kFp},
    {0xFE803A20, 4, "vmaxnm.f32 s6, s0, s1", kFp},
    {0xFE806B41, 4, "vminnm.f64 d6, d0, d1", kFp},
    {0xFE003A20, 4, "vseleq.f32 s6, s0, s1", kFp},
    {0xFEB80A60, 4, "vrinta.f32 s0, s1", kFp},
    {0xFEBC0AE0, 4, "vcvta.s32.f32 s0, s1", kFp},
    {0xFEB00AE0, 4, "vins.f16 s0, s1", kFp},
    {0xFEB00A60, 4, "vmovx.f16 s0, s1", kFp},
    {0xEEF14A10, 4, "vmrs r4, fpscr", kFp},
    {0xEEF1FA10, 4, "vmrs APSR_nzcv, fpscr", kFp},
    {0xEEE14A10, 4, "vmsr fpscr, r4", kFp},
    {0xEEF20A10, 4, "vmrs r0, fpscr_nzcvqc", kFp},
    {0xEEFD4A10, 4, "vmrs r4, p0", kMve},
    {0xEEED4A10, 4, "vmsr p0, r4", kMve},
    {0xEEFC2A10, 4, "vmrs r2, vpr", kMve},
    {0xEEEC2A10, 4, "vmsr vpr, r2", kMve},
    {0xEE104A10, 4, "vmov r4, s0", kFp},
    {0xEE004A10, 4, "vmov s0, r4", kFp},
    {0xEE004910, 4, "vmov.f16 s0, r4", kFp},
    {0xEE104910, 4, "vmov.f16 r4, s0", kFp},
    {0xEC554B10, 4, "vmov r4, r5, d0", kFp},
    {0xEC454B10, 4, "vmov d0, r4, r5", kFp},
    {0xEC554A10, 4, "vmov r4, r5, s0, s1", kFp},
    {0xEC454A10, 4, "vmov s0, s1, r4, r5", kFp},
    {0xEDD11A00, 4, "vldr s3, [r1]", kFp | kLoad},
    {0xED511A02, 4, "vldr s3, [r1, #-8]", kFp | kLoad},
    {0xED9F2B02, 4, "vldr d2, [pc, #8]", kFp | kLoad},
    {0xEDD12901, 4, "vldr.16 s5, [r1, #2]", kFp | kLoad},
    {0xEDC11A00, 4, "vstr s3, [r1]", kFp | kStore},
    {0xED822B02, 4, "vstr d2, [r2, #8]", kFp | kStore},
    {0xEDC12900, 4, "vstr.16 s5, [r1]", kFp | kStore},
    {0xED2D0A04, 4, "vpush {s0-s3}", kFp | kStore},
    {0xED2D8B10, 4, "vpush {d8-d15}", kFp | kStore},
    {0xECBD0A04, 4, "vpop {s0-s3}", kFp | kLoad},
    {0xECBD0B04, 4, "vpop {d0-d1}", kFp | kLoad},
    {0xEC914A04, 4, "vldmia r1, {s8-s11}", kFp | kLoad},
    {0xECB18B04, 4, "vldmia r1!, {d8-d9}", kFp | kLoad},
    {0xED314A04, 4, "vldmdb r1!, {s8-s11}", kFp | kLoad},
    {0xECA24A02, 4, "vstmia r2!, {s8-s9}", kFp | kStore},
    {0xED220B08, 4, "vstmdb r2!, {d0-d3}", kFp | kStore},
    {0xEC9F0A04, 4, "vscclrm {s0-s3, vpr}", kFp},
    {0xEC9F0B08, 4, "vscclrm {d0-d3, vpr}", kFp},
    {0xEC200A00, 4, "vlstm r0", kFp | kStore},
    {0xEC300A00, 4, "vlldm r0", kFp | kLoad},
    {0xED902F80, 4, "vldr FPSCR, [r0]", kFp | kLoad},
    {0xECB04F81, 4, "vldr FPSCR_nzcvqc, [r0], #4", kFp | kLoad},
    {0xEDD0EF80, 4, "vldr FPCXTS, [r0]", kFp | kLoad},
    {0xEDC08F80, 4, "vstr VPR, [r0]", kMveStore},
    {0xEDE0AF81, 4, "vstr P0, [r0, #4]!", kMveStore},
};

// Gathers and scatters, each with its lanes (its weight). Predication does
// not change the encoding's class or weight (the T forms assemble the same).
struct GatherScatterCase {
  uint32_t encoding;
  const char* assembly;
  uint32_t classes;
  uint32_t lanes;
};

constexpr GatherScatterCase kGatherScatterCases[] = {
    {0xFC912E00, "vldrb.u8 q1, [r1, q0]", kMveGather, 16},
    {0xEC912E80, "vldrb.s16 q1, [r1, q0]", kMveGather, 8},
    {0xFC912E80, "vldrb.u16 q1, [r1, q0]", kMveGather, 8},
    {0xEC912F00, "vldrb.s32 q1, [r1, q0]", kMveGather, 4},
    {0xFC912F00, "vldrb.u32 q1, [r1, q0]", kMveGather, 4},
    {0xFC912E90, "vldrh.u16 q1, [r1, q0]", kMveGather, 8},
    {0xFC912E91, "vldrh.u16 q1, [r1, q0, uxtw #1]", kMveGather, 8},
    {0xEC912F10, "vldrh.s32 q1, [r1, q0]", kMveGather, 4},
    {0xEC912F11, "vldrh.s32 q1, [r1, q0, uxtw #1]", kMveGather, 4},
    {0xFC9CEF1D, "vldrh.u32 q7, [r12, q6, uxtw #1]", kMveGather, 4},
    {0xFC912F40, "vldrw.u32 q1, [r1, q0]", kMveGather, 4},
    {0xFC912F41, "vldrw.u32 q1, [r1, q0, uxtw #2]", kMveGather, 4},
    {0xFC912FD0, "vldrd.u64 q1, [r1, q0]", kMveGather, 2},
    {0xFC912FD1, "vldrd.u64 q1, [r1, q0, uxtw #3]", kMveGather, 2},
    {0xEC822E00, "vstrb.8 q1, [r2, q0]", kMveScatter, 16},
    {0xEC822E80, "vstrb.16 q1, [r2, q0]", kMveScatter, 8},
    {0xEC822F00, "vstrb.32 q1, [r2, q0]", kMveScatter, 4},
    {0xEC822E90, "vstrh.16 q1, [r2, q0]", kMveScatter, 8},
    {0xEC822E91, "vstrh.16 q1, [r2, q0, uxtw #1]", kMveScatter, 8},
    {0xEC822F11, "vstrh.32 q1, [r2, q0, uxtw #1]", kMveScatter, 4},
    {0xEC822F40, "vstrw.32 q1, [r2, q0]", kMveScatter, 4},
    {0xEC822F41, "vstrw.32 q1, [r2, q0, uxtw #2]", kMveScatter, 4},
    {0xEC822FD0, "vstrd.64 q1, [r2, q0]", kMveScatter, 2},
    {0xEC822FD1, "vstrd.64 q1, [r2, q0, uxtw #3]", kMveScatter, 2},
    {0xFD907E00, "vldrw.u32 q3, [q0]", kMveGather, 4},
    {0xFD907E02, "vldrw.u32 q3, [q0, #8]", kMveGather, 4},
    {0xFD107E7F, "vldrw.u32 q3, [q0, #-508]", kMveGather, 4},
    {0xFDBE7E7F, "vldrw.u32 q3, [q7, #508]!", kMveGather, 4},
    {0xFD927F7F, "vldrd.u64 q3, [q1, #1016]", kMveGather, 2},
    {0xFD327F01, "vldrd.u64 q3, [q1, #-8]!", kMveGather, 2},
    {0xFD307F01, "vldrd.u64 q3, [q0, #-8]!", kMveGather, 2},
    {0xFD807E01, "vstrw.32 q3, [q0, #4]", kMveScatter, 4},
    {0xFDA07E04, "vstrw.32 q3, [q0, #16]!", kMveScatter, 4},
    {0xFD247E04, "vstrw.32 q3, [q2, #-16]!", kMveScatter, 4},
    {0xFD807F00, "vstrd.64 q3, [q0]", kMveScatter, 2},
    {0xFD007F7F, "vstrd.64 q3, [q0, #-1016]", kMveScatter, 2},
    {0xFDAC7F01, "vstrd.64 q3, [q6, #8]!", kMveScatter, 2},
};

std::string describe(const Case& c) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "%0*X", c.size_bytes * 2, c.encoding);
  return std::string(c.assembly) + " (" + hex + ")";
}

std::string mask_names(uint32_t mask) {
  std::string names;
  for (int c = 0; c < kEtnsClassCount; ++c) {
    if (mask & (1u << c)) names += std::string(names.empty() ? "" : " ") + kEtnsClassNames[c];
  }
  return names;
}

TEST(InsnClass, AssembledEncodings) {
  for (const Case& c : kCases) {
    const uint32_t want = c.classes | kTotal;
    uint8_t bytes[4];
    uint32_t got_direct;
    if (c.size_bytes == 2) {
      bytes[0] = c.encoding & 0xFF;
      bytes[1] = c.encoding >> 8;
      got_direct = etns_classify_t16(static_cast<uint16_t>(c.encoding));
    } else {
      const uint16_t hw1 = c.encoding >> 16, hw2 = c.encoding & 0xFFFF;
      bytes[0] = hw1 & 0xFF;  // memory order: first halfword, little-endian
      bytes[1] = hw1 >> 8;
      bytes[2] = hw2 & 0xFF;
      bytes[3] = hw2 >> 8;
      got_direct = etns_classify_t32(hw1, hw2);
    }
    const uint32_t got = etns_classify_thumb(bytes, c.size_bytes);
    EXPECT_EQ(mask_names(got), mask_names(want)) << describe(c);
    EXPECT_EQ(got, got_direct) << describe(c);
    EXPECT_EQ(etns_weight_thumb(bytes, c.size_bytes), 1u) << describe(c);
    if (c.size_bytes == 4) {
      EXPECT_EQ(etns_gather_scatter_lanes_t32(c.encoding >> 16, c.encoding & 0xFFFF), 0u) << describe(c);
    }
  }
}

// Memory order of a 32-bit encoding: the first halfword, little-endian, then the second.
void store_t32(uint32_t encoding, uint8_t* bytes) {
  bytes[0] = (encoding >> 16) & 0xFF;
  bytes[1] = encoding >> 24;
  bytes[2] = encoding & 0xFF;
  bytes[3] = (encoding >> 8) & 0xFF;
}

TEST(InsnClass, GathersAndScattersWeighTheirLanes) {
  for (const GatherScatterCase& c : kGatherScatterCases) {
    const Case as_case{c.encoding, 4, c.assembly, c.classes};
    uint8_t bytes[4];
    store_t32(c.encoding, bytes);
    EXPECT_EQ(mask_names(etns_classify_thumb(bytes, 4)), mask_names(c.classes | kTotal)) << describe(as_case);
    EXPECT_EQ(etns_weight_thumb(bytes, 4), c.lanes) << describe(as_case);
    EXPECT_EQ(etns_gather_scatter_lanes_t32(c.encoding >> 16, c.encoding & 0xFFFF), c.lanes) << describe(as_case);
  }
}

// QEMU 7.2 appends the halfword after an instruction that ends 2 bytes before
// a page end: the plugin sees 4 bytes for a 16-bit instruction, 6 for a
// 32-bit one. Only the instruction's own bytes count.
TEST(InsnClass, BytesAfterTheInstructionAreIgnored) {
  const uint8_t ldr_w_then_ldr[6] = {0xD1, 0xF8, 0x04, 0x00, 0x0A, 0x68};  // ldr.w r0, [r1, #4]; ldr r2, [r1]
  EXPECT_EQ(etns_thumb_length(ldr_w_then_ldr, 6), 4u);
  EXPECT_EQ(etns_classify_thumb(ldr_w_then_ldr, 6), kTotal | kLoad);
  const uint8_t ldr_then_ldr_w[4] = {0x0A, 0x68, 0xD1, 0xF8};  // ldr r2, [r1]; first half of ldr.w
  EXPECT_EQ(etns_thumb_length(ldr_then_ldr_w, 4), 2u);
  EXPECT_EQ(etns_classify_thumb(ldr_then_ldr_w, 4), kTotal | kLoad);
  uint8_t gather_then_nop[6] = {0, 0, 0, 0, 0x00, 0xBF};  // vldrb.u8 q1, [r1, q0]; nop
  store_t32(0xFC912E00, gather_then_nop);
  EXPECT_EQ(etns_classify_thumb(gather_then_nop, 6), kTotal | kMveGather);
  EXPECT_EQ(etns_weight_thumb(gather_then_nop, 6), 16u);
  const uint8_t bx_lr_then_nop[4] = {0x70, 0x47, 0x00, 0xBF};
  EXPECT_EQ(etns_thumb_length(bx_lr_then_nop, 4), 2u);
  EXPECT_EQ(etns_classify_thumb(bx_lr_then_nop, 4), kTotal | kBranch);
}

TEST(InsnClass, TooFewBytesCountOnlyInTotal) {
  const uint8_t bx_lr[2] = {0x70, 0x47};
  for (size_t size : {0, 1}) {
    EXPECT_EQ(etns_thumb_length(bx_lr, size), 0u) << size;
    EXPECT_EQ(etns_classify_thumb(bx_lr, size), kTotal) << size;
    EXPECT_EQ(etns_weight_thumb(bx_lr, size), 1u) << size;
  }
  const uint8_t gather[4] = {0x91, 0xFC, 0x00, 0x2E};  // vldrb.u8 q1, [r1, q0]
  for (size_t size : {2, 3}) {
    EXPECT_EQ(etns_thumb_length(gather, size), 0u) << size;
    EXPECT_EQ(etns_classify_thumb(gather, size), kTotal) << size;
    EXPECT_EQ(etns_weight_thumb(gather, size), 1u) << size;
  }
}

TEST(InsnClass, NamesInJsonOrder) {
  const char* const want[] = {"total", "mve",  "mve_load", "mve_store", "mve_gather", "mve_scatter",
                              "fp",    "load", "store",    "branch",    "loop"};
  ASSERT_EQ(std::size(want), static_cast<size_t>(kEtnsClassCount));
  for (int c = 0; c < kEtnsClassCount; ++c) EXPECT_STREQ(kEtnsClassNames[c], want[c]);
}

// An encoding pattern in QEMU's decodetree notation: 32 of 0, 1 or . (any
// bit), spaces ignored.
struct Pattern {
  uint32_t mask = 0;
  uint32_t value = 0;
  bool matches(uint32_t encoding) const { return (encoding & mask) == value; }
};

Pattern pattern(const char* text) {
  Pattern p;
  int n = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c == ' ') continue;
    p.mask = p.mask << 1 | (*c != '.');
    p.value = p.value << 1 | (*c == '1');
    ++n;
  }
  EXPECT_EQ(n, 32) << text;
  return p;
}

// The MVE long shifts in QEMU 7.2's target/arm/t32.decode, fields as dots.
constexpr const char* kLongShiftPatterns[] = {
    "1110101 0010 1 ... 0 0 ... ... 1 .. 10 1111",  // ASRL_ri
    "1110101 0010 1 ... 0 0 ... ... 1 .. 00 1111",  // LSLL_ri
    "1110101 0010 1 ... 0 0 ... ... 1 .. 01 1111",  // LSRL_ri
    "1110101 0010 1 ... 1 0 ... ... 1 .. 00 1111",  // UQSHLL_ri
    "1110101 0010 1 ... 1 0 ... ... 1 .. 01 1111",  // URSHRL_ri
    "1110101 0010 1 ... 1 0 ... ... 1 .. 10 1111",  // SRSHRL_ri
    "1110101 0010 1 ... 1 0 ... ... 1 .. 11 1111",  // SQSHLL_ri
    "1110101 0010 1 .... 0 ... 1111 .. 00 1111",    // UQSHL_ri
    "1110101 0010 1 .... 0 ... 1111 .. 01 1111",    // URSHR_ri
    "1110101 0010 1 .... 0 ... 1111 .. 10 1111",    // SRSHR_ri
    "1110101 0010 1 .... 0 ... 1111 .. 11 1111",    // SQSHL_ri
    "1110101 0010 1 .... .... 1111 0000 1101",      // UQRSHL_rr
    "1110101 0010 1 .... .... 1111 0010 1101",      // SQRSHR_rr
    "1110101 0010 1 ... 0 .... ... 1 0000 1101",    // LSLL_rr
    "1110101 0010 1 ... 0 .... ... 1 0010 1101",    // ASRL_rr
    "1110101 0010 1 ... 1 .... ... 1 0000 1101",    // UQRSHLL64_rr
    "1110101 0010 1 ... 1 .... ... 1 0010 1101",    // SQRSHRL64_rr
    "1110101 0010 1 ... 1 .... ... 1 1000 1101",    // UQRSHLL48_rr
    "1110101 0010 1 ... 1 .... ... 1 1010 1101",    // SQRSHRL48_rr
};

// Every encoding that shares the long shifts' first halfword (ORR shifted
// register, S = 1): mve exactly when QEMU decodes a long shift.
TEST(InsnClass, LongShiftsMatchQemuExhaustively) {
  std::vector<Pattern> patterns;
  for (const char* text : kLongShiftPatterns) patterns.push_back(pattern(text));
  int mismatches = 0;
  for (uint32_t hw1 = 0xEA50; hw1 <= 0xEA5F; ++hw1) {
    for (uint32_t hw2 = 0; hw2 < 0x10000; ++hw2) {
      const uint32_t encoding = hw1 << 16 | hw2;
      bool shift = false;
      for (const Pattern& p : patterns) shift = shift || p.matches(encoding);
      const uint32_t mask = etns_classify_t32(static_cast<uint16_t>(hw1), static_cast<uint16_t>(hw2));
      if (static_cast<bool>(mask & kMve) != shift && ++mismatches <= 5) {
        ADD_FAILURE() << std::hex << encoding << ": " << mask_names(mask) << "; QEMU long shift: " << shift;
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// The gathers and scatters in QEMU 7.2's target/arm/mve.decode, with the bit
// that gives their lanes: size in bits 8:7 for vector offsets, W/D in bit 8
// for a vector base.
struct GatherScatterPattern {
  const char* text;
  bool load;
  bool vector_base;
};
constexpr GatherScatterPattern kGatherScatterPatterns[] = {
    {"111 0 1100 1 . 01 .... ... 0 111 . .... ....", true, false},   // VLDR_S_sg
    {"111 1 1100 1 . 01 .... ... 0 111 . .... ....", true, false},   // VLDR_U_sg
    {"111 0 1100 1 . 00 .... ... 0 111 . .... ....", false, false},  // VSTR_sg
    {"111 1 1101 ... 1 ... 0 ... 1 1110 .... ....", true, true},     // VLDRW_sg_imm
    {"111 1 1101 ... 1 ... 0 ... 1 1111 .... ....", true, true},     // VLDRD_sg_imm
    {"111 1 1101 ... 0 ... 0 ... 1 1110 .... ....", false, true},    // VSTRW_sg_imm
    {"111 1 1101 ... 0 ... 0 ... 1 1111 .... ....", false, true},    // VSTRD_sg_imm
};

// Every encoding in the coprocessor space (first halfword 111x 11xx xxxx
// xxxx): mve_gather, mve_scatter and the weight exactly as QEMU decodes.
TEST(InsnClass, GathersAndScattersMatchQemuExhaustively) {
  std::vector<std::pair<Pattern, const GatherScatterPattern*>> patterns;
  for (const GatherScatterPattern& p : kGatherScatterPatterns) patterns.emplace_back(pattern(p.text), &p);
  const uint32_t gather = bit(kEtnsClassMveGather), scatter = bit(kEtnsClassMveScatter);
  int mismatches = 0;
  for (uint32_t high = 0; high < 0x800; ++high) {
    const uint32_t hw1 = 0xEC00 | (high & 0x3FF) | (high & 0x400) << 2;  // bits 9:0 and 12
    for (uint32_t hw2 = 0; hw2 < 0x10000; ++hw2) {
      const uint32_t encoding = hw1 << 16 | hw2;
      const GatherScatterPattern* found = nullptr;
      for (const auto& [p, about] : patterns) {
        if (p.matches(encoding)) found = about;
      }
      uint32_t want_classes = 0, want_lanes = 0;
      if (found != nullptr) {
        want_classes = found->load ? kMveGather : kMveScatter;
        want_lanes = found->vector_base ? ((hw2 >> 8) & 1 ? 2 : 4) : 16u >> ((hw2 >> 7) & 3);
      }
      const uint32_t mask = etns_classify_t32(static_cast<uint16_t>(hw1), static_cast<uint16_t>(hw2));
      const uint32_t lanes = etns_gather_scatter_lanes_t32(static_cast<uint16_t>(hw1), static_cast<uint16_t>(hw2));
      const bool ok = lanes == want_lanes &&
                      (found == nullptr ? (mask & (gather | scatter)) == 0 : (mask & want_classes) == want_classes &&
                                                                                    (mask & (gather | scatter)) ==
                                                                                        (want_classes & (gather | scatter)));
      if (!ok && ++mismatches <= 5) {
        ADD_FAILURE() << std::hex << encoding << ": " << mask_names(mask) << ", lanes " << lanes << "; QEMU: "
                      << mask_names(want_classes) << ", lanes " << want_lanes;
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
}

// Properties every classification keeps, whatever the encoding.
void expect_consistent(uint32_t mask, uint32_t encoding) {
  const bool mve = mask & kMve, load = mask & kLoad, store = mask & kStore;
  EXPECT_TRUE(mask & kTotal) << std::hex << encoding;
  EXPECT_EQ(static_cast<bool>(mask & bit(kEtnsClassMveLoad)), mve && load) << std::hex << encoding;
  EXPECT_EQ(static_cast<bool>(mask & bit(kEtnsClassMveStore)), mve && store)
      << std::hex << encoding;
  EXPECT_FALSE((mask & bit(kEtnsClassMveGather)) && !(mask & bit(kEtnsClassMveLoad))) << std::hex << encoding;
  EXPECT_FALSE((mask & bit(kEtnsClassMveScatter)) && !(mask & bit(kEtnsClassMveStore))) << std::hex << encoding;
  EXPECT_FALSE(mve && (mask & kFp)) << std::hex << encoding;
  EXPECT_FALSE(load && store) << std::hex << encoding;
  EXPECT_FALSE((mask & kBranch) && (mask & kLoop)) << std::hex << encoding;
}

TEST(InsnClass, InvariantsOverAll16BitEncodings) {
  for (uint32_t hw = 0; hw < 0x10000; ++hw) {
    if ((hw >> 11) >= 0x1D) continue;  // first halfword of a 32-bit instruction
    expect_consistent(etns_classify_t16(static_cast<uint16_t>(hw)), hw);
  }
}

TEST(InsnClass, InvariantsOverSampled32BitEncodings) {
  std::mt19937 rng(20240607);  // fixed: the sample is the same on every run
  for (int i = 0; i < 2000000; ++i) {
    const uint32_t word = rng();
    const uint16_t hw1 = static_cast<uint16_t>(0xE800 | (word >> 16)), hw2 = word & 0xFFFF;
    expect_consistent(etns_classify_t32(hw1, hw2), static_cast<uint32_t>(hw1) << 16 | hw2);
  }
}

}  // namespace
}  // namespace etns
