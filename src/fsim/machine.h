//===- src/fsim/machine.h - The simulated OPU's state ----------*- C++ -*-===//
//
// Buffers, DRAM and counters that the stage files (load.cc, gemm.cc,
// output_stage.cc, compare.cc, pool.cc, store.cc, ...) act on. Every access goes through
// a range check whose message names the instruction and the field.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_FSIM_MACHINE_H
#define OPUC_SRC_FSIM_MACHINE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/fsim/fsim.h"
#include "support/format.h"

namespace opuc::fsim {

/// The accumulator is 48 bits wide (numerics.md §1b: an i16 input's sum).
inline constexpr int64_t kAccMax = (int64_t{1} << 47) - 1;
inline constexpr int64_t kAccMin = -(int64_t{1} << 47);

struct Machine {
  OpuBufferUnits units;
  std::vector<int8_t> fm;                ///< fm_rows x L bytes (raw; signedness is the reader's).
  std::vector<int8_t> weight;            ///< weight_rows x (Co x L): row-major W[j][l].
  std::vector<uint8_t> param;            ///< param_rows x (Co x 8): bias i32, M i16, S i8, 0.
  std::vector<int64_t> acc;              ///< acc_entries x Co.
  std::vector<uint8_t>* dram = nullptr;  ///< Null when dry.
  int64_t dram_bytes = 0;                ///< What instructions may address.
  /// Checks only (CheckOpuProgram): every field and range is checked as in
  /// a run, then the instruction returns before touching data; the
  /// buffers are not even allocated.
  bool dry = false;
  OpuCounters counters;
  /// The depthwise window's line buffers: units.line_buffers rows of
  /// units.line_columns columns, Co bytes a column (row j's channel's), as
  /// the RTL keeps them; and per column the Gemm that last wrote it (an
  /// index into line_writers, -1 for none), what a Gemm.carry is checked
  /// against in dry runs too.
  std::vector<int8_t> line;
  std::vector<int64_t> line_writer;
  std::vector<isa::GemmInsn> line_writers;

  int64_t index = 0;      ///< The running instruction, for messages.
  std::string_view name;  ///< Its name ("Gemm").

  Machine(const HwConfig& hw, bool checks_only);

  /// OK when [first, first + count) lies in [0, size); else an error naming
  /// the field: "instruction 7 (Gemm): fm_addr reaches row 4100; the
  /// feature-map buffer has 4096".
  Status InRange(std::string_view field, int64_t first, int64_t count, int64_t size,
                 std::string_view what) const;
  /// What every post-processing stage checks first: `count` accumulator
  /// entries from `acc_addr` exist, and lo <= hi.
  Status CheckPost(int64_t acc_addr, int64_t count, int64_t lo, int64_t hi) const;
  Status Fail(const std::string& message) const {
    return InvalidArgument(Cat("instruction ", index, " (", name, "): ", message));
  }

  int32_t Bias(int64_t row, int64_t lane) const;
  /// Bytes 4 to 7 as an i32: a block pair's second block's bias (its
  /// Gemm's param row only; Output reads M and S there).
  int32_t SecondBias(int64_t row, int64_t lane) const;
  int32_t Multiplier(int64_t row, int64_t lane) const;
  int Shift(int64_t row, int64_t lane) const;
  int Alpha(int64_t row, int64_t lane) const;  ///< Byte 7: prelu's slope, i8.
};

Status ExecLoad(Machine& m, const isa::LoadInsn& insn);
Status ExecGemm(Machine& m, const isa::GemmInsn& insn);
Status ExecOutput(Machine& m, const isa::OutputInsn& insn);
Status ExecClamp(Machine& m, const isa::ClampInsn& insn);
Status ExecResAdd(Machine& m, const isa::ResAddInsn& insn);
Status ExecPRelu(Machine& m, const isa::PReluInsn& insn);
Status ExecPool(Machine& m, const isa::PoolInsn& insn);
Status ExecAverage(Machine& m, const isa::AverageInsn& insn);
Status ExecTable(Machine& m, const isa::TableInsn& insn);
Status ExecStore(Machine& m, const isa::StoreInsn& insn);

}  // namespace opuc::fsim

#endif  // OPUC_SRC_FSIM_MACHINE_H
