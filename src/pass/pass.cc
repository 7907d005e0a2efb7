//===- src/pass/pass.cc - Pass counters and function passes ---------------===//
#include "opuc/pass/pass.h"

#include "support/format.h"

namespace opuc {
namespace {

class FunctionPass : public Pass {
 public:
  FunctionPass(PassInfo info, PassFunction function)
      : info_(std::move(info)), function_(std::move(function)) {}
  const PassInfo& info() const override { return info_; }
  Expected<bool> Run(Graph& graph, PassContext& ctx, PassCounters& counters) override {
    return function_(graph, ctx, counters);
  }

 private:
  PassInfo info_;
  PassFunction function_;
};

}  // namespace

void PassCounters::Add(std::string_view what, int64_t count) {
  for (auto& [name, value] : entries_) {
    if (name == what) {
      value += count;
      return;
    }
  }
  entries_.emplace_back(std::string(what), count);
}

std::string PassCounters::ToString() const {
  std::string text;
  for (const auto& [name, value] : entries_)
    text += Cat(text.empty() ? "" : ", ", name, ": ", value);
  return text;
}

std::unique_ptr<Pass> MakeFunctionPass(PassInfo info, PassFunction function) {
  return std::make_unique<FunctionPass>(std::move(info), std::move(function));
}

}  // namespace opuc
