// Runs every measured region of the counter test image once, in id order
// (region 8 three times, the micro-loops twice), and checks that the vector loops computed what they
// should: exit status 0 means the image itself ran correctly.

#include <stdint.h>

#include "qemu_plugin/test/regions.h"

void etns_test_empty(void);
void etns_test_scalar_loop(void);
void etns_test_load_store(uint32_t* buffer64);
void etns_test_branches(void);
void etns_test_mve_loop(const uint32_t* src32, uint32_t* dst32);
void etns_test_mve_tail(const uint32_t* src10, uint32_t* dst12);
void etns_test_mve_misc(uint32_t* buffer256);
void etns_test_scalar_fp(uint32_t* buffer128);
void etns_test_repeated(uint32_t iterations);
void etns_test_nested(void);
void etns_test_big_loop(void);
void etns_test_unbalanced(void);
void etns_test_page_end(uint32_t* buffer64);
void etns_test_gather(uint32_t* buffer256);
void etns_test_gather_tail(uint32_t* buffer256);
void etns_test_micro_load2_mac(uint32_t iterations, uint32_t* buffer);
void etns_test_micro_load_mac4(uint32_t iterations, uint32_t* buffer);
void etns_test_micro_alternate(uint32_t iterations, uint32_t* buffer);
void etns_test_micro_load_add_store(uint32_t iterations, uint32_t* buffer);
void etns_test_micro_tail_predicated(uint32_t iterations, uint32_t* buffer);
void etns_test_micro_scalar(uint32_t iterations, uint32_t* buffer);

static uint32_t g_source[32] __attribute__((aligned(16)));
static uint32_t g_destination[32] __attribute__((aligned(16)));
static uint32_t g_scratch[64] __attribute__((aligned(16)));
// 16 bytes per micro-loop iteration.
static uint32_t g_micro[4 * ETNS_TEST_MICRO_LONG] __attribute__((aligned(16)));

int main(void) {
  for (uint32_t i = 0; i < 32; ++i) g_source[i] = i + 1;

  etns_test_empty();
  etns_test_scalar_loop();
  etns_test_load_store(g_scratch);
  etns_test_branches();

  etns_test_mve_loop(g_source, g_destination);
  for (uint32_t i = 0; i < 32; ++i) {
    if (g_destination[i] != 2 * (i + 1)) return 1;
  }
  for (uint32_t i = 0; i < 32; ++i) g_destination[i] = 0xFFFFFFFFu;
  etns_test_mve_tail(g_source, g_destination);
  for (uint32_t i = 0; i < 10; ++i) {
    if (g_destination[i] != i + 1) return 2;
  }
  if (g_destination[10] != 0xFFFFFFFFu || g_destination[11] != 0xFFFFFFFFu) return 3;

  etns_test_mve_misc(g_scratch);
  etns_test_scalar_fp(g_scratch);
  for (uint32_t n = 1; n <= 3; ++n) etns_test_repeated(n);
  etns_test_nested();
  etns_test_big_loop();
  etns_test_unbalanced();
  etns_test_page_end(g_scratch);
  etns_test_gather(g_scratch);
  etns_test_gather_tail(g_scratch);
  for (uint32_t n = ETNS_TEST_MICRO_SHORT; n <= ETNS_TEST_MICRO_LONG; n += ETNS_TEST_MICRO_LONG - ETNS_TEST_MICRO_SHORT) {
    etns_test_micro_load2_mac(n, g_micro);
    etns_test_micro_load_mac4(n, g_micro);
    etns_test_micro_alternate(n, g_micro);
    etns_test_micro_load_add_store(n, g_micro);
    etns_test_micro_tail_predicated(n, g_micro);
    etns_test_micro_scalar(n, g_micro);
  }
  return 0;
}
