// The Cortex-M55 cycle estimate (cycle_model.h): LLVM's MC layer decodes each
// executed block, LLVM's MCA library times it with the Cortex-M55 scheduling
// model (ARMScheduleM55.td) in the context of the block before it.

#include "qemu_plugin/cycle_model.h"
#include "qemu_plugin/insn_class.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/MCA/Context.h"
#include "llvm/MCA/CustomBehaviour.h"
#include "llvm/MCA/InstrBuilder.h"
#include "llvm/MCA/Pipeline.h"
#include "llvm/MCA/SourceMgr.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

namespace {

constexpr const char* kTriple = "thumbv8.1m.main-none-eabi";
// MCA gives a call's result this latency. A call's real cost is the taken
// branch, which the model adds itself; MCA's default (100) would make the
// callee's first read of LR wait 100 cycles.
constexpr unsigned kCallLatency = 2;
// Steady state of a loop body: the cycles MCA adds from kShortRun to kLongRun
// passes, per pass (warm-up and drain cancel out).
constexpr unsigned kShortRun = 4;
constexpr unsigned kLongRun = 12;
constexpr uint32_t kNoBlock = UINT32_MAX;

bool starts_with(llvm::StringRef name, const char* prefix) { return name.starts_with(prefix); }

// LLVM's ARM target, looked up once (the registry is global).
const llvm::Target* arm_target() {
  static const llvm::Target* target = [] {
    LLVMInitializeARMTargetInfo();
    LLVMInitializeARMTargetMC();
    LLVMInitializeARMDisassembler();
    std::string error;
    return llvm::TargetRegistry::lookupTarget(kTriple, error);
  }();
  return target;
}

}  // namespace

struct EtnsCycleBlock {
  uint32_t id = 0;
  uint64_t vaddr = 0;
  uint64_t end = 0;  // vaddr + size: where a fall-through continues
  std::vector<uint8_t> bytes;
  std::vector<llvm::MCInst> instructions;  // those MCA can time
  uint64_t fixed_cycles = 0;               // those it cannot (see decode)
  bool starts_loop = false;                // DLS, WLS, DLSTP or WLSTP
  bool ends_with_loop_end = false;         // LE or LETP
  int64_t alone_cycles = -1;               // MCA, one pass, cached
};

struct EtnsCycleModel {
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instr_info;
  std::unique_ptr<llvm::MCInstrAnalysis> analysis;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::mca::InstrumentManager> instruments;
  std::unique_ptr<llvm::mca::InstrBuilder> builder;

  bool cache = true;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::unique_ptr<EtnsCycleBlock>>> blocks;
  uint32_t next_id = 0;
  std::unordered_map<uint64_t, uint64_t> pair_milli;  // (before id << 32 | id) -> cost
  EtnsCycleBlock* before = nullptr;
  bool loop_armed = false;  // a loop started and its first LE has not branched back yet
  EtnsCycleStats stats{};

  // MCA's cycles for the instructions of the given blocks, in order, repeated `passes` times.
  uint64_t mca_cycles(std::initializer_list<const EtnsCycleBlock*> parts, unsigned passes) {
    std::vector<std::unique_ptr<llvm::mca::Instruction>> sequence;
    const llvm::SmallVector<llvm::mca::Instrument*> none;
    for (const EtnsCycleBlock* part : parts) {
      for (const llvm::MCInst& inst : part->instructions) {
        llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> made = builder->createInstruction(inst, none);
        if (!made) {  // checked when the block was decoded; cannot happen
          llvm::consumeError(made.takeError());
          continue;
        }
        sequence.push_back(std::move(*made));
      }
    }
    if (sequence.empty()) return 0;
    llvm::mca::CircularSourceMgr source(sequence, passes);
    llvm::mca::CustomBehaviour behaviour(*subtarget, source, *instr_info);
    llvm::mca::Context mca(*registers, *subtarget);
    const llvm::mca::PipelineOptions options(0, 0, 0, 0, 0, 0, /*NoAlias=*/true);
    std::unique_ptr<llvm::mca::Pipeline> pipeline = subtarget->getSchedModel().isOutOfOrder()
                                                        ? mca.createDefaultPipeline(options, source, behaviour)
                                                        : mca.createInOrderPipeline(options, source, behaviour);
    llvm::Expected<unsigned> cycles = pipeline->run();
    if (!cycles) {
      llvm::consumeError(cycles.takeError());
      return 0;
    }
    return *cycles;
  }

