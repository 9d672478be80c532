// Whole programs on the host, timed by Google Benchmark: each program's
// execute() with the fastest kernel variants and with the references, side by
// side in one run (kernels::set_reference_kernels), so the ratio is measured
// on one machine at one moment. The host goals of docs/host-speed.md are read
// from its medians.
//   etns_program_bench [--benchmark_* flags] PROGRAM[=INPUT]...
// A program named *_ns.pte runs on the ns provider, any other on arm; INPUT is
// the input tensor's bytes (default all zeros).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/variant.h"
#include "kernels/registry.h"
#include "kernels/testing/bench_hwy_target.h"
#include "tools/common/failure.h"
#include "tools/common/files.h"
#include "tools/evidence/runner/host_session.h"

namespace {

using etns::tools::HostSession;

struct BenchProgram {
  std::string name;  // the file's stem, "tier1_arm"
  std::unique_ptr<HostSession> session;
};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::unique_ptr<BenchProgram> load(const std::string& argument) {
  const size_t equals = argument.find('=');
  const std::string path = argument.substr(0, equals);
  const std::string stem = std::filesystem::path(path).stem().string();
  const auto provider = ends_with(stem, "_ns") ? etns::protocol::Provider::Ns : etns::protocol::Provider::Arm;
  auto program = std::make_unique<BenchProgram>();
  program->name = stem;
  program->session = std::make_unique<HostSession>(path, &etns::kernels::registry_of(provider));
  etns::runtime::Method& method = program->session->method();
  if (method.input_count() != 1) {
    throw etns::tools::Failure(path + ": " + std::to_string(method.input_count()) + " inputs; the bench feeds one");
  }
  std::vector<uint8_t> input(method.input(0).nbytes, 0);
  if (equals != std::string::npos) input = etns::tools::read_file(argument.substr(equals + 1));
  program->session->set_input(0, input);
  return program;
}

void execute(benchmark::State& state, BenchProgram* program, bool reference) {
  etns::kernels::set_reference_kernels(reference);
  program->session->execute();  // warm: first-touch of the arenas
  for (auto _ : state) program->session->execute();
  etns::kernels::set_reference_kernels(false);
}

}  // namespace

int main(int argc, char** argv) {
  if (!etns::kernels::testing::set_up_bench_hwy_target("etns_program_bench")) return 2;
  benchmark::Initialize(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: etns_program_bench [--benchmark_* flags] PROGRAM[=INPUT]...\n");
    return 2;
  }
  std::vector<std::unique_ptr<BenchProgram>> programs;
  try {
    for (int i = 1; i < argc; ++i) programs.push_back(load(argv[i]));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "etns_program_bench: %s\n", error.what());
    return 2;
  }
  for (const auto& program : programs) {
    BenchProgram* p = program.get();
    benchmark::RegisterBenchmark((p->name + "/fast").c_str(), [p](benchmark::State& s) { execute(s, p, false); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((p->name + "/reference").c_str(), [p](benchmark::State& s) { execute(s, p, true); })
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
