//===- opuc/partition/dfg.h - IR nodes as datapath requests -------*- C++ -*-===//
//
// The DFG of seed 002: each IR node, looked at once, becomes a request to
// the HDFG (which modules may run it, what a pad must feed) or a reason why
// the datapath cannot run it. The op map, for a given HwConfig:
//
//   ipa         conv2d, depthwise_conv2d (ipa.depthwise), transpose_conv2d
//               (ipa.transpose_conv), fully_connected; kernel, stride and
//               dilation within the ipa's limits
//   adder       add/sub of a per-channel constant (add_pre or add)
//   multiplier  mul by a per-channel constant (mul_pre or mul)
//   comparator  relu, relu6, relu_n1_to_1, leaky_relu, prelu with per-channel
//               alpha; sigmoid/tanh/hard_swish on i8 through 256-entry tables
//               (compare.lookup_table)
//   pool        max_pool2d, avg_pool2d, mean over H and W (global average)
//   res_adder   add of two feature maps of the same shape
//   upsample    resize_nearest by exactly 2 without align_corners
//   pad         zero pad of H and W, feeding an inner product or a pool
//   mem_rd      concat of NHWC maps along channels
//
// Two kinds of node wait for a reader to collect them (seed 002's
// CollectInputs): ops computed from constants alone (packed with the
// weights at compile time) and a zero pad of channels that only a residual
// add reads (the res_adder reads the missing channels as zeros). Everything
// else, or anything not in f32/i8, goes to the CPU.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PARTITION_DFG_H
#define OPUC_PARTITION_DFG_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/ir/id_vector.h"
#include "opuc/opu/hw_config.h"
#include "opuc/status.h"

namespace opuc {

enum class DfgRole : uint8_t {
  kStage,         ///< Runs on one HDFG stage.
  kConstantPrep,  ///< Computed from constants only: collected by its reader.
  kResidualPad,   ///< Channel zero pad read only by a residual add: collected by it.
  kCpu,           ///< The datapath cannot run it.
};

struct DfgNode {
  DfgRole role = DfgRole::kCpu;
  StageRequest request;                ///< kStage.
  std::vector<int32_t> stream_inputs;  ///< Input positions that may carry the streamed map.
  std::string what;                    ///< "conv2d", "residual add", ... for messages.
  std::string cpu_why;                 ///< kCpu: why the datapath cannot run it (no names).
};

struct Dfg {
  IdVector<NodeId, DfgNode> nodes;  ///< One per IR node.
};

/// Maps every node of `graph` (verified) for the datapath `hw`.
Dfg BuildDfg(const Graph& graph, const HwConfig& hw);

}  // namespace opuc

#endif  // OPUC_PARTITION_DFG_H
