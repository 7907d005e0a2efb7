//===- src/codegen/chained_pairs.h - Depthwise output kept on chip -*- C++ -*-===//
//
// A depthwise group whose output only a 1x1 group right after it reads
// runs with that group as one OPU step (docs/codegen.md, "Chained pairs"):
// its Stores write the map into the top of the feature-map buffer
// (Store.to_fm), a row a pixel, block after block, and the 1x1's Gemms
// read it there, so it never goes to DRAM and back.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_CHAINED_PAIRS_H
#define OPUC_SRC_CODEGEN_CHAINED_PAIRS_H

#include <string>

#include "inner_product_group.h"
#include "opuc/codegen/codegen.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/activation_layout.h"
#include "tiling.h"

namespace opuc::codegen {

/// The feature-map rows `first`'s output takes on chip: a row a pixel of
/// each block of L channels.
int64_t ChainRows(const InnerProductGroup& first, int64_t lanes);

/// Whether `second`, the group right after `first`, reads `first`'s
/// output and `first` is a depthwise conv: a pair that may chain, or whose
/// step says why not.
bool MayChain(const InnerProductGroup& first, const InnerProductGroup& second);

/// Why `first` and `second`, a pair that MayChain, do not run as a chained
/// pair ("the 1x1 reads more than the depthwise output"); empty when they
/// may: then some tiling of `first` stores beside the map
/// (ChainTilingRefusal).
std::string ChainRefusal(const Graph& graph, const HwPartition& partition,
                         const InnerProductGroup& first, const InnerProductGroup& second,
                         const OpuBufferUnits& units, const PlanOptions& options);

/// Why `first`'s tiling cannot store its output into the feature-map
/// buffer (a Store there writes each pixel's row whole: every block of L
/// channels in one); empty when it can.
std::string ChainTilingRefusal(const InnerProductGroup& first, const Tiling& tiling,
                               const OpuBufferUnits& units);

/// The activation layout of `first`'s output on chip, from feature-map
/// row `row`: its address counts the buffer's bytes.
ActivationLayout ChainLayout(const Graph& graph, const InnerProductGroup& first, int64_t row,
                             int64_t lanes);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_CHAINED_PAIRS_H
