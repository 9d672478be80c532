#include <cstdio>
#include <filesystem>

#include "kernels/registry.h"
#include "tools/cli/commands.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/runner/host_session.h"

namespace etns::tools {
namespace {

struct RunOptions {
  std::string program;
  std::string provider;
  std::string input;
  std::string output;
  std::string dump_dir;
};

// Copies each instruction's output right after it runs: later instructions
// may reuse its planned bytes.
struct DumpCapture {
  const runtime::Method* method = nullptr;
  std::vector<std::vector<uint8_t>> outputs;

  static void after(void* user, size_t index) {
    auto* self = static_cast<DumpCapture*>(user);
    const runtime::Tensor* out = self->method->instruction_output(index);
    self->outputs[index] = out != nullptr ? tensor_bytes(*out) : std::vector<uint8_t>();
  }
};

int run(const RunOptions& options) {
  const runtime::KernelRegistry* registry = kernels::find_registry(options.provider.c_str());
  if (registry == nullptr) {
    throw Failure("--provider '" + options.provider + "': expected arm or ns", 2);
  }
  const std::vector<uint8_t> input = read_file(options.input);
  HostSession session(options.program, registry);
  if (session.method().input_count() != 1 || session.method().output_count() != 1) {
    throw Failure(options.program + ": etns run handles one input and one output, the method has " +
                  std::to_string(session.method().input_count()) + " and " +
                  std::to_string(session.method().output_count()));
  }
  try {
    session.set_input(0, input);
  } catch (const Failure& failure) {
    throw Failure(std::string(failure.what()) + " (--input " + options.input + ")");
  }

  DumpCapture capture;
  capture.method = &session.method();
  capture.outputs.resize(session.method().instruction_count());
  runtime::ExecuteHooks hooks;
  hooks.user = &capture;
  hooks.after_instruction = &DumpCapture::after;
  session.execute(options.dump_dir.empty() ? nullptr : &hooks);

  if (!options.dump_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.dump_dir, error);
    if (error) throw Failure("cannot create --dump-dir " + options.dump_dir + ": " + error.message());
    for (size_t i = 0; i < capture.outputs.size(); ++i) {
      const std::string path = options.dump_dir + "/" + session.method().instruction(i).id + ".bin";
      write_file_atomic(path, capture.outputs[i].data(), capture.outputs[i].size());
    }
  }
  const std::vector<uint8_t> output = session.output_bytes(0);
  write_file_atomic(options.output, output.data(), output.size());
  return 0;
}

}  // namespace

CommandAction add_run_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("run", "run a .pte on the host with the arm or ns kernels");
  command->footer(
      "Input and output are raw little-endian bytes in the tensor's memory layout.\n"
      "Examples:\n"
      "  etns run tier1_arm.pte --provider arm --input in.bin --output out.bin\n"
      "  etns run tier1_ns.pte --provider ns --input in.bin --output out.bin --dump-dir dump/");
  auto options = std::make_shared<RunOptions>();
  command->add_option("program", options->program, "the .pte file")->required();
  command->add_option("--provider", options->provider, "kernel provider: arm or ns")->required();
  command->add_option("--input", options->input, "input tensor bytes")->required();
  command->add_option("--output", options->output, "where to write the output tensor bytes")->required();
  command->add_option("--dump-dir", options->dump_dir, "write each instruction's output as DIR/c0i<k>.bin");
  return [options]() { return run(*options); };
}

}  // namespace etns::tools
