//===- sim/rtl_harness.h - The clock loop around a Verilated OPU --*- C++ -*-===//
//
// One template for every preset's model (Vopu_tiny, Vopu_opu1024), kept
// from one program to the next as the runtime keeps the hardware: reset
// before the first, put the program's words in DRAM after the image (and
// the next program's, when the caller names one), pulse start with their
// address and count, then clock until done_o, serving the DRAM ports from a
// DramModel each cycle. The counters run on from program to program; a
// run's figures are their differences. The inputs change while the clock
// is low; the handshakes (valid and ready both high) are taken before the
// rising edge, as the RTL takes them. Included by the generated
// rtl_model_<preset>.cc only.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SIM_RTL_HARNESS_H
#define OPUC_SIM_RTL_HARNESS_H

#include <algorithm>
#include <memory>
#include <string>

#include "dram_model.h"
#include "opuc/fsim/fsim.h"
#include "rtl.h"
#include "rtl_config.h"
#include "support/format.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace opuc::rtl {

// Ports up to 64 bits are integers; wider ones are VlWide arrays of 32-bit words.
template <typename T>
void PutBytes(T& port, const uint8_t* bytes, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < sizeof(T); ++i) v |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  port = static_cast<T>(v);
}
template <std::size_t N>
void PutBytes(VlWide<N>& port, const uint8_t* bytes, size_t n) {
  for (size_t w = 0; w < N; ++w) {
    uint32_t v = 0;
    for (size_t k = 0; k < 4 && 4 * w + k < n; ++k)
      v |= static_cast<uint32_t>(bytes[4 * w + k]) << (8 * k);
    port[w] = v;
  }
}
template <typename T>
void GetBytes(const T& port, uint8_t* bytes, size_t n) {
  const auto v = static_cast<uint64_t>(port);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i < 8 ? v >> (8 * i) : 0);
}
template <std::size_t N>
void GetBytes(const VlWide<N>& port, uint8_t* bytes, size_t n) {
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(port[i / 4] >> (8 * (i % 4)));
}

// What counter_sel_i picks (opu_top.sv); the per-engine ones take the
// engine's index added.
enum CounterSel : int {
  kBusy = 0,
  kTokenWait = 3,
  kDramWait = 6,
  kRetired = 9,
  kLastRetired = 12,
  kBytesLoaded = 15,
  kBytesStored = 16,
  kGemmIssues = 17,
  kPostEntries = 18,
  kCycles = 19,
};

template <class Model>
class Harness final : public RtlSession {
 public:
  /// With `traced`, runs may write every signal of the design to an FST
  /// file, one time step per clock edge.
  Harness(const HwConfig& hw, bool traced) : hw_(hw), units_(BufferUnits(hw)) {
    context_ = std::make_unique<VerilatedContext>();
    if (traced) context_->traceEverOn(true);
    model_ = std::make_unique<Model>(context_.get());
    if (!traced) return;
    trace_ = std::make_unique<VerilatedFstC>();
    model_->trace(trace_.get(), 99);
  }
  ~Harness() override {
    model_->final();
    if (trace_ && trace_->isOpen()) trace_->close();
  }

  Status Run(const std::vector<isa::Word>& program, const std::vector<isa::Word>* next,
             std::vector<uint8_t>& dram, RtlStats* stats, const std::string& trace_path) override {
    if (!trace_path.empty()) {
      if (!trace_) return InternalError("the RTL session was made without tracing");
      trace_->open(trace_path.c_str());
      if (!trace_->isOpen()) return IoError(Cat(trace_path, ": cannot write the trace"));
    }
    struct CloseTrace {
      VerilatedFstC* trace;
      ~CloseTrace() {
        if (trace && trace->isOpen()) trace->close();
      }
    } close_trace{trace_.get()};
    const Status run = RunProgram(program, next, dram, stats);
    if (!run.ok()) reset_ = true;  // the design's state is the failure's: reset before the next
    return run;
  }

