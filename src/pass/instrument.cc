//===- src/pass/instrument.cc - Hooks around every pass -------------------===//
#include "opuc/pass/instrument.h"

#include "opuc/ir/printer.h"
#include "opuc/ir/verifier.h"

namespace opuc {

void PassInstrument::BeforePass(const PassInfo&, const Graph&) {}
Status PassInstrument::AfterPass(const PassInfo&, const Graph&, bool, const PassCounters&) {
  return OkStatus();
}

void TimingInstrument::BeforePass(const PassInfo&, const Graph&) {
  start_ = std::chrono::steady_clock::now();
}

Status TimingInstrument::AfterPass(const PassInfo& info, const Graph&, bool, const PassCounters&) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  entries_.push_back({info.name, elapsed.count()});
  return OkStatus();
}

void PrintIrInstrument::BeforePass(const PassInfo& info, const Graph& graph) {
  if (before_) out_ << "// IR before " << info.name << "\n" << PrintGraph(graph);
}

Status PrintIrInstrument::AfterPass(const PassInfo& info, const Graph& graph, bool changed,
                                    const PassCounters&) {
  if (after_) {
    out_ << "// IR after " << info.name << (changed ? "" : " (unchanged)") << "\n"
         << PrintGraph(graph);
  }
  return OkStatus();
}

Status VerifyInstrument::AfterPass(const PassInfo& info, const Graph& graph, bool,
                                   const PassCounters&) {
  Status status = Verify(graph);
  if (status.ok()) return status;
  return InternalError("pass " + info.name + " left an invalid graph: " + status.message());
}

Status CounterInstrument::AfterPass(const PassInfo& info, const Graph&, bool changed,
                                    const PassCounters& counters) {
  entries_.push_back({info.name, changed, counters});
  return OkStatus();
}

}  // namespace opuc
