// Source of the ELF seeds in fuzz/corpus/elf/: one symbol of each class
// verify-kernels sorts (registries, cortex_m, cortex_m_ns, portable, a heap
// call) plus data and bss, so the seeds reach every rule. Built with
//   arm-none-eabi-g++ -mcpu=cortex-m55 -mthumb -Os -fno-exceptions -c elf_seed.cpp -o arm_object.o
//   arm-none-eabi-g++ -mcpu=cortex-m55 -mthumb -Os -nostdlib -Wl,--defsym=malloc=0 -Wl,-e,0 elf_seed.cpp -o arm_linked.elf
//   arm-none-eabi-strip -o arm_stripped.o arm_object.o
//   g++ -Os -c elf_seed.cpp -o x86_64_object.o
// Not part of any build.
namespace etns {
namespace kernels {
int registry_arm() { return 1; }
int registry_ns() { return 2; }
}  // namespace kernels
namespace cortex_m {
int quantized_add(int a) { return a + 1; }
}  // namespace cortex_m
namespace cortex_m_ns {
int quantized_sub(int a) { return a - 1; }
}  // namespace cortex_m_ns
namespace portable {
int sub(int a) { return a * 3; }
}  // namespace portable
}  // namespace etns

extern "C" void* malloc(decltype(sizeof 0));
void* use_heap() { return malloc(4); }
int g_data = 7;
int g_bss;
