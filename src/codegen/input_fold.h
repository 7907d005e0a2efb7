//===- src/codegen/input_fold.h - First-layer folding ------------*- C++ -*-===//
//
// A convolution over few channels (an image's 3 in 64 lanes) spends a
// whole array pass on each tap. When the host writes its input, the
// runtime can write it folded instead (opuc/program/input_fold.h: each
// output pixel's taps x channels as channels), and the layer becomes a 1x1,
// stride-1 convolution over kh·kw·C channels: face detection's 5x5x3 first
// conv takes 2 passes of 64 lanes a pixel instead of 25. Where its output
// channels fill half the array's rows or less in a block (24 channels: 16
// and 8), a fold of pixel pairs holds two output pixels' windows, and each
// block makes Co/2 channels of both (3 passes of 2 a pair instead of 2 of
// 2 a pixel). docs/codegen.md, "First-layer folding"; docs/decisions.md
// says why the host folds.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_INPUT_FOLD_H
#define OPUC_SRC_CODEGEN_INPUT_FOLD_H

#include <map>
#include <optional>
#include <vector>

#include "estimate.h"
#include "inner_product_group.h"
#include "opuc/isa/isa.h"
#include "opuc/program/activation_layout.h"
#include "opuc/program/input_fold.h"

namespace opuc::codegen {

/// The fold group `group` (described as `g`) would give its input, or
/// none. It would fold when all of these hold: the inner product is a
/// conv2d of dilation 1 that reads one input (no concat); only the host
/// writes that input (a graph input or a CPU step's value: no OPU group
/// stores it) and no other op of this group reads it; it has fewer channels
/// than the array's `lanes`, and folded it takes fewer array passes a pixel
/// (⌈kh·kw·C / L⌉ < kh·kw).
/// The fold is of single pixels; PairsCutPasses says whether pairs would
/// be better.
std::optional<InputFold> ChooseInputFold(const Graph& graph, const HwPartition& partition,
                                         const HwGroup& group, const InnerProductGroup& g,
                                         int64_t lanes);

/// Whether `fold` with pixel pairs takes fewer array passes for `g` on an
/// array of `lanes` x `out_lanes` (an even Co), and the group allows them:
/// nothing but entrywise stages after the conv (no residual, pool or
/// upsample, which read the output's own grid), its output stored.
/// `pointwise_pairs`: the single fold's 1×1 may take output pixels in pairs
/// (UsesDensePairs), two pixels a pass over an even width.
bool PairsCutPasses(const InputFold& fold, const InnerProductGroup& g, int64_t lanes,
                    int64_t out_lanes, bool pointwise_pairs);

/// One group's input, the fold ChooseInputFold gave it, and whether pairs
/// would cut its passes.
struct FoldCandidate {
  TensorId input = kNoTensor;
  std::optional<InputFold> fold;
  bool pairs = false;
};

/// The fold `t` takes, or none: every OPU group of `partition` that reads
/// it must read it as its input with one fold (`candidates` by group id),
/// so that its one region serves them all — the two inner products of a
/// layer with 16-bit weights read one input. Pixel pairs when every one of
/// them gains by them.
std::optional<InputFold> SharedFold(const HwPartition& partition, TensorId t,
                                    const std::map<int32_t, FoldCandidate>& candidates);

/// Makes `g` the 1x1, stride-1 convolution over `fold`'s folded map. Its
/// weights stay: a conv2d's [O, kh, kw, I] bytes are [O, kh·kw·I], the
/// folded channels' order. With pixel pairs its output blocks hold Co/2
/// channels of two pixels (InnerProductGroup::pairs), their biases, shifts
/// and slopes again in each half.
void FoldInnerProduct(const InputFold& fold, InnerProductGroup& g, int64_t out_lanes);

/// The Stores of output block `block` of a pixel-pair tile from folded
/// pixel (y0, x0), `rows` x `cols` entries of two pixels each from
/// accumulator entry `acc_addr` (pitch `pitch`), into the conv's output;
/// with `extra_blocks`, blocks `block` to `block + extra_blocks` together
/// (Store.extra_blocks, each block's entries where StoreBlockEntry says).
void StorePixelPairs(const InnerProductGroup& g, const ActivationLayout& output, int64_t acc_addr,
                     int64_t rows, int64_t cols, int64_t pitch, int64_t block, int64_t y0,
                     int64_t x0, CycleEstimate& estimate, std::vector<isa::Instruction>& store,
                     int64_t extra_blocks = 0);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_INPUT_FOLD_H
