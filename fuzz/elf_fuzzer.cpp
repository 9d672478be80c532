// libFuzzer target 4: any bytes as the ELF image `etns verify-kernels` reads:
// the symbol table, the section sizes, and every kernel rule over them. A
// Failure naming the file is the expected refusal.

#include <cstddef>
#include <cstdint>

#include "fuzz/scratch_file.h"
#include "protocol/provider.h"
#include "tools/common/failure.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/elf/verify_kernels.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etns;
  const std::string path = fuzz::write_scratch("image.elf", data, size);
  try {
    const tools::ElfImage image = tools::ElfImage::load(path);
    (void)image.sizes().total();
    (void)tools::heap_symbols(image);
    if (!image.symbols().empty()) (void)image.describe_address(image.symbols().front().address);
    for (protocol::Provider provider : protocol::kProviders) {
      tools::KernelFlavor flavor;
      flavor.provider = provider;
      flavor.ns_ops = provider == protocol::Provider::Ns;
      (void)tools::render_kernel_verification(tools::verify_kernels(image, flavor), tools::registered_operator_names());
    }
  } catch (const tools::Failure&) {
  }
  return 0;
}