  uint64_t alone(EtnsCycleBlock* block) {
    if (block->alone_cycles < 0 || !cache) block->alone_cycles = static_cast<int64_t>(mca_cycles({block}, 1));
    return static_cast<uint64_t>(block->alone_cycles);
  }

  // The block's cost after `prev`, in thousandths of a cycle, without branches.
  uint64_t pair_cost(EtnsCycleBlock* prev, EtnsCycleBlock* block) {
    const uint64_t fixed = block->fixed_cycles * kEtnsMilliCycles;
    if (prev == nullptr) return alone(block) * kEtnsMilliCycles + fixed;
    if (prev == block) {
      const uint64_t longer = mca_cycles({block}, kLongRun);
      const uint64_t shorter = mca_cycles({block}, kShortRun);
      const uint64_t added = longer > shorter ? longer - shorter : 0;
      return (added * kEtnsMilliCycles + (kLongRun - kShortRun) / 2) / (kLongRun - kShortRun) + fixed;
    }
    const uint64_t both = mca_cycles({prev, block}, 1);
    const uint64_t first = alone(prev);
    return (both > first ? both - first : 0) * kEtnsMilliCycles + fixed;
  }

  void decode(EtnsCycleBlock* block) {
    // A fresh decoder per block: the Thumb decoder keeps IT and VPT state.
    std::unique_ptr<llvm::MCDisassembler> decoder(
        arm_target()->createMCDisassembler(*subtarget, *context));
    size_t offset = 0;
    while (offset < block->bytes.size()) {
      const uint8_t* at = block->bytes.data() + offset;
      const size_t left = block->bytes.size() - offset;
      // A truncated last instruction (0: too few bytes) takes the rest; the
      // decoder then fails on it and it is costed as unmodelled.
      const size_t whole = etns_thumb_length(at, left);
      const size_t length = whole != 0 ? whole : left;
      llvm::MCInst inst;
      uint64_t decoded = 0;
      const auto status = decoder->getInstruction(inst, decoded, llvm::ArrayRef<uint8_t>(at, length),
                                                  block->vaddr + offset, llvm::nulls());
      offset += length;
      block->ends_with_loop_end = false;
      if (status == llvm::MCDisassembler::Fail) {
        ++block->fixed_cycles;
        ++stats.unmodelled_instructions;
        continue;
      }
      // The M55 model has no timing for the low-overhead loop instructions:
      // a loop start costs 1 cycle (it sets LR like a move); a loop end is
      // folded into the loop by the core, free but for the first back edge
      // (etns_cycle_execute).
      const llvm::StringRef name = instr_info->getName(inst.getOpcode());
      if (starts_with(name, "t2DLS") || starts_with(name, "t2WLS") || starts_with(name, "MVE_DLSTP") ||
          starts_with(name, "MVE_WLSTP")) {
        block->starts_loop = true;
        ++block->fixed_cycles;
        continue;
      }
      if (name == "t2LEUpdate" || name == "t2LE" || name == "MVE_LETP") {
        block->ends_with_loop_end = true;
        continue;
      }
      const llvm::SmallVector<llvm::mca::Instrument*> none;
      llvm::Expected<std::unique_ptr<llvm::mca::Instruction>> made = builder->createInstruction(inst, none);
      if (!made) {
        llvm::consumeError(made.takeError());
        ++block->fixed_cycles;
        ++stats.unmodelled_instructions;
        continue;
      }
      block->instructions.push_back(inst);
    }
  }
};

