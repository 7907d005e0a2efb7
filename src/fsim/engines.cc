//===- src/fsim/engines.cc - Three engines and their tokens ------------===//
//
// The instructions go to their engines' queues in program order. Each
// engine then runs its queue in order, an instruction only once the tokens
// it pops are there. The simulator lets each engine run as far ahead as its
// tokens allow (load first, then compute, then store), the most reordering
// the hardware could do. A missing token is refused rather than left to
// change the result: a buffer row that two engines touch, one writing,
// without a token between them stops the run (hazards.h), whatever order
// this run happened to take.
//
//===----------------------------------------------------------------------===//
#include <deque>

#include "hazards.h"
#include "machine.h"
#include "opuc/opu/dram_order.h"

namespace opuc {
namespace {

using isa::Engine;

// Token queues between neighbours: kToNext[e] carries e -> e+1,
// kToPrev[e] carries e -> e-1.
struct Tokens {
  int64_t forward[isa::kNumEngines] = {};   // from engine e to e + 1
  int64_t backward[isa::kNumEngines] = {};  // from engine e to e - 1
};

struct Pending {
  int64_t index;
  isa::Instruction insn;
};

std::string_view NameOf(const isa::Instruction& insn) {
  return std::visit([](const auto& i) { return std::decay_t<decltype(i)>::kName; }, insn);
}

// The counts an instruction of engine `e` waits on; nullptr where the
// neighbour does not exist.
int64_t* PrevQueue(Tokens& t, int e) { return e > 0 ? &t.forward[e - 1] : nullptr; }
int64_t* NextQueue(Tokens& t, int e) {
  return e + 1 < isa::kNumEngines ? &t.backward[e + 1] : nullptr;
}

Status Execute(fsim::Machine& m, const isa::Instruction& insn) {
  return std::visit(
      [&m](const auto& i) -> Status {
        using T = std::decay_t<decltype(i)>;
        if constexpr (std::is_same_v<T, isa::LoadInsn>) return fsim::ExecLoad(m, i);
        if constexpr (std::is_same_v<T, isa::GemmInsn>) return fsim::ExecGemm(m, i);
        if constexpr (std::is_same_v<T, isa::OutputInsn>) return fsim::ExecOutput(m, i);
        if constexpr (std::is_same_v<T, isa::ClampInsn>) return fsim::ExecClamp(m, i);
        if constexpr (std::is_same_v<T, isa::ResAddInsn>) return fsim::ExecResAdd(m, i);
        if constexpr (std::is_same_v<T, isa::PReluInsn>) return fsim::ExecPRelu(m, i);
        if constexpr (std::is_same_v<T, isa::PoolInsn>) return fsim::ExecPool(m, i);
        if constexpr (std::is_same_v<T, isa::AverageInsn>) return fsim::ExecAverage(m, i);
        if constexpr (std::is_same_v<T, isa::TableInsn>) return fsim::ExecTable(m, i);
        if constexpr (std::is_same_v<T, isa::StoreInsn>) return fsim::ExecStore(m, i);
        if constexpr (std::is_same_v<T, isa::FenceInsn>) return OkStatus();  // waited in Simulate
      },
      insn);
}

std::string Neighbour(int e, int step) {
  return std::string(isa::EngineName(static_cast<Engine>(e + step)));
}

/// A run, or with `dram` null the checks alone over `dram_bytes`.
Status Simulate(const HwConfig& hw, const std::vector<isa::Word>& program,
                std::vector<uint8_t>* dram, int64_t dram_bytes, OpuCounters* counters) {
  std::deque<Pending> queues[isa::kNumEngines];
  std::vector<isa::Instruction> decoded;
  decoded.reserve(program.size());
  int64_t stores = 0;  // Stores so far in program order
  for (size_t i = 0; i < program.size(); ++i) {
    Expected<isa::Instruction> insn = isa::Decode(program[i]);
    if (!insn.ok()) return insn.status().WithContext(Cat("instruction ", i));
    if (std::holds_alternative<isa::StoreInsn>(*insn)) ++stores;
    if (const auto* fence = std::get_if<isa::FenceInsn>(&*insn); fence && fence->stores > stores)
      return InvalidArgument(Cat("instruction ", i, " (Fence): waits for ", fence->stores,
                                 " Stores; ", stores, " come before it in the program"));
    const int e = static_cast<int>(isa::EngineOf(*insn));
    const isa::Deps& d = isa::DepsOf(*insn);
    if ((d.pop_prev || d.push_prev) && e == 0)
      return InvalidArgument(
          Cat("instruction ", i, " (", NameOf(*insn),
              "): the load engine has no previous engine (pop_prev, push_prev)"));
    if ((d.pop_next || d.push_next) && e + 1 == isa::kNumEngines)
      return InvalidArgument(Cat("instruction ", i, " (", NameOf(*insn),
                                 "): the store engine has no next engine (pop_next, push_next)"));
    queues[e].push_back({static_cast<int64_t>(i), *insn});
    decoded.push_back(std::move(*insn));
  }
  fsim::Machine m(hw, dram == nullptr);
  const std::vector<int64_t> dram_before = DramPredecessors(decoded, m.units);
  decoded.clear();
  int64_t stores_done = 0;
  m.dram = dram;
  m.dram_bytes = dram_bytes;
  fsim::HazardTracker hazards(m.units);
  Tokens tokens;
  for (;;) {
    bool progress = false;
    for (int e = 0; e < isa::kNumEngines; ++e) {
      while (!queues[e].empty()) {
        const Pending& head = queues[e].front();
        const isa::Deps& d = isa::DepsOf(head.insn);
        int64_t* prev = PrevQueue(tokens, e);
        int64_t* next = NextQueue(tokens, e);
        if ((d.pop_prev && *prev == 0) || (d.pop_next && *next == 0)) break;
        const auto* fence = std::get_if<isa::FenceInsn>(&head.insn);
        if (fence && stores_done < fence->stores) break;
        if (d.pop_prev) {
          --*prev;
          hazards.Pop(e - 1, e);
        }
        if (d.pop_next) {
          --*next;
          hazards.Pop(e + 1, e);
        }
        m.index = head.index;
        m.name = NameOf(head.insn);
        hazards.Start(e);
        if (fence) hazards.Fence(fence->stores);
        OPUC_RETURN_IF_ERROR(Execute(m, head.insn));
        OPUC_RETURN_IF_ERROR(
            hazards.Touch(e, head.index, m.name, BufferAccessesOf(head.insn, m.units)));
        OPUC_RETURN_IF_ERROR(
            hazards.OrderDram(e, head.index, m.name, dram_before[static_cast<size_t>(head.index)]));
        if (std::holds_alternative<isa::StoreInsn>(head.insn)) ++stores_done;
        ++m.counters.instructions[static_cast<size_t>(e)];
        if (d.push_prev) {
          ++tokens.backward[e];
          hazards.Push(e, e - 1);
        }
        if (d.push_next) {
          ++tokens.forward[e];
          hazards.Push(e, e + 1);
        }
        queues[e].pop_front();
        progress = true;
      }
    }
    bool done = true;
    for (const auto& q : queues) done = done && q.empty();
    if (done) break;
    if (!progress) {
      std::string waits;
      for (int e = 0; e < isa::kNumEngines; ++e) {
        if (queues[e].empty()) continue;
        const Pending& head = queues[e].front();
        const isa::Deps& d = isa::DepsOf(head.insn);
        const bool on_prev = d.pop_prev && *PrevQueue(tokens, e) == 0;
        const bool on_next = d.pop_next && *NextQueue(tokens, e) == 0;
        const auto* fence = std::get_if<isa::FenceInsn>(&head.insn);
        waits +=
            Cat(waits.empty() ? "" : "; ", isa::EngineName(static_cast<Engine>(e)),
                " waits at instruction ", head.index, " (", NameOf(head.insn), ") for ",
                on_prev             ? "a token from " + Neighbour(e, -1)
                : on_next || !fence ? "a token from " + Neighbour(e, 1)
                                    : Cat("Store ", fence->stores, " (", stores_done, " done)"));
      }
      return InvalidArgument(Cat("deadlock: ", waits));
    }
  }
  for (int e = 0; e < isa::kNumEngines; ++e) {
    if (tokens.forward[e] > 0 && e + 1 < isa::kNumEngines)
      return InvalidArgument(Cat("the program ends with ", tokens.forward[e], " token(s) from ",
                                 isa::EngineName(static_cast<Engine>(e)), " to ", Neighbour(e, 1),
                                 " never taken"));
    if (tokens.backward[e] > 0 && e > 0)
      return InvalidArgument(Cat("the program ends with ", tokens.backward[e], " token(s) from ",
                                 isa::EngineName(static_cast<Engine>(e)), " to ", Neighbour(e, -1),
                                 " never taken"));
  }
  if (counters) *counters = m.counters;
  return OkStatus();
}

}  // namespace

Status RunFunctionalSim(const HwConfig& hw, const std::vector<isa::Word>& program,
                        std::vector<uint8_t>& dram, OpuCounters* counters) {
  return Simulate(hw, program, &dram, static_cast<int64_t>(dram.size()), counters);
}

Status CheckOpuProgram(const HwConfig& hw, const std::vector<isa::Word>& program,
                       int64_t dram_bytes) {
  return Simulate(hw, program, nullptr, dram_bytes, nullptr);
}

}  // namespace opuc
