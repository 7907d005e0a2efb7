//===- src/codegen/input_fold.h - First-layer folding ------------*- C++ -*-===//
//
// A convolution over few channels (an image's 3 in 64 lanes) spends a
// whole array pass on each tap. When the host writes its input, the
// runtime can write it folded instead (opuc/program/input_fold.h: each
// output pixel's taps x channels as channels), and the layer becomes a 1x1,
// stride-1 convolution over kh·kw·C channels: face detection's 5x5x3 first
// conv takes 2 passes of 64 lanes a pixel instead of 25. docs/codegen.md,
// "First-layer folding"; docs/decisions.md says why the host folds.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_INPUT_FOLD_H
#define OPUC_SRC_CODEGEN_INPUT_FOLD_H

#include <map>
#include <optional>

#include "inner_product_group.h"
#include "opuc/program/input_fold.h"

namespace opuc::codegen {

/// The fold group `group` (described as `g`) would give its input, or
/// none. It would fold when all of these hold: the inner product is a
/// conv2d of dilation 1 that reads one input (no concat); only the host
/// writes that input (a graph input or a CPU step's value: no OPU group
/// stores it) and no other op of this group reads it; it has fewer channels
/// than the array's `lanes`, and folded it takes fewer array passes a pixel
/// (⌈kh·kw·C / L⌉ < kh·kw).
std::optional<InputFold> ChooseInputFold(const Graph& graph, const HwPartition& partition,
                                         const HwGroup& group, const InnerProductGroup& g,
                                         int64_t lanes);

/// One group's input and the fold ChooseInputFold gave it.
struct FoldCandidate {
  TensorId input = kNoTensor;
  std::optional<InputFold> fold;
};

/// Whether `t` may be folded as `fold`: every OPU group of `partition` that
/// reads it reads it as its input with that same fold (`candidates` by
/// group id), so that its one region serves them all — the two inner
/// products of a layer with 16-bit weights read one input.
bool EveryReaderFolds(const HwPartition& partition, TensorId t, const InputFold& fold,
                      const std::map<int32_t, FoldCandidate>& candidates);

/// Makes `g` the 1x1, stride-1 convolution over `fold`'s folded map. Its
/// weights stay: a conv2d's [O, kh, kw, I] bytes are [O, kh·kw·I], the
/// folded channels' order.
void FoldInnerProduct(const InputFold& fold, InnerProductGroup& g);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_INPUT_FOLD_H
