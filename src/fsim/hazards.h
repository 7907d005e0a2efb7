//===- src/fsim/hazards.h - Buffer accesses the tokens must order -*- C++ -*-===//
//
// The engines run side by side, ordered only by their tokens, so a buffer
// row that one engine writes and another reads must have a token chain
// between the two, or the result depends on which engine is faster: the
// simulator (which runs each engine as far ahead as it can) and the RTL
// would compute different things from the same words. The tracker keeps
// a vector clock per engine (what of every engine it has heard of through
// tokens) and, per buffer row, its last writer and its last reader on each
// engine; an access not ordered after a conflicting one on another engine
// is refused, naming both instructions.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_FSIM_HAZARDS_H
#define OPUC_SRC_FSIM_HAZARDS_H

#include <array>
#include <cstdint>
#include <deque>
#include <string_view>
#include <vector>

#include "opuc/fsim/fsim.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_access.h"
#include "opuc/status.h"

namespace opuc::fsim {

class HazardTracker {
 public:
  explicit HazardTracker(const OpuBufferUnits& units);

  /// Engine `engine` starts instruction `index`, after popping its tokens.
  void Start(int engine);
  /// Checks `accesses` of instruction `index` (named `name`) against the
  /// other engines' and records them.
  Status Touch(int engine, int64_t index, std::string_view name,
               const std::vector<BufferAccess>& accesses);
  /// Token traffic: what the pusher knows travels with the token.
  void Push(int from, int to);
  void Pop(int from, int to);
  /// A Fence passed: the load engine knows the program's first `stores`
  /// Stores are done (the store engine's clock counts its Stores).
  void Fence(int64_t stores);
  /// Checks that instruction `index` (a Load or a Store, on `engine`) is
  /// ordered after `before`, the latest earlier instruction of the other
  /// of the two whose DRAM bytes meet its own (dram_order.h; -1: none).
  Status OrderDram(int engine, int64_t index, std::string_view name, int64_t before);

 private:
  using Clock = std::array<int64_t, isa::kNumEngines>;
  struct Mark {
    int64_t time = 0;    ///< The engine's clock when it touched the row; 0 never.
    int64_t index = -1;  ///< The instruction.
  };
  struct Row {
    int8_t writer = -1;  ///< The engine of the last write.
    Mark write;
    std::array<Mark, isa::kNumEngines> reads;  ///< Since that write.
  };

  bool Ordered(int engine, int other, const Mark& mark) const {
    return mark.time <= clocks_[static_cast<size_t>(engine)][static_cast<size_t>(other)];
  }

  std::array<Clock, isa::kNumEngines> clocks_{};
  std::array<std::deque<Clock>, isa::kNumEngines * isa::kNumEngines> queues_;  // [from][to]
  std::array<std::vector<Row>, kNumOnChipBuffers> rows_;
  std::vector<std::string_view> names_;  // of every instruction seen, by index
  std::vector<int64_t> started_;         // its engine's clock when it ran, by index; 0 not yet
};

}  // namespace opuc::fsim

#endif  // OPUC_SRC_FSIM_HAZARDS_H
