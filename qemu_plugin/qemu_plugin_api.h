#pragma once

// The part of QEMU 7.2's TCG plugin C API (plugin API version 1, QEMU's
// include/qemu/qemu-plugin.h) that etns_counter.c uses. Debian packages no
// QEMU headers, so these declarations are ours; they must keep QEMU 7.2's
// types, argument order and enum values, because the plugin binds to these
// functions inside qemu-system-arm when it is loaded. QEMU 8.2 moved to API
// version 2 (qemu_plugin_insn_data changed); this file targets 7.2 only.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Marks the symbols QEMU looks up with dlsym(); build with -fvisibility=hidden.
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

// Handed to qemu_plugin_install(); valid only during that call.
typedef struct qemu_info_t {
  const char* target_name;  // "arm" for qemu-system-arm
  struct {
    int min;
    int cur;
  } version;  // plugin API versions this QEMU accepts
  bool system_emulation;
  union {
    struct {
      int smp_vcpus;
      int max_vcpus;
    } system;
  };
} qemu_info_t;

// Opaque handles, valid only inside the translation callback.
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
  QEMU_PLUGIN_CB_NO_REGS = 0,
  QEMU_PLUGIN_CB_R_REGS = 1,
  QEMU_PLUGIN_CB_RW_REGS = 2,
};

enum qemu_plugin_mem_rw {
  QEMU_PLUGIN_MEM_R = 1,
  QEMU_PLUGIN_MEM_W = 2,
  QEMU_PLUGIN_MEM_RW = 3,
};

// Size, sign, endianness and direction of one access, decoded by the
// qemu_plugin_mem_* functions.
typedef uint32_t qemu_plugin_meminfo_t;

enum qemu_plugin_op {
  QEMU_PLUGIN_INLINE_ADD_U64 = 0,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void* userdata);

// Provided by the plugin. QEMU refuses plugins whose qemu_plugin_version is
// outside [info->version.min, info->version.cur]; argv holds the "key=value"
// strings of -plugin and stays valid while the plugin is loaded. A non-zero
// return makes QEMU fail to start.
QEMU_PLUGIN_EXPORT extern int qemu_plugin_version;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                           char** argv);

// Provided by QEMU.
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn* insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn* insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op,
                                              void* ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb* tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void* userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn* insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void* userdata);
// Called at each memory access the instruction makes, after it.
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn* insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void* userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);  // log2 of the bytes
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
// Writes to QEMU's log, which is silent unless QEMU runs with -d plugin.
void qemu_plugin_outs(const char* string);

#ifdef __cplusplus
}  // extern "C"
#endif