 private:
  // The program's words go into DRAM after the image, from a boundary of a
  // beat, a DRAM word and an instruction word, where the fetch unit reads
  // them (the host's copy, as VTA's runtime makes one), and leave it when
  // the run ends. The program named next goes where it does not overlap
  // this one; a program the run before named next is where it was then.
  Status RunProgram(const std::vector<isa::Word>& program, const std::vector<isa::Word>* next,
                    std::vector<uint8_t>& dram, RtlStats* stats) {
    const size_t data_bytes = dram.size();
    const auto align = static_cast<size_t>(std::max<int64_t>(
        {units_.lanes, int64_t{isa::kWordBits / 8}, int64_t{hw_.dram.word_bits / 8}}));
    const auto aligned = [&](size_t bytes) { return (bytes + align - 1) / align * align; };
    const auto bytes_of = [](const std::vector<isa::Word>& words) {
      return words.size() * (isa::kWordBits / 8);
    };
    const size_t base = aligned(data_bytes);
    const bool resume = !reset_ && next_addr_ >= base && program == next_words_;
    // Another program than the one named: the fetch unit drops what it read
    // of that one, which it knows by its address and length; where this one
    // would have both, a reset drops it.
    if (!resume && !next_words_.empty() && next_addr_ == base &&
        program.size() == next_words_.size())
      reset_ = true;
    const size_t prog_addr = resume ? next_addr_ : base;
    size_t end = prog_addr + bytes_of(program);
    size_t next_addr = 0;
    if (next) {
      next_addr = prog_addr >= base + aligned(bytes_of(*next)) ? base : aligned(end);
      end = std::max(end, next_addr + bytes_of(*next));
    }
    if (end > size_t{0xffffffff})
      return InvalidArgument(Cat("the DRAM image and the program take ", end,
                                 " bytes; the RTL's DRAM addresses have 32 bits"));
    struct Restore {
      std::vector<uint8_t>& image;
      size_t bytes;
      ~Restore() { image.resize(bytes); }
    } restore{dram, data_bytes};
    dram.resize(aligned(end), 0);
    PutWords(program, prog_addr, dram);
    if (next) PutWords(*next, next_addr, dram);
    next_words_ = next ? *next : std::vector<isa::Word>{};
    next_addr_ = next ? next_addr : 0;

    Model& m = *model_;
    m.start_i = 0;
    m.rd_req_ready_i = 0;
    m.rd_rsp_valid_i = 0;
    m.wr_ready_i = 0;
    if (reset_) {
      m.clk_i = 0;
      m.rst_ni = 0;
      m.eval();
      Tick();
      m.rst_ni = 1;
      Tick();
      reset_ = false;
    }
    const RtlStats before = Counters();
    m.prog_addr_i = static_cast<uint32_t>(prog_addr);
    m.length_i = static_cast<uint32_t>(program.size());
    m.next_valid_i = next != nullptr;
    m.next_addr_i = static_cast<uint32_t>(next_addr);
    m.next_length_i = static_cast<uint32_t>(next ? next->size() : 0);
    m.start_i = 1;
    Tick();
    m.start_i = 0;

    DramModel ram(hw_, dram, units_.lanes, static_cast<int64_t>(data_bytes));
    // A write is a beat of L bytes with a byte mask, a bit a byte.
    std::vector<uint8_t> wr_bytes(static_cast<size_t>(units_.lanes));
    std::vector<uint8_t> wr_mask_bits(static_cast<size_t>((units_.lanes + 7) / 8));
    std::vector<bool> wr_mask(static_cast<size_t>(units_.lanes));
    int64_t now = 0, quiet = 0;
    // Each engine's retired count as the last cycle left it: its rises
    // are this run's retirements (the counters run on from the reset).
    std::array<uint32_t, isa::kNumEngines> retired{};
    for (size_t e = 0; e < retired.size(); ++e) retired[e] = m.retired_o[e];
    std::array<std::vector<int64_t>, isa::kNumEngines> retired_at;
    for (;;) {
      ram.Tick();
      m.rd_req_ready_i = ram.CanTransfer();
      m.wr_ready_i = ram.CanTransfer();
      const uint8_t* response = ram.Response(now);
      m.rd_rsp_valid_i = response != nullptr;
      if (response) PutBytes(m.rd_rsp_data_i, response, static_cast<size_t>(units_.lanes));
      m.eval();
      if (m.illegal_o) return InvalidArgument("the RTL met an opcode no instruction has");
      if (m.done_o) break;
      const bool taken = response != nullptr && m.rd_rsp_ready_o;
      bool moved = taken || m.progress_o;
      if (m.rd_req_valid_o && m.rd_req_ready_i) {
        OPUC_RETURN_IF_ERROR(ram.Read(m.rd_req_addr_o, now));
        moved = true;
      }
      if (m.wr_valid_o && m.wr_ready_i) {
        GetBytes(m.wr_data_o, wr_bytes.data(), wr_bytes.size());
        GetBytes(m.wr_mask_o, wr_mask_bits.data(), wr_mask_bits.size());
        for (size_t j = 0; j < wr_mask.size(); ++j)
          wr_mask[j] = (wr_mask_bits[j / 8] >> (j % 8)) & 1U;
        OPUC_RETURN_IF_ERROR(ram.Write(m.wr_addr_o, wr_bytes.data(), wr_mask));
        moved = true;
      }
      // A response the RTL does not take waits in DRAM (the load engine's
      // writers still finishing the instruction before).
      if (taken) ram.PopResponse();
      Tick();
      ++now;
      for (size_t e = 0; e < retired.size(); ++e)
        for (; retired[e] != m.retired_o[e]; ++retired[e]) retired_at[e].push_back(now);
      if (moved || ram.Answering(now)) {
        quiet = 0;
      } else if (++quiet > kStallLimit) {
        return Hang(now, before);
      }
    }
    if (m.leftover_tokens_o)
      return InvalidArgument("the program ends with dependency tokens given and never taken");
    if (stats) {
      *stats = Since(before);
      stats->dram = ram.stats();
      stats->retired_at = std::move(retired_at);
    }
    return OkStatus();
  }

