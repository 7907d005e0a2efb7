//===- opuc/partition/reason.h - Why a node is where it is -------*- C++ -*-===//
//
// The partitioner explains every placement. A reason is data: a kind and the
// ids it refers to (groups, nodes, a tensor, HDFG stages, counts), never text
// with ids written into it, so renumbering the groups rewrites ids, not
// strings, and a model's names (which may hold anything: braces, quotes,
// newlines) are only ever copied into the final text. FormatReason writes the
// sentence once, for the command line's text and JSON.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PARTITION_REASON_H
#define OPUC_PARTITION_REASON_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"

namespace opuc {

enum class ReasonKind : uint8_t {
  // A node placed in a group.
  kJoined,             ///< stage `stage` after `other_stage` in `group`
  kCollectedPad,       ///< collected by `node`: the res_adder reads the missing channels as zeros
  kCollectedConstant,  ///< collected by `node`: computed from constants when weights are packed
  // Why a node could not join `group` (it then starts a group of its own).
  kSecondIpa,       ///< a second inner product
  kSecondPad,       ///< a second pad before an inner product
  kPadAfterIpa,     ///< a pad for an inner product after the group's ipa
  kNothingFollows,  ///< the group's last stage `stage` has no successor
  kNoRepeat,        ///< `what` cannot follow `stage`: no unit runs twice in a row
  kNoStageAfter,    ///< no stage after `stage` runs `what`
  kStageUsed,       ///< stage `stage` is already used
  kStreamedInside,  ///< `node` reads `tensor`, inside the group and streamed past
  kWaitForItself,   ///< `tensor` comes from `other_group`, which depends on the group
  kBuried,          ///< `node`'s value, read by `other_node` (-1: the graph), cannot be
                    ///< stored: `what` is the module, empty when it is on no stage
  kTapInPlace,      ///< `node`'s value, read by `other_node` (-1: the graph), enters no
                    ///< pool or upsample: a later post stage would overwrite it in place
  kTooManyStores,   ///< the group would store `count` values; store.max_outputs is `limit`
  // Why a node starts a group when there was nothing to refuse.
  kHeadsGroup,        ///< `what` reads its inputs from memory
  kReadsConstant,     ///< reads constant `tensor` as its feature map
  kReadsGraphInput,   ///< reads graph input `tensor` from DRAM
  kReadsOffDatapath,  ///< reads `tensor` from `node`, which is on no datapath stage
  kReadsFromCpu,      ///< reads `tensor` from the CPU (`node`)
  kStreamedPast,      ///< reads `tensor`, which `group` streamed past (it went on to `node`)
  // On the CPU.
  kNoHdfgStage,    ///< `what`: no stage of this OPU's HDFG runs it
  kNotInDatapath,  ///< `what`: `detail` (why the datapath cannot run the op)
};

/// "joined", "second_ipa", ...: the kind's name in JSON.
const char* ReasonKindName(ReasonKind kind);

/// One clause of a reason. Fields a kind does not use stay at -1 / 0 / "".
struct ReasonPart {
  ReasonKind kind = ReasonKind::kNotInDatapath;
  int32_t group = -1;  ///< A group id (execution order once partitioned).
  int32_t other_group = -1;
  NodeId node = -1;
  NodeId other_node = -1;
  TensorId tensor = kNoTensor;
  int32_t stage = -1;  ///< HDFG stage indices.
  int32_t other_stage = -1;
  int64_t count = 0;
  int64_t limit = 0;
  std::string what;    ///< Words of opuc's own: "conv2d", "residual add", a module name.
  std::string detail;  ///< kNotInDatapath: the datapath's limit, in opuc's words.
};

/// A node's reason: one clause, or several refusals (one per group it could
/// have joined), printed joined by "; ".
using Reason = std::vector<ReasonPart>;

/// The reason as one line of text: groups by id, stages by their name in
/// `stages` (the HDFG's), node names as the model spells them and tensor
/// names in quotes, control characters escaped (\n) so the line stays one.
std::string FormatReason(const Graph& graph, const std::vector<std::string>& stages,
                         const Reason& reason);

}  // namespace opuc

#endif  // OPUC_PARTITION_REASON_H
