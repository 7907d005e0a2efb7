//===- src/codegen/group_reader.h - Reading a group op by op --*- C++ -*-===//
//
// What DescribeGroup (inner_product_group.cc) reads a group with: the
// messages, fraction lengths and clamp ranges every op needs, and one
// reader per stage after the inner product (post_steps.cc, pool_step.cc,
// upsample_step.cc). Each reader
// takes the op that follows what `g` holds so far, or says why not.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_GROUP_READER_H
#define OPUC_SRC_CODEGEN_GROUP_READER_H

#include <string>
#include <string_view>
#include <utility>

#include "inner_product_group.h"
#include "opuc/ir/op_attrs.h"

namespace opuc::codegen {

/// "node 3 'conv' (conv2d)".
std::string What(const Graph& graph, NodeId id);
/// Unsupported: the node, its stage, and why codegen does not take it yet.
Status NotYet(const Graph& graph, const HwPartition& p, NodeId id, std::string_view why);
/// The one fraction length of a quantized tensor.
Expected<int> Fraction(const Graph& graph, TensorId t);
/// numerics.md §3: the format's range narrowed by a clamp activation at f.
Expected<std::pair<int64_t, int64_t>> Range(Activation a, int f, DType format,
                                            const std::string& what);

Status ReadClamp(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g);
Status ReadPRelu(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g);
Status ReadResidual(const Graph& graph, const HwPartition& p, const HwGroup& group, NodeId id,
                    InnerProductGroup& g);
Status ReadTable(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g);
/// A max pool, average pool or mean (pool_step.cc).
Status ReadPool(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g);
/// A concat at memory read, the group's first op (input_blocks.cc).
Status ReadConcat(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g);
/// A nearest 2x upsample of the last value (upsample_step.cc).
Status ReadUpsample(const Graph& graph, const HwPartition& p, const HwGroup& group, NodeId id,
                    InnerProductGroup& g);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_GROUP_READER_H