  static void PutWords(const std::vector<isa::Word>& words, size_t addr,
                       std::vector<uint8_t>& dram) {
    for (size_t i = 0; i < words.size(); ++i)
      for (size_t k = 0; k < 8; ++k) {
        dram[addr + 16 * i + k] = static_cast<uint8_t>(words[i].lo >> (8 * k));
        dram[addr + 16 * i + 8 + k] = static_cast<uint8_t>(words[i].hi >> (8 * k));
      }
  }

  void Tick() {
    model_->clk_i = 1;
    model_->eval();
    if (trace_ && trace_->isOpen()) trace_->dump(time_);
    ++time_;
    model_->clk_i = 0;
    model_->eval();
    if (trace_ && trace_->isOpen()) trace_->dump(time_);
    ++time_;
  }

  int64_t Counter(int sel) {
    model_->counter_sel_i = static_cast<uint8_t>(sel);
    model_->eval();
    return static_cast<int64_t>(model_->counter_o);
  }

  Status Hang(int64_t now, const RtlStats& before) {
    std::string engines;
    for (int e = 0; e < isa::kNumEngines; ++e) {
      const int64_t retired =
          Counter(kRetired + e) - before.engines[static_cast<size_t>(e)].retired;
      const int64_t last = static_cast<int64_t>(static_cast<uint32_t>(Counter(kLastRetired + e)));
      engines +=
          Cat(e ? "; " : "", isa::EngineName(static_cast<isa::Engine>(e)), " retired ", retired,
              last == 0xffffffff || retired == 0 ? std::string(" (none yet)")
                                                 : Cat(", the last instruction ", last));
    }
    return InvalidArgument(
        Cat("the RTL made no progress for ", kStallLimit, " cycles (cycle ", now, "): ", engines));
  }

  // The counters as they stand (they count from the reset).
  RtlStats Counters() {
    RtlStats s;
    s.cycles = s.counters.cycles = Counter(kCycles);
    for (int e = 0; e < isa::kNumEngines; ++e) {
      RtlEngineStats& es = s.engines[static_cast<size_t>(e)];
      es.busy_cycles = Counter(kBusy + e);
      es.token_cycles = Counter(kTokenWait + e);
      es.dram_cycles = Counter(kDramWait + e);
      es.retired = Counter(kRetired + e);
      const auto last = static_cast<uint32_t>(Counter(kLastRetired + e));
      es.last_retired = last == 0xffffffffU ? -1 : static_cast<int64_t>(last);
      s.counters.instructions[static_cast<size_t>(e)] = es.retired;
    }
    s.counters.bytes_loaded = Counter(kBytesLoaded);
    s.counters.bytes_stored = Counter(kBytesStored);
    s.counters.gemm_issues = Counter(kGemmIssues);
    s.counters.post_entries = Counter(kPostEntries);
    return s;
  }

  // This run's figures: the counters less what they stood at before it.
  RtlStats Since(const RtlStats& before) {
    RtlStats s = Counters();
    s.cycles = s.counters.cycles -= before.counters.cycles;
    for (size_t e = 0; e < s.engines.size(); ++e) {
      RtlEngineStats& es = s.engines[e];
      const RtlEngineStats& b = before.engines[e];
      es.busy_cycles -= b.busy_cycles;
      es.token_cycles -= b.token_cycles;
      es.dram_cycles -= b.dram_cycles;
      es.retired -= b.retired;
      if (es.retired == 0) es.last_retired = -1;
      s.counters.instructions[e] = es.retired;
    }
    s.counters.bytes_loaded -= before.counters.bytes_loaded;
    s.counters.bytes_stored -= before.counters.bytes_stored;
    s.counters.gemm_issues -= before.counters.gemm_issues;
    s.counters.post_entries -= before.counters.post_entries;
    return s;
  }

  HwConfig hw_;
  OpuBufferUnits units_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> trace_;
  uint64_t time_ = 0;
  bool reset_ = true;  // reset before the next run
  // The program the run before named next, and where its words are.
  std::vector<isa::Word> next_words_;
  size_t next_addr_ = 0;
};

}  // namespace opuc::rtl

#endif  // OPUC_SIM_RTL_HARNESS_H
