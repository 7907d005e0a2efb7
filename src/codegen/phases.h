//===- src/codegen/phases.h - Transposed convolutions as phases -*- C++ -*-===//
//
// A transposed convolution whose kernel equals its stride s gives every
// output pixel exactly one tap: output pixel (s·y + i, s·x + j) is input
// pixel (y, x) times tap (i, j). Run over the zero-inserted input it spends
// s² times those MACs on zeros; run as phases it does not: each tap is a
// 1x1 Gemm over the input's own pixels into an accumulator sub-tile of its
// own, and each sub-tile is stored to every s-th output pixel
// (docs/codegen.md, "Transposed convolutions as phases").
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_PHASES_H
#define OPUC_SRC_CODEGEN_PHASES_H

#include <cstdint>
#include <vector>

#include "estimate.h"
#include "inner_product_group.h"
#include "opuc/codegen/codegen.h"
#include "opuc/isa/isa.h"

namespace opuc::codegen {

/// Rewrites `g`, a transposed convolution over its zero-inserted input,
/// as phases where it may (kernel = stride > 1, no cropping, nothing after
/// it in the group but entrywise stages): its window is then the input's
/// own grid (out_h x out_w the input's pixels, each taking kh x kw output
/// pixels), its taps the phases, every tap reading the same pixel (dy = dx
/// = 0), and phases_y, phases_x the stride.
void UsePhases(InnerProductGroup& g);

/// The stores of a phased tile of `rows` x `cols` pixels of the input's
/// grid from (y0, x0), its first `kept_rows` x `kept_cols` stored: the
/// accumulator sub-tile of tap t, from `acc_base + t · rows · cols` (pitch
/// `cols`), of output block `c0`'s `lanes`, to every phases-th pixel of
/// `layout` from the tap's phase of pixel (y0, x0).
void StorePhases(const InnerProductGroup& g, const ActivationLayout& layout, int64_t acc_base,
                 int64_t rows, int64_t cols, int64_t kept_rows, int64_t kept_cols, int64_t c0,
                 int64_t lanes, int64_t y0, int64_t x0, CycleEstimate& estimate,
                 std::vector<isa::Instruction>& store);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_PHASES_H