extern "C" {

EtnsCycleModel* etns_cycle_model_create(const char* cpu, int cache, char* error, size_t error_size) {
  const auto fail = [&](const std::string& message) -> EtnsCycleModel* {
    if (error_size > 0) std::snprintf(error, error_size, "%s", message.c_str());
    return nullptr;
  };
  const llvm::Target* target = arm_target();
  if (target == nullptr) return fail("LLVM has no ARM target");
  auto model = std::make_unique<EtnsCycleModel>();
  model->cache = cache != 0;
  const llvm::Triple triple(kTriple);
  model->registers.reset(target->createMCRegInfo(kTriple));
  const llvm::MCTargetOptions options;
  model->asm_info.reset(target->createMCAsmInfo(*model->registers, kTriple, options));
  // A generic subtarget first: LLVM warns on stderr when asked for a CPU it does not know.
  const std::unique_ptr<llvm::MCSubtargetInfo> generic(target->createMCSubtargetInfo(kTriple, "", ""));
  if (!model->registers || !model->asm_info || !generic) return fail("cannot set up LLVM's ARM target");
  if (!generic->isCPUStringValid(cpu)) return fail(std::string("LLVM 19 knows no Arm CPU '") + cpu + "'");
  model->subtarget.reset(target->createMCSubtargetInfo(kTriple, cpu, ""));
  if (!model->subtarget->getSchedModel().hasInstrSchedModel()) {
    return fail(std::string("cpu '") + cpu + "': LLVM 19 has no scheduling model for it");
  }
  model->instr_info.reset(target->createMCInstrInfo());
  model->analysis.reset(target->createMCInstrAnalysis(model->instr_info.get()));
  model->context = std::make_unique<llvm::MCContext>(triple, model->asm_info.get(), model->registers.get(),
                                                     model->subtarget.get());
  model->instruments = std::make_unique<llvm::mca::InstrumentManager>(*model->subtarget, *model->instr_info);
  model->builder = std::make_unique<llvm::mca::InstrBuilder>(*model->subtarget, *model->instr_info,
                                                             *model->registers, model->analysis.get(),
                                                             *model->instruments, kCallLatency);
  // MCA warns once on stderr that calls and returns are not modelled; the
  // model costs taken branches itself, so a call and a return are built here
  // once with stderr closed (bl .+4; bx lr).
  static const uint8_t kCallAndReturn[] = {0x00, 0xF0, 0x00, 0xF8, 0x70, 0x47};
  std::fflush(stderr);
  const int saved = dup(2);
  const int null_fd = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null_fd >= 0) dup2(null_fd, 2);
  EtnsCycleBlock warm;
  warm.bytes.assign(kCallAndReturn, kCallAndReturn + sizeof(kCallAndReturn));
  model->decode(&warm);
  llvm::errs().flush();
  if (saved >= 0 && null_fd >= 0) dup2(saved, 2);
  if (null_fd >= 0) close(null_fd);
  if (saved >= 0) close(saved);
  model->stats.unmodelled_instructions = 0;
  if (warm.instructions.size() != 2) return fail("LLVM's ARM disassembler cannot decode bl and bx lr");
  return model.release();
}

void etns_cycle_model_destroy(EtnsCycleModel* model) { delete model; }

EtnsCycleBlock* etns_cycle_block(EtnsCycleModel* model, uint64_t vaddr, const uint8_t* bytes, size_t size) {
  auto& same_place = model->blocks[{vaddr, size}];
  for (const auto& block : same_place) {
    if (std::memcmp(block->bytes.data(), bytes, size) == 0) return block.get();
  }
  auto block = std::make_unique<EtnsCycleBlock>();
  block->id = model->next_id++;
  block->vaddr = vaddr;
  block->end = vaddr + size;
  block->bytes.assign(bytes, bytes + size);
  model->decode(block.get());
  ++model->stats.blocks;
  same_place.push_back(std::move(block));
  return same_place.back().get();
}

uint64_t etns_cycle_execute(EtnsCycleModel* model, EtnsCycleBlock* block) {
  EtnsCycleBlock* prev = model->before;
  uint64_t milli = 0;
  if (model->cache) {
    const uint64_t key = (static_cast<uint64_t>(prev ? prev->id : kNoBlock) << 32) | block->id;
    const auto found = model->pair_milli.find(key);
    if (found != model->pair_milli.end()) {
      milli = found->second;
    } else {
      milli = model->pair_cost(prev, block);
      model->pair_milli.emplace(key, milli);
      ++model->stats.pairs;
    }
  } else {
    milli = model->pair_cost(prev, block);
    ++model->stats.pairs;
  }
  // Branches: a taken one pays the refill; a loop end's back edge only the
  // first time after its loop start.
  if (prev != nullptr && block->vaddr != prev->end) {
    if (!prev->ends_with_loop_end) {
      milli += kEtnsTakenBranchCycles * kEtnsMilliCycles;
    } else if (model->loop_armed) {
      milli += kEtnsTakenBranchCycles * kEtnsMilliCycles;
      model->loop_armed = false;
    }
  }
  if (block->starts_loop) model->loop_armed = true;
  model->before = block;
  return milli;
}

EtnsCycleStats etns_cycle_model_stats(const EtnsCycleModel* model) { return model->stats; }

}  // extern "C"
